// usage: what the teams spent, counted cold (a fresh engine, no saved tally) over a large set of
// transcripts, the way the engine does it (each transcript tailed 8 MB a poll, every row parsed,
// the usage tally fed with the rows), against a plain read of the same bytes, with the floors of
// any reader beside it (floors.ts). The set is generated once into a cache folder (never the
// repository) and kept for the next run: BENCH_USAGE_MB sets its size (default 200; 2048 for the 2 GB), BENCH_USAGE_DIR where.
import { createWriteStream, existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import { TranscriptWatch } from '../src/engine/claude/transcripts.js';
import { UsageBook } from '../src/engine/usage/usage-book.js';
import { floorRow, measureFloors, type Floors } from './floors.js';
import type { Row } from './stats.js';

const MEMBERS = ['researcher', 'writer', 'tester', 'reviewer'];
/** Teams of about 50 MB each (a lead and four teammates). */
const TEAM_MB = 50;

const cacheRoot = () => process.env.BENCH_USAGE_DIR ?? join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'teamdeck', 'bench-usage');
const sessionOf = (t: number) => `be0c${String(t).padStart(4, '0')}-0000-4000-8000-000000000000`;

/** One turn as Claude writes it: a prompt, a reply of three blocks (three rows, one id), a tool result, a closing reply. */
function turn(agent: string, n: number, at: string, sidechain: boolean): string {
  const common = { sessionId: 'x', isSidechain: sidechain, ...(sidechain ? { agentId: `a${agent}` } : {}), cwd: '/home/dev/project', version: '2.1.332', timestamp: at };
  const usage = (k: number) => ({ input_tokens: 3 + (k % 7), cache_creation_input_tokens: 200 + (k % 50), cache_read_input_tokens: 20_000 + k, output_tokens: 40 + (k % 90), service_tier: 'standard', cache_creation: { ephemeral_1h_input_tokens: 0, ephemeral_5m_input_tokens: 200 + (k % 50) } });
  const words = 'The change touches the auth module and the session store; the tests cover the refresh path and the logout flow. '.repeat(4);
  const rows: unknown[] = [
    { type: 'user', uuid: `${agent}-${n}-p`, message: { role: 'user', content: `<teammate-message teammate_id="team-lead">Step ${n}: ${words}</teammate-message>` }, ...common },
    ...[0, 1, 2].map((b) => ({
      type: 'assistant',
      uuid: `${agent}-${n}-a${b}`,
      message: { id: `msg_${agent}_${n}`, model: 'claude-opus-4-5-20251101', role: 'assistant', content: [b < 2 ? { type: 'text', text: words } : { type: 'tool_use', id: `toolu_${n}`, name: 'Bash', input: { command: `npm test -- ${n}` } }], usage: usage(n) },
      ...common,
    })),
    { type: 'user', uuid: `${agent}-${n}-r`, message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: `toolu_${n}`, content: `ok ${words}` }] }, toolUseResult: { stdout: 'ok', stderr: '', interrupted: false }, ...common },
    { type: 'assistant', uuid: `${agent}-${n}-e`, message: { id: `msg_${agent}_${n}_e`, model: 'claude-opus-4-5-20251101', role: 'assistant', content: [{ type: 'text', text: 'Done.' }], stop_reason: 'end_turn', usage: usage(n + 1) }, ...common },
  ];
  return rows.map((r) => JSON.stringify(r)).join('\n') + '\n';
}

