import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { appendFile, cp, mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Journal, JournalError, applyRecord, emptyState, type FoldedState, type JournalRecord } from './journal.js';
import { tempTeams, type TempTeams } from '../../../test/helpers/team-fixture.js';
import { spawnTs } from '../../../test/helpers/child.js';
import { REPO_ROOT } from '../../../test/helpers/tmp.js';

let t: TempTeams;
let dir: string;
const opened: Journal[] = [];
beforeEach(async () => {
  t = await tempTeams('teamdeck-journal-');
  dir = join(t.stateDir, 'journal', 'alpha');
});
afterEach(async () => {
  for (const j of opened.splice(0)) await j.close().catch(() => {});
  await t.cleanup();
});

const seg = (n: number) => join(dir, `seg-${String(n).padStart(8, '0')}.jsonl`);

async function openJournal(): Promise<{ journal: Journal; state: FoldedState; tornBytes: number }> {
  const r = await Journal.open(dir);
  opened.push(r.journal);
  return r;
}

async function reopen(j: Journal): Promise<{ journal: Journal; state: FoldedState; tornBytes: number }> {
  await j.close();
  return openJournal();
}

let n = 0;
function queued(to = 'ann', text = `message ${++n}`): JournalRecord & { t: 'queued' } {
  return { t: 'queued', id: `id-${n}-${text.length}`, to, from: 'user', text, timestamp: new Date(1_767_000_000_000 + n).toISOString(), at: 1_767_000_000_000 + n };
}
const delivered = (q: { id: string; to: string }, at = 2): JournalRecord => ({ t: 'delivered', id: q.id, to: q.to, at });
const consumed = (q: { id: string; to: string }, at = 3): JournalRecord => ({ t: 'consumed', id: q.id, to: q.to, at, how: 'pruned' });
const observed = (id: string): JournalRecord => ({ t: 'observed', id, from: 'ann', to: 'user', text: `seen ${id}`, timestamp: '2026-01-01T00:00:00.000Z', at: 5 });

/** The folded state as plain data, to compare two folds. */
function plain(s: FoldedState) {
  return { sent: [...s.sent.entries()], observed: [...s.observed.entries()], records: s.records };
}

/** Applies records to a fresh state the way a fold does (the expected state). */
function folded(records: JournalRecord[]): FoldedState {
  const s = emptyState();
  for (const r of records) applyRecord(s, r, 'expected');
  return s;
}

describe('Journal: torn tails', () => {
  it('cuts a partial last line from a crash mid-append, reports its size, and keeps every earlier record', async () => {
    const { journal } = await openJournal();
    const a = queued();
    const b = queued();
    await journal.append(a, delivered(a), b);
    await journal.close();
    const torn = JSON.stringify(delivered(b)).slice(0, 17);
    await appendFile(seg(0), torn);

    const r = await openJournal();
    expect(r.tornBytes).toBe(Buffer.byteLength(torn));
    expect(plain(r.state)).toEqual(plain(folded([a, delivered(a), b])));
    expect(r.state.sent.get(b.id)!.deliveredAt).toBeUndefined();
    // The file is cut back to the last whole line, and appending continues cleanly.
    expect((await readFile(seg(0), 'utf8')).endsWith('\n')).toBe(true);
    await r.journal.append(delivered(b));
    const again = await reopen(r.journal);
    expect(again.tornBytes).toBe(0);
    expect(again.state.sent.get(b.id)!.deliveredAt).toBe(2);
  });

  it('keeps a whole last record that only misses its newline', async () => {
    const { journal } = await openJournal();
    const a = queued();
    await journal.append(a);
    await journal.close();
    await appendFile(seg(0), JSON.stringify(delivered(a)));

    const r = await openJournal();
    expect(r.tornBytes).toBe(0);
    expect(r.state.sent.get(a.id)!.deliveredAt).toBe(2);
    // Completed with its newline, so the next record starts on its own line.
    const b = queued();
    await r.journal.append(b);
    const again = await reopen(r.journal);
    expect(plain(again.state)).toEqual(plain(folded([a, delivered(a), b])));
    expect((await readFile(seg(0), 'utf8')).trim().split('\n')).toHaveLength(3);
  });

  it('refuses an incomplete line in a segment that is not the newest (that is damage, not a crash)', async () => {
    const a = queued();
    await writeFile(join(await mkdirp(dir), 'seg-00000000.jsonl'), JSON.stringify(a) + '\n' + '{"t":"deliv');
    await writeFile(seg(1), JSON.stringify(queued()) + '\n');
    await expect(Journal.open(dir)).rejects.toThrow(/seg-00000000\.jsonl: last line is incomplete/);
  });
});

