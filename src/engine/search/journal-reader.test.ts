// Reading a journal beside the engine that writes it: whole lines only, from a watermark,
// through a compaction (the segment the index stopped in is gone: the snapshot is read), and
// every message once in the index however often it is read.
import { appendFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Journal, emptyState, applyRecord, type JournalRecord } from '../journal/journal.js';
import { IndexDb, type Watermark } from './index-db.js';
import { NOT_READ, readJournalFrom } from './journal-reader.js';

let base: string;
beforeEach(async () => {
  base = await mkdtemp(join(tmpdir(), 'td-jr-'));
});
afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

const observed = (n: number): JournalRecord => ({ t: 'observed', id: `o${n}`, from: 'researcher', to: 'user', text: `answer number ${n}`, timestamp: new Date(1_767_000_000_000 + n * 1000).toISOString(), at: 1 });
const queued = (n: number): JournalRecord => ({ t: 'queued', id: `q${n}`, to: 'researcher', from: 'user', text: `question number ${n}`, timestamp: new Date(1_767_000_000_000 + n * 1000).toISOString(), at: 1 });

async function readAll(dir: string, from: Watermark) {
  const ids: string[] = [];
  let mark = from;
  for await (const b of readJournalFrom(dir, 'alpha', from, 3)) {
    ids.push(...b.rows.map((r) => r.id));
    mark = b.mark;
  }
  return { ids, mark };
}

describe('readJournalFrom', () => {
  it('reads sent and observed records from a watermark, and leaves a line being written for later', async () => {
    const dir = join(base, 'alpha');
    const { journal } = await Journal.open(dir);
    await journal.append(queued(1), observed(2), { t: 'delivered', id: 'q1', to: 'researcher', at: 2 }, observed(3));
    const first = await readAll(dir, NOT_READ);
    expect(first.ids).toEqual(['q1', 'o2', 'o3']);
    await journal.append(observed(4));
    await journal.close();
    await appendFile(join(dir, 'seg-00000000.jsonl'), JSON.stringify(observed(5)).slice(0, 20));
    const second = await readAll(dir, first.mark);
    expect(second.ids).toEqual(['o4']);
    await appendFile(join(dir, 'seg-00000000.jsonl'), JSON.stringify(observed(5)).slice(20) + '\n');
    expect((await readAll(dir, second.mark)).ids).toEqual(['o5']);
  });

  it('reads the snapshot when the segment it stopped in was compacted, and the index keeps each message once', async () => {
    const dir = join(base, 'alpha');
    const opened = await Journal.open(dir);
    const state = emptyState();
    const add = async (r: JournalRecord) => {
      applyRecord(state, r, 'test');
      await opened.journal.append(r);
    };
    for (let i = 1; i <= 4; i++) await add(observed(i));
    const db = (await IndexDb.open(join(base, 'index.sqlite'))).db;
    let mark = NOT_READ;
    for await (const b of readJournalFrom(dir, 'alpha', mark)) {
      db.add(b.rows);
      mark = b.mark;
    }
    await add(observed(5));
    await opened.journal.compact(state);
    await add(queued(6));
    await opened.journal.close();
    const after = await readAll(dir, mark);
    expect(after.ids.sort()).toEqual(['o1', 'o2', 'o3', 'o4', 'o5', 'q6']);
    expect(after.mark).toEqual({ seg: 1, off: expect.any(Number) });
    for await (const b of readJournalFrom(dir, 'alpha', mark)) db.add(b.rows);
    expect(db.count()).toBe(6);
    db.close();
  });
});