async function writeTranscript(path: string, agent: string, bytes: number, sidechain: boolean): Promise<number> {
  const out = createWriteStream(path);
  let written = 0;
  let turns = 0;
  const start = Date.parse('2026-11-01T08:00:00Z');
  while (written < bytes) {
    let chunk = '';
    for (let i = 0; i < 200; i++, turns++) chunk += turn(agent, turns, new Date(start + turns * 90_000).toISOString(), sidechain);
    written += Buffer.byteLength(chunk);
    if (!out.write(chunk)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
  return turns * 2;
}

/** The transcript set of `mb` MB in the cache folder (made once), and how many messages it holds. */
export async function usageTranscripts(mb: number): Promise<{ config: string; teams: number; messages: number; bytes: number }> {
  const dir = join(cacheRoot(), `${mb}mb`);
  const config = join(dir, '.claude');
  const marker = join(dir, 'done.json');
  if (existsSync(marker)) return { config, ...(JSON.parse(await readFile(marker, 'utf8')) as { teams: number; messages: number; bytes: number }) };
  await rm(dir, { recursive: true, force: true });
  const teams = Math.max(1, Math.round(mb / TEAM_MB));
  const per = Math.floor((mb * 1024 * 1024) / teams / (MEMBERS.length + 1));
  let messages = 0;
  for (let t = 0; t < teams; t++) {
    const session = sessionOf(t);
    const project = join(config, 'projects', `-home-dev-project${t}`);
    const sub = join(project, session, 'subagents');
    await mkdir(sub, { recursive: true });
    messages += await writeTranscript(join(project, `${session}.jsonl`), 'team-lead', per, false);
    for (const m of MEMBERS) {
      const file = join(sub, `agent-a${m}-0123456789abcdef.jsonl`);
      await writeFile(file.replace(/\.jsonl$/, '.meta.json'), JSON.stringify({ name: m, teamName: `team-${t}`, taskKind: 'in_process_teammate' }));
      messages += await writeTranscript(file, m, per, true);
    }
  }
  let bytes = 0;
  for (const f of await transcriptFiles(config)) bytes += (await stat(f)).size;
  await writeFile(marker, JSON.stringify({ teams, messages, bytes }));
  return { config, teams, messages, bytes };
}

async function transcriptFiles(config: string): Promise<string[]> {
  const out: string[] = [];
  for (const e of await readdir(join(config, 'projects'), { recursive: true, withFileTypes: true })) if (e.isFile() && e.name.endsWith('.jsonl')) out.push(join(e.parentPath, e.name));
  return out;
}

/** The engine's way: every team's transcripts tailed until read to the end, the rows fed to the usage book. */
async function countCold(config: string, teams: number, stateDir: string): Promise<{ ms: number; messages: number }> {
  const t0 = performance.now();
  const book = new UsageBook({ stateDir, now: Date.now, changed: () => {}, pricesProblem: () => {} });
  for (let t = 0; t < teams; t++) {
    const w = new TranscriptWatch(config, sessionOf(t), `team-${t}`);
    for (;;) {
      const found = await w.poll('team-lead');
      if (found.rows.length === 0) break;
      book.onTranscriptRows(`team-${t}`, found.rows);
    }
  }
  const all = book.all();
  const ms = performance.now() - t0;
  // Its tallies written (as the engine does at stop), so that none lands in the next run's folder.
  await book.flush();
  return { ms, messages: all.teams.reduce((n, x) => n + x.total.messages, 0) };
}

export async function benchUsage(): Promise<Row[]> {
  const mb = Number(process.env.BENCH_USAGE_MB ?? 200);
  const set = await usageTranscripts(mb);
  const mbOf = set.bytes / 1024 / 1024;
  const stateDir = join(cacheRoot(), 'state-scratch');
  const files = await transcriptFiles(set.config);
  const runs: number[] = [];
  const floorRuns: Floors[] = [];
  let counted = 0;
  // Interleaved, three of each: the same page cache for both.
  for (let i = 0; i < 3; i++) {
    floorRuns.push(measureFloors(files, 1));
    const c = await countCold(set.config, set.teams, stateDir);
    runs.push(c.ms);
    counted = c.messages;
  }
  await rm(stateDir, { recursive: true, force: true });
  if (counted !== set.messages) throw new Error(`the tally counted ${counted} messages of ${set.messages}`);
  const med = (a: number[]) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)]!;
  const usage = med(runs);
  const plain = med(floorRuns.map((f) => f.plainMs));
  const find = med(floorRuns.map((f) => f.findMs));
  const parse = med(floorRuns.map((f) => f.parseMs));
  const rate = (ms: number) => `${(mbOf / (ms / 1000)).toFixed(0)} MB/s`;
  const where = `BENCH_USAGE_MB=${mb}, data in ${cacheRoot()}; each pass 8 MB reads, one file at a time, page cache warm`;
  return [
    {
      scenario: 'usage',
      figure: `usage of ${mbOf.toFixed(0)} MB of transcripts, cold (${set.teams} teams, ${set.messages.toLocaleString('en-US')} messages)`,
      unit: 'ms',
      median: usage,
      compare: 'plain read of the same bytes',
      compareValue: plain,
      ratio: usage / plain,
      target: '<= 3x a plain read',
      met: usage / plain <= 3,
      note: `${rate(usage)} against ${rate(plain)} read bare; ${(usage / parse).toFixed(2)}x reading and parsing every row (${rate(parse)}), which the engine does for activity, receipts and the record anyway; ${where}`,
    },
    floorRow('usage', 'floor: the usage rows found, nothing decoded', 'ms', find, plain, `the least any reader of usage does: every line holding a "usage" key found with its bounds (${floorRuns.at(-1)!.usageLines.toLocaleString('en-US')} lines, Buffer.indexOf); ${where}`),
    floorRow('usage', 'floor: every row parsed, nothing kept', 'ms', parse, plain, `the least a reader that parses rows does (${floorRuns.at(-1)!.lines.toLocaleString('en-US')} rows, JSON.parse); ${where}`),
  ];
}