describe('Journal: fails closed', () => {
  it('names file:line of a malformed middle line and skips nothing', async () => {
    const a = queued();
    const b = queued();
    const lines = [JSON.stringify(a), '{"t":"delivered","id":', JSON.stringify(b)];
    await writeFile(join(await mkdirp(dir), 'seg-00000000.jsonl'), lines.join('\n') + '\n');
    const err = await Journal.open(dir).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(JournalError);
    expect((err as Error).message).toContain(`${seg(0)}:2:`);
    expect((err as Error).message).toMatch(/malformed/);
    // Nothing was rewritten or cut: the bytes wait for a human.
    expect(await readFile(seg(0), 'utf8')).toBe(lines.join('\n') + '\n');
  });

  it('names file:line of a line that is JSON but not a record', async () => {
    const a = queued();
    await writeFile(join(await mkdirp(dir), 'seg-00000000.jsonl'), [JSON.stringify(a), JSON.stringify({ t: 'sent', id: 'x', to: 'ann', at: 1 }), ''].join('\n'));
    await expect(Journal.open(dir)).rejects.toThrow(`${seg(0)}:2: not a journal record`);
  });

  const a = { t: 'queued' as const, id: 'm1', to: 'ann', from: 'user' as const, text: 'hi', timestamp: '2026-01-01T00:00:00.000Z', at: 1 };
  // [name, records, expected message, line of the offending record]
  const impossible: Array<[string, JournalRecord[], RegExp, number]> = [
    ['delivered before queued', [delivered(a), a], /delivery of m1 before it was queued/, 1],
    ['delivered to a different target', [a, { t: 'delivered', id: 'm1', to: 'bob', at: 2 }], /m1 queued for ann but delivered to bob/, 2],
    ['the same id queued twice', [a, delivered(a), { ...a, text: 'again' }], /m1 is queued twice/, 3],
    ['consumed before delivered', [a, consumed(a), delivered(a)], /m1 read before it was delivered/, 2],
    ['consumed but never queued', [consumed(a)], /receipt for m1, which was never queued/, 1],
    ['consumed from a different target', [a, delivered(a), { ...consumed(a), to: 'bob' } as JournalRecord], /receipt for m1 from bob, but it was sent to ann/, 3],
  ];
  for (const [name, records, message, line] of impossible) {
    it(`refuses an impossible history: ${name}`, async () => {
      await writeFile(join(await mkdirp(dir), 'seg-00000000.jsonl'), records.map((r) => JSON.stringify(r) + '\n').join(''));
      const err = await Journal.open(dir).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(JournalError);
      expect((err as Error).message).toMatch(message);
      expect((err as Error).message).toContain(`${seg(0)}:${line}:`);
    });
  }
});

describe('Journal: compaction', () => {
  async function history(journal: Journal, count: number): Promise<JournalRecord[]> {
    const all: JournalRecord[] = [];
    for (let i = 0; i < count; i++) {
      const q = queued(i % 2 ? 'ann' : 'bob');
      const recs = [q, delivered(q, 10 + i)];
      if (i % 3 === 0) recs.push(consumed(q, 20 + i));
      if (i % 4 === 0) recs.push(observed(`o${i}`));
      await journal.append(...recs);
      all.push(...recs);
    }
    return all;
  }

  it('folds to the same state after compact(), from a snapshot and a fresh segment, with the old files gone', async () => {
    const r = await openJournal();
    const records = await history(r.journal, 40);
    const state = folded(records);
    await r.journal.compact(state);
    expect((await readdir(dir)).sort()).toEqual(['seg-00000001.jsonl', 'snapshot-00000001.json']);

    const after = await reopen(r.journal);
    expect(plain(after.state)).toEqual(plain(state));
    // It keeps working: new records go to the new segment and survive the next fold.
    const q = queued();
    await after.journal.append(q, delivered(q));
    const again = await reopen(after.journal);
    expect(plain(again.state)).toEqual(plain(folded([...records, q, delivered(q)])));
    expect((await readFile(join(dir, 'seg-00000001.jsonl'), 'utf8')).trim().split('\n')).toHaveLength(2);
    // A second compaction moves on to the next pair of files.
    await again.journal.compact(again.state);
    expect((await readdir(dir)).sort()).toEqual(['seg-00000002.jsonl', 'snapshot-00000002.json']);
    expect(plain((await reopen(again.journal)).state)).toEqual(plain(folded([...records, q, delivered(q)])));
  });

  it('folds correctly after a crash between writing the snapshot and removing the old segment', async () => {
    const r = await openJournal();
    const records = await history(r.journal, 30);
    await r.journal.close();
    const backup = join(t.base, 'old-seg.jsonl');
    await cp(seg(0), backup);
    const c = await openJournal();
    await c.journal.compact(c.state);
    const q = queued();
    await c.journal.append(q);
    await c.journal.close();
    // The crash: the old segment was never removed.
    await cp(backup, seg(0));
    expect((await readdir(dir)).sort()).toEqual(['seg-00000000.jsonl', 'seg-00000001.jsonl', 'snapshot-00000001.json']);

    const after = await openJournal();
    expect(plain(after.state)).toEqual(plain(folded([...records, q])));
  });

  it('folds correctly after a crash before the snapshot was in place (new empty segment, leftover temp file)', async () => {
    const r = await openJournal();
    const records = await history(r.journal, 10);
    await r.journal.close();
    await writeFile(seg(1), '');
    await writeFile(join(dir, 'snapshot-00000001.json.tmp.0badf00d'), '{"v":1,"nextSeg');

    const after = await openJournal();
    expect(plain(after.state)).toEqual(plain(folded(records)));
    // New records go to the newest segment and fold after the old one.
    const q = queued();
    await after.journal.append(q);
    expect(plain((await reopen(after.journal)).state)).toEqual(plain(folded([...records, q])));
  });

  it('does not lose records appended while a compaction is under way', async () => {
    const r = await openJournal();
    const records = await history(r.journal, 20);
    const state = folded(records);
    const compaction = r.journal.compact(state);
    // Appends arrive while the snapshot is being written (the engine keeps sending).
    const late: JournalRecord[] = [];
    const appends: Promise<void>[] = [];
    for (let i = 0; i < 20; i++) {
      await new Promise((res) => setImmediate(res));
      const q = queued();
      late.push(q);
      appends.push(r.journal.append(q));
    }
    await compaction;
    await Promise.all(appends);
    const after = await reopen(r.journal);
    expect(plain(after.state)).toEqual(plain(folded([...records, ...late])));
  });
});

