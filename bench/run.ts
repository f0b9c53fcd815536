// `npm run bench [-- scenario ...]`: runs the benchmarks, prints one table and writes the
// same rows to bench/results/latest.json (keeping the rows of scenarios not run this time).
// Figures, not pass/fail: a missed target shows "NO".
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { cpus } from 'node:os';
import { table, type Row } from './stats.js';
import { benchSend, benchBurst } from './send.js';
import { benchJournal } from './journal.js';

const scenarios: Record<string, () => Promise<Row[]>> = {
  send: () => benchSend(),
  burst: () => benchBurst(),
  journal: () => benchJournal(),
  activity: async () => (await import('./activity.js')).benchActivity(),
  'cli-start': async () => (await import('./cli-start.js')).benchCliStart(),
  'export-md': async () => (await import('./export.js')).benchExportMd(),
  // 1,000,000 messages indexed from journals, 200 searches, and a new message to findable.
  search: async () => (await import('./search.js')).benchSearch(),
  // The browser scenarios load Playwright and the host only when they run.
  'reply-visible': async () => (await import('./reply.js')).benchReplyVisible(),
  'activity-visible': async () => (await import('./activity-dom.js')).benchActivityVisible(),
  'big-inbox': async () => (await import('./big-inbox.js')).benchBigInbox(),
  scale: async () => (await import('./scale.js')).benchScale(),
  // 500 ended teams listed from the index beside 20 running ones (`teamdeck gen --ended`).
  'scale-ended': async () => (await import('./scale-ended.js')).benchScaleEnded(),
  // Usage counted cold over 200 MB of transcripts (BENCH_USAGE_MB=2048 for 2 GB), against reading and parsing them.
  usage: async () => (await import('./usage.js')).benchUsage(),
  'usage-visible': async () => (await import('./usage-dom.js')).benchUsageVisible(),
  // 30 days of Claude's transcripts (about 2 GB, cached) imported as ended teams (`--history-mb=N`).
  import: async () => (await import('./import.js')).benchImport(),
  // 60 s of engine CPU with nothing changing (`--idle-seconds=N` to change it).
  idle: async () => (await import('./idle.js')).benchIdle(),
};

const wanted = process.argv.slice(2).filter((a) => !a.startsWith('-'));
const unknown = wanted.filter((w) => !(w in scenarios));
if (unknown.length) {
  process.stderr.write(`unknown scenario(s): ${unknown.join(', ')}; known: ${Object.keys(scenarios).join(', ')}\n`);
  process.exit(2);
}
const names = wanted.length ? wanted : Object.keys(scenarios);
const rows: Row[] = [];
const started = Date.now();
for (const name of names) {
  process.stderr.write(`running ${name}...\n`);
  rows.push(...(await scenarios[name]!()));
}
const machine = { cores: cpus().length, cpu: cpus()[0]?.model ?? 'unknown', node: process.version, platform: process.platform };
process.stdout.write(`\nTeamdeck benchmarks · ${machine.cores} cores · ${machine.cpu} · node ${machine.node} · ${((Date.now() - started) / 1000).toFixed(1)} s\n\n`);
process.stdout.write(table(rows) + '\n');
await mkdir('bench/results', { recursive: true });
// Rows of scenarios not run this time stay as the last run wrote them; `carried` says when that was.
const last = (await readFile('bench/results/latest.json', 'utf8').then(JSON.parse, () => undefined)) as { at?: string; rows?: Row[]; carried?: Record<string, string> } | undefined;
const carried: Record<string, string> = {};
for (const r of last?.rows ?? []) if (!names.includes(r.scenario)) carried[r.scenario] = last?.carried?.[r.scenario] ?? last?.at ?? 'unknown';
const kept = (last?.rows ?? []).filter((r) => !names.includes(r.scenario));
await writeFile('bench/results/latest.json', JSON.stringify({ at: new Date().toISOString(), machine, rows: [...kept, ...rows], ...(kept.length ? { carried } : {}) }, null, 2));
process.stdout.write('\nwritten: bench/results/latest.json\n');
