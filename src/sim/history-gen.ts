// Weeks of agent-team history as Claude Code 2.1.332 leaves it in `<config>/projects`
// (docs/claude-contract.md#record): per lead session its transcript and each in-process
// teammate's transcript + `.meta.json`, and no team folder (every lead has exited). Each session:
// a typed goal, the spawns, then rounds of work until the session's share of the bytes is
// written: the lead's instructions, teammates' tool calls with their output, messages between
// teammates, idle reports the lead takes several at a time, now and then a typed question or an
// `@name` line. Rows come from team-record.ts, the demo's own builder. Seeded: the same options
// make the same bytes. Files are written whole, one session at a time, and dated to their last row.
import { mkdirSync, readFileSync, statSync, utimesSync, writeFileSync, appendFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { LEAD_NAME } from './claude-config.js';
import { PROJECTS, Words } from './fixture-words.js';
import { createRng, type Rng } from './prng.js';
import { TeamRecord, type RecordSink, type Sent } from './team-record.js';
import { seededIds, type Row } from './transcript-rows.js';

/** Bumped whenever the same options would write other bytes: a cached copy of an older format is made again. */
export const HISTORY_FORMAT = 2;

export interface HistoryGenOptions {
  /** `<config>`: the transcripts go under `<config>/projects`, as Claude's do. */
  configDir: string;
  /** Lead sessions (default 300). */
  sessions?: number;
  /** In-process teammates per session (default 4). */
  teammates?: number;
  /** Bytes of transcripts in all (default 2 GB); each session writes about its share. */
  bytes?: number;
  /** The days the sessions spread over, newest last (default 30: Claude's cleanupPeriodDays). */
  days?: number;
  /** When the newest session ends (ms; default now). */
  end?: number;
  seed?: number;
}

export interface GenSession {
  sessionId: string;
  team: string;
  cwd: string;
  members: string[];
  start: number;
  end: number;
  /** Messages between members and with the user in its record (typed turns, @name lines, SendMessage, idle reports). */
  messages: number;
}

export interface GenFile {
  path: string;
  bytes: number;
}

export interface HistoryGenResult {
  sessions: GenSession[];
  files: GenFile[];
  bytes: number;
}

const DAY = 86_400_000;
const NAMES = ['researcher', 'implementer', 'tester', 'reviewer', 'writer', 'planner', 'profiler', 'migrator'];
const COLORS = ['blue', 'green', 'yellow', 'purple', 'orange', 'pink', 'cyan', 'red'];
const MODELS = ['claude-opus-5-5', 'claude-sonnet-5', 'claude-haiku-5'];
const DIRS = ['webapp', 'api', 'billing', 'search', 'infra', 'mobile', 'docs', 'data'];

/** Rows kept per file until the session is written; `bytes` counts them as they come. */
class SessionSink implements RecordSink {
  readonly lines = new Map<string, string[]>();
  readonly files = new Map<string, string>();
  bytes = 0;
  row(path: string, row: Row): void {
    const line = JSON.stringify(row);
    this.bytes += Buffer.byteLength(line) + 1;
    let list = this.lines.get(path);
    if (!list) this.lines.set(path, (list = []));
    list.push(line);
  }
  file(path: string, text: string): void {
    this.files.set(path, text);
  }
  /** Writes every file and dates it to `at`; returns what was written. */
  write(at: number, append = false): GenFile[] {
    const out: GenFile[] = [];
    const when = new Date(at);
    for (const [path, lines] of this.lines) {
      mkdirSync(dirname(path), { recursive: true });
      const text = lines.join('\n') + '\n';
      if (append) appendFileSync(path, text);
      else writeFileSync(path, text);
      utimesSync(path, when, when);
      out.push({ path, bytes: Buffer.byteLength(text) });
    }
    for (const [path, text] of this.files) {
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, text);
      utimesSync(path, when, when);
      out.push({ path, bytes: Buffer.byteLength(text) });
    }
    return out;
  }
}

