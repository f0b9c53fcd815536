// journal: folding a 100,000-record journal on start-up, before and after compaction.
import { mkdtemp, rm, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Journal, type JournalRecord } from '../src/engine/journal/journal.js';
import { summarize, type Row } from './stats.js';

function records(n: number): JournalRecord[] {
  const out: JournalRecord[] = [];
  let i = 0;
  const at = 1_767_000_000_000;
  while (out.length < n) {
    const id = `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
    const to = `member-${i % 8}`;
    if (i % 3 === 0) {
      out.push({ t: 'queued', id, to, from: 'user', text: `Please look at item ${i} and report what you find.`, timestamp: new Date(at + i).toISOString(), at: at + i });
      out.push({ t: 'delivered', id, to, at: at + i + 1 });
      out.push({ t: 'consumed', id, to, at: at + i + 2, how: 'pruned' });
    } else {
      out.push({ t: 'observed', id, from: to, to: 'user', text: `Result for item ${i}: all good, nothing to change in the module.`, timestamp: new Date(at + i).toISOString(), at: at + i });
    }
    i++;
  }
  return out.slice(0, n);
}

async function timeOpen(dir: string, runs: number): Promise<number[]> {
  const times: number[] = [];
  for (let r = 0; r < runs; r++) {
    const t0 = performance.now();
    const { journal } = await Journal.open(dir);
    times.push(performance.now() - t0);
    await journal.close();
  }
  return times;
}

export async function benchJournal(n = 100_000): Promise<Row[]> {
  const base = await mkdtemp(join(tmpdir(), 'teamdeck-journal-'));
  try {
    const dir = join(base, 'j');
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, 'seg-00000000.jsonl'), records(n).map((r) => JSON.stringify(r)).join('\n') + '\n');
    const before = summarize(await timeOpen(dir, 7));
    const { journal, state } = await Journal.open(dir);
    await journal.compact(state);
    await journal.close();
    const after = summarize(await timeOpen(dir, 7));
    return [
      { scenario: 'journal', figure: `fold ${n.toLocaleString('en')} records`, unit: 'ms', median: before.median, p99: before.p99, compare: 'target', compareValue: 1000, ratio: before.median / 1000, target: '<= 1 s', met: before.median <= 1000 },
      { scenario: 'journal', figure: 'open after compaction', unit: 'ms', median: after.median, p99: after.p99, compare: 'uncompacted fold', compareValue: before.median, ratio: after.median / before.median, target: '<= 1 s', met: after.median <= 1000 },
    ];
  } finally {
    await rm(base, { recursive: true, force: true });
  }
}