describe('Journal: group commit', () => {
  it('makes every one of many concurrent appends durable, in call order, before its promise resolves', async () => {
    const { journal } = await openJournal();
    const recs = Array.from({ length: 300 }, () => queued());
    const early: string[] = [];
    await Promise.all(
      recs.map((q) =>
        journal.append(q).then(() => {
          // Read straight from the file at the moment the promise resolves.
          if (!readFileSync(seg(0), 'utf8').includes(`"id":"${q.id}"`)) early.push(q.id);
        }),
      ),
    );
    expect(early).toEqual([]);
    const lines = (await readFile(seg(0), 'utf8')).trim().split('\n');
    expect(lines.map((l) => (JSON.parse(l) as { id: string }).id)).toEqual(recs.map((q) => q.id));
    expect(plain((await reopen(journal)).state)).toEqual(plain(folded(recs)));
  });

  it('writes a multi-record append as whole lines together', async () => {
    const { journal } = await openJournal();
    const a = queued();
    const b = queued();
    await Promise.all([journal.append(a, delivered(a)), journal.append(b)]);
    expect((await readFile(seg(0), 'utf8')).split('\n').slice(0, 2).map((l) => (JSON.parse(l) as { t: string }).t)).toEqual(['queued', 'delivered']);
  });

  it('refuses appends after close', async () => {
    const { journal } = await openJournal();
    await journal.close();
    await expect(journal.append(queued())).rejects.toBeInstanceOf(JournalError);
  });
});

/** A fresh, empty journal folder (for writing segment files by hand). */
async function mkdirp(d: string): Promise<string> {
  await rm(d, { recursive: true, force: true });
  await mkdir(d, { recursive: true });
  return d;
}

describe('appendWritten (answered once written, its fdatasync following)', () => {
  it('keeps order with durable appends, and is on disk once drained', async () => {
    const { journal } = await openJournal();
    const a = queued();
    const b = queued();
    await Promise.all([journal.append(a), journal.appendWritten(delivered(a)), journal.append(b), journal.appendWritten(delivered(b))]);
    const lines = readFileSync(seg(0), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { t: string; id: string });
    expect(lines.map((l) => `${l.t}:${l.id}`)).toEqual([`queued:${a.id}`, `delivered:${a.id}`, `queued:${b.id}`, `delivered:${b.id}`]);
    const again = await reopen(journal);
    expect(again.state.sent.get(b.id)?.deliveredAt).toBe(2);
  });

  it('is written and answered at once while an earlier append waits for its fdatasync, after that append\'s line', async () => {
    const { journal } = await openJournal();
    const a = queued();
    const order: string[] = [];
    const first = journal.append(a).then(() => order.push('queued durable'));
    const second = journal.appendWritten(delivered(a)).then(() => order.push('delivered written'));
    await Promise.all([first, second]);
    expect(order).toEqual(['delivered written', 'queued durable']);
    const lines = readFileSync(seg(0), 'utf8').trim().split('\n').map((l) => (JSON.parse(l) as { t: string }).t);
    expect(lines).toEqual(['queued', 'delivered']);
  });

  it('survives a SIGKILL of its process right after it was answered (the kernel holds what was written)', async () => {
    const child = spawnTs(join(REPO_ROOT, 'test', 'helpers', 'journal-writer.ts'), [dir, '40']);
    const code = await child.exited;
    expect(child.proc.signalCode ?? code).toBe('SIGKILL');
    const { state, tornBytes } = await openJournal();
    expect(tornBytes).toBe(0);
    expect([...state.sent.values()].filter((s) => s.deliveredAt !== undefined)).toHaveLength(40);
    expect(state.sent.get('q-39')?.deliveredAt).toBe(40);
  });
});