/** Tool output of some size: lines a test run or a search prints. */
function output(rng: Rng, words: Words, lines: number): string {
  const out: string[] = [];
  for (let i = 0; i < lines; i++) out.push(`${words.pick(['PASS', 'ok', 'src', 'test', 'lib'])}/${words.pick(DIRS)}/${words.pick(NAMES)}.${words.pick(['ts', 'go', 'py'])}:${rng.int(1, 900)}: ${words.reply().summary}`);
  return out.join('\n');
}

interface Session {
  record: TeamRecord;
  sink: SessionSink;
  rng: Rng;
  words: Words;
  members: string[];
  clock: number;
  messages: number;
}

/** One round of work: the lead hands out a task, teammates work and talk, the lead takes their reports. */
function round(s: Session): void {
  const { record: r, rng, words } = s;
  const tick = (ms: number) => (s.clock += ms);
  const who = words.pick(s.members);
  const task = words.instruction();
  const sent = r.send(LEAD_NAME, who, task.text, task.summary, tick(rng.int(2_000, 20_000)));
  r.toMate(who, [sent], tick(700));
  s.messages += 1;
  if (rng.chance(0.15)) {
    // The user types a line for the teammate in the lead's terminal.
    r.atMention(who, words.request().text, tick(5_000));
    s.messages += 1;
  }
  const reports: Sent[] = [];
  for (const m of s.members) {
    if (m !== who && !rng.chance(0.5)) continue;
    for (let k = rng.int(1, 4); k > 0; k--) r.bash(m, `npm test -- ${words.pick(DIRS)}`, output(rng, words, rng.int(10, 60)), tick(rng.int(1_000, 8_000)), rng.chance(0.5) ? words.reply().text : undefined);
    let note: Sent | undefined;
    if (s.members.length > 1 && rng.chance(0.3)) {
      const peer = words.pick(s.members.filter((x) => x !== m));
      note = r.send(m, peer, words.peer(), 'Heads up', tick(1_000));
      r.toMate(peer, [note], tick(600));
      s.messages += 1;
    }
    if (rng.chance(0.2)) {
      reports.push(r.send(m, LEAD_NAME, words.report().text, words.report().summary, tick(1_000)));
      s.messages += 1;
    }
    const result = words.reply().text;
    r.mateSays(m, result, tick(2_000));
    reports.push(r.idle(m, tick(300), result, note));
    s.messages += 1;
  }
  // The lead's polls take what has come: a few entries per row.
  for (let i = 0; i < reports.length; ) {
    const n = rng.int(1, 3);
    r.toLead(reports.slice(i, i + n), tick(1_000), rng.chance(0.4) ? words.reply().text : undefined);
    i += n;
  }
  if (rng.chance(0.2)) {
    r.typed(words.request().text, tick(30_000));
    r.leadSays(words.reply().text, tick(4_000));
    s.messages += 2;
  }
}

function startSession(o: { configDir: string; seed: number; index: number; start: number; teammates: number }): Session {
  const rng = createRng(o.seed, `session-${o.index}`);
  const ids = seededIds(o.seed, `ids-${o.index}`);
  const words = new Words(rng);
  const sink = new SessionSink();
  const cwd = `/home/me/${DIRS[o.index % DIRS.length]}`;
  const record = new TeamRecord({ teamsDir: join(o.configDir, 'teams'), sessionId: ids.uuid(), cwd, sink, ids, leadModel: MODELS[0] });
  const names = Array.from({ length: o.teammates }, (_, i) => NAMES[(o.index + i) % NAMES.length]! + (i >= NAMES.length ? `-${i}` : ''));
  const s: Session = { record, sink, rng, words, members: names, clock: o.start, messages: 0 };
  record.typed(`${words.pick(PROJECTS)}. Split it between ${names.length} teammates and report back.`, s.clock);
  record.spawn(
    names.map((name, i) => ({ name, description: `${name} on ${words.pick(DIRS)}`, prompt: words.request().text, color: COLORS[(o.index + i) % COLORS.length], model: MODELS[i % MODELS.length] })),
    (s.clock += 2_000),
  );
  record.leadSays(`Team is up: ${names.join(', ')}.`, (s.clock += 1_000));
  // The user speaks to the first teammate directly (`@name` in the lead's terminal), and it answers.
  const first = names[0]!;
  record.atMention(first, `${words.request().text} Tell me first, before the lead.`, (s.clock += 20_000));
  const answer = words.reply().text;
  record.mateSays(first, answer, (s.clock += 8_000));
  record.toLead([record.idle(first, (s.clock += 300), answer)], (s.clock += 700));
  s.messages += 1 + names.length + 2;
  return s;
}

/** Writes `sessions` lead sessions with their teammates under `<configDir>/projects`. */
export function writeHistory(opts: HistoryGenOptions): HistoryGenResult {
  const sessions = opts.sessions ?? 300;
  const teammates = opts.teammates ?? 4;
  const bytes = opts.bytes ?? 2e9;
  const days = opts.days ?? 30;
  const end = opts.end ?? Date.now();
  const seed = opts.seed ?? 1;
  if (!Number.isInteger(sessions) || sessions < 1) throw new RangeError('sessions must be an integer >= 1');
  if (!Number.isInteger(teammates) || teammates < 1) throw new RangeError('teammates must be an integer >= 1');
  const share = bytes / sessions;
  // Inside Claude's cleanup window, with a day to spare at the old end (a cached copy stays inside it for a day).
  const span = Math.max(0, (days - 1) * DAY);
  const result: HistoryGenResult = { sessions: [], files: [], bytes: 0 };
  for (let i = 0; i < sessions; i++) {
    const start = end - span + (span / sessions) * i;
    const s = startSession({ configDir: opts.configDir, seed, index: i, start, teammates });
    while (s.sink.bytes < share) round(s);
    const files = s.sink.write(s.clock);
    result.files.push(...files);
    result.bytes += files.reduce((n, f) => n + f.bytes, 0);
    result.sessions.push({ sessionId: s.record.sessionId, team: s.record.team, cwd: s.record.cwd, members: s.members, start, end: s.clock, messages: s.messages });
  }
  return result;
}

/**
 * Claude going on after an import: the newest session's lead gets a typed turn and spawns one
 * more teammate who reports back (rows appended to the lead's file, one new file and its meta).
 * Returns the files touched and the bytes added.
 */
export function appendHistory(o: { configDir: string; session: GenSession; seed?: number; at?: number }): { files: GenFile[]; bytes: number } {
  const seed = o.seed ?? 1;
  const rng = createRng(seed, `append-${o.session.sessionId}`);
  const ids = seededIds(seed, `append-ids-${Date.now()}`);
  const words = new Words(rng);
  const sink = new SessionSink();
  const record = new TeamRecord({ teamsDir: join(o.configDir, 'teams'), sessionId: o.session.sessionId, cwd: o.session.cwd, sink, ids, leadModel: MODELS[0] });
  const last = lastUuid(record.leadPath);
  if (last) record.lead.continueAfter(last);
  let at = o.at ?? Date.now();
  record.typed('One more thing: have someone double-check the release notes.', at);
  const name = `checker-${ids.hex(2)}`;
  record.spawn([{ name, description: 'Release notes check', prompt: 'Read the release notes and list anything missing.', color: 'cyan', model: MODELS[2] }], (at += 1_000));
  const said = words.report().text;
  record.mateSays(name, said, (at += 5_000));
  record.toLead([record.idle(name, (at += 300), said)], (at += 700), 'The release notes are checked.');
  const files = sink.write(at, true);
  return { files, bytes: files.reduce((n, f) => n + f.bytes, 0) };
}

function lastUuid(path: string): string | undefined {
  try {
    if (statSync(path).size === 0) return undefined;
    const lines = readFileSync(path, 'utf8').trimEnd().split('\n');
    return (JSON.parse(lines.at(-1)!) as Row).uuid as string | undefined;
  } catch {
    return undefined;
  }
}
