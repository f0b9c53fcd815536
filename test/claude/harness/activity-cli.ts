// Teamdeck's view of what members do, what the team needs from the human, and its tasks, read
// through the real `teamdeck activity | needs | tasks --json` commands; and Claude's side of the
// same facts, read from the files Claude writes (member transcripts, the task list folder).
//
// Timing: a `teamdeck` call costs about a second of Node + tsx start-up before it asks the
// engine, so a poll's resolution is its call length. Samples keep the window each call ran in;
// pollers can be staggered so that some call ends every fraction of a call; and `missedAfter`
// finds the calls that ended well after an event yet still did not show it, which is what a
// "shows it within N s" bound forbids (a call that ends before the bound may miss it).
import { closeSync, fstatSync, openSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TeamdeckCli, CliRun } from './teamdeck-cli.js';
import { delay, WaitTimeout } from './wait.js';

/** A member as `teamdeck activity --json` shows it (MemberActivity in src/shared/types.ts). */
export interface CliActivity {
  member: string;
  kind: 'working' | 'waiting' | 'idle' | 'shut-down' | 'unknown';
  since?: number;
  tool?: { name: string; summary: string; since: number };
  waitingFor?: string;
  lastText?: string;
  lastTurnEndAt?: number;
  sources?: string[];
  [k: string]: unknown;
}

/** A task as `teamdeck tasks --json` shows it (TaskItem). */
export interface CliTask {
  id: string;
  subject: string;
  description?: string;
  activeForm?: string;
  owner?: string;
  status: 'pending' | 'in_progress' | 'completed';
  blocks: string[];
  blockedBy: string[];
  [k: string]: unknown;
}

/** `teamdeck tasks --json` (TaskBoard). */
export interface CliTaskBoard {
  team: string;
  list: string;
  exists: boolean;
  tasks: CliTask[];
  problems: unknown[];
  [k: string]: unknown;
}

/** One item of `teamdeck needs --json` (NeedItem). */
export interface CliNeed {
  id: string;
  kind: 'permission' | 'plan-approval' | 'stuck-queued' | 'stuck-taken' | 'idle-with-mail' | 'orphan-inbox';
  team: string;
  member?: string;
  title: string;
  detail?: string;
  since: number;
  [k: string]: unknown;
}

/** One call of a poll: what it showed and the window in which the engine answered it. */
export interface Sample<T> {
  startedAt: number;
  endedAt: number;
  value: T;
  /** Which of the staggered pollers made the call. */
  poller: number;
}

function describeRun(r: CliRun): string {
  return `teamdeck ${r.args.join(' ')} -> exit ${r.code ?? r.signal} in ${r.endedAt - r.startedAt} ms; stdout ${r.stdout.trim().slice(0, 400)}; stderr ${r.stderr.trim().slice(0, 400)}`;
}

async function json<T>(cli: TeamdeckCli, args: string[], poller = 0): Promise<Sample<T>> {
  const r = await cli.run(args);
  if (r.code !== 0) throw new Error(`expected exit 0: ${describeRun(r)}`);
  let value: T;
  try {
    value = JSON.parse(r.stdout) as T;
  } catch {
    throw new Error(`stdout is not JSON: ${describeRun(r)}`);
  }
  return { startedAt: r.startedAt, endedAt: r.endedAt, value, poller };
}

export const activityOf = (cli: TeamdeckCli, team: string, poller?: number) => json<CliActivity[]>(cli, ['activity', '--team', team, '--json'], poller);
export const tasksOf = (cli: TeamdeckCli, team: string, poller?: number) => json<CliTaskBoard>(cli, ['tasks', '--team', team, '--json'], poller);
export const needsOf = (cli: TeamdeckCli, poller?: number) => json<CliNeed[]>(cli, ['needs', '--json'], poller);

/** Whether the command exists in this tree yet (`teamdeck <command> --help` exits 0). */
export async function hasCommand(cli: TeamdeckCli, command: string): Promise<boolean> {
  const r = await cli.run([command, '--help']);
  return r.code === 0;
}

export interface PollOptions {
  timeoutMs: number;
  what: string;
  /** Calls running at once, started this many ms apart (default 1: back to back). */
  pollers?: number;
  staggerMs?: number;
}

/**
 * Calls `call` back to back from `pollers` staggered loops until a sample satisfies `done`.
 * Resolves with every sample, in order of `endedAt`, up to and including the first satisfying
 * one (by `endedAt`); the calls still running then are awaited and kept too. WaitTimeout at the
 * deadline names the last sample.
 */
export async function pollSamples<T>(call: (poller: number) => Promise<Sample<T>>, done: (v: T) => boolean, opts: PollOptions): Promise<Array<Sample<T>>> {
  const samples: Array<Sample<T>> = [];
  const deadline = Date.now() + opts.timeoutMs;
  const pollers = opts.pollers ?? 1;
  let finished = false;
  let failure: unknown;
  const loop = async (n: number) => {
    if (n > 0) await delay(n * (opts.staggerMs ?? 400));
    while (!finished && Date.now() < deadline) {
      try {
        const s = await call(n);
        samples.push(s);
        if (done(s.value)) finished = true;
      } catch (e) {
        failure ??= e;
        finished = true;
      }
    }
  };
  await Promise.all(Array.from({ length: pollers }, (_, n) => loop(n)));
  if (failure) throw failure;
  samples.sort((a, b) => a.endedAt - b.endedAt);
  const first = samples.findIndex((s) => done(s.value));
  if (first < 0) {
    const last = samples.at(-1);
    throw new WaitTimeout(`timed out after ${opts.timeoutMs} ms waiting for ${opts.what} (${samples.length} calls; the last showed ${JSON.stringify(last?.value)?.slice(0, 800)})`);
  }
  return samples;
}

/** The first sample (by the time its call ended) that satisfies `done`. */
export function firstShowing<T>(samples: Array<Sample<T>>, done: (v: T) => boolean): Sample<T> | undefined {
  return [...samples].sort((a, b) => a.endedAt - b.endedAt).find((s) => done(s.value));
}

/**
 * Samples that ended more than `boundMs` after `eventAt` and still did not show it. A call asks
 * the engine at the end of its start-up, tens of ms before it exits: `marginMs` covers that.
 */
export function missedAfter<T>(samples: Array<Sample<T>>, done: (v: T) => boolean, eventAt: number, boundMs: number, marginMs = 150): Array<Sample<T>> {
  return samples.filter((s) => s.endedAt > eventAt + boundMs + marginMs && !done(s.value));
}

// ---------------------------------------------------------------------------------- Claude's side

/** One row of a transcript (JSONL), with its line number. */
export interface TranscriptRow {
  line: number;
  type?: string;
  timestamp?: string;
  message?: { role?: string; content?: unknown };
  toolUseResult?: unknown;
  [k: string]: unknown;
}

export interface ContentItem {
  type: string;
  id?: string;
  name?: string;
  input?: Record<string, unknown>;
  tool_use_id?: string;
  text?: string;
  content?: unknown;
  is_error?: boolean;
}

/** Parses a JSONL transcript, skipping a torn last line (Claude appends as it goes). */
export function readTranscript(path: string): TranscriptRow[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return [];
  }
  const rows: TranscriptRow[] = [];
  text.split('\n').forEach((l, i) => {
    if (!l.trim()) return;
    try {
      rows.push({ ...(JSON.parse(l) as object), line: i + 1 });
    } catch {
      // a row still being written
    }
  });
  return rows;
}

export function contentOf(row: TranscriptRow): ContentItem[] {
  const c = row.message?.content;
  return Array.isArray(c) ? (c as ContentItem[]) : typeof c === 'string' ? [{ type: 'text', text: c }] : [];
}

/** An in-process teammate's transcript: `projects/<slug>/<leadSessionId>/subagents/agent-a<name>-<16 hex>.jsonl`. */
export function teammateTranscript(projectsDir: string, leadSessionId: string, member: string): string | undefined {
  for (const slug of safeList(projectsDir)) {
    const dir = join(projectsDir, slug, leadSessionId, 'subagents');
    const f = safeList(dir).find((n) => new RegExp(`^agent-a${member.replace(/[^a-zA-Z0-9_-]/g, '-')}-[0-9a-f]{16}\\.jsonl$`).test(n));
    if (f) return join(dir, f);
  }
  return undefined;
}

/** A tool call in a transcript: the assistant row that asked for it and the user row with its result, if any yet. */
export interface ToolCallRows {
  id: string;
  name: string;
  input: Record<string, unknown>;
  use: TranscriptRow;
  result?: TranscriptRow;
  resultItem?: ContentItem;
}

export function toolCalls(rows: TranscriptRow[]): ToolCallRows[] {
  const calls = new Map<string, ToolCallRows>();
  for (const row of rows) {
    for (const item of contentOf(row)) {
      if (row.type === 'assistant' && item.type === 'tool_use' && item.id) {
        calls.set(item.id, { id: item.id, name: item.name ?? '', input: item.input ?? {}, use: row });
      } else if (row.type === 'user' && item.type === 'tool_result' && item.tool_use_id) {
        const c = calls.get(item.tool_use_id);
        if (c) Object.assign(c, { result: row, resultItem: item });
      }
    }
  }
  return [...calls.values()];
}

function safeList(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

/** A state of one task file, as first seen. */
export interface TaskFileState {
  t: number;
  /** File name inside the list folder, e.g. `1.json`. */
  name: string;
  /** undefined: the file is gone. */
  content?: string;
}

export interface TaskFolderWatch {
  states: TaskFileState[];
  /** The first state of `name` whose parsed JSON satisfies `predicate`. */
  firstState(name: string, predicate: (task: Record<string, unknown>) => boolean): TaskFileState | undefined;
  stop(): void;
}

/**
 * Samples `<config>/tasks/<list>/*.json` every `intervalMs` (content-keyed; Claude's updates go
 * through a temp file and a rename), so a test knows when each task file was written.
 */
export function watchTaskFolder(dir: string, intervalMs = 10): TaskFolderWatch {
  const states: TaskFileState[] = [];
  const last = new Map<string, string | undefined>();
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const sample = () => {
    const t = Date.now();
    const names = safeList(dir).filter((n) => /^[^.].*\.json$/.test(n));
    for (const name of names) {
      let content: string | undefined;
      try {
        const fd = openSync(join(dir, name), 'r');
        try {
          if (fstatSync(fd).isFile()) content = readFileSync(fd, 'utf8');
        } finally {
          closeSync(fd);
        }
      } catch {
        content = undefined;
      }
      if (content === undefined || last.get(name) === content) continue;
      last.set(name, content);
      states.push({ t, name, content });
    }
    for (const name of [...last.keys()]) {
      if (names.includes(name) || last.get(name) === undefined) continue;
      last.set(name, undefined);
      states.push({ t, name });
    }
  };
  const loop = () => {
    if (stopped) return;
    sample();
    timer = setTimeout(loop, intervalMs);
  };
  loop();
  return {
    states,
    firstState: (name, predicate) =>
      states.find((s) => {
        if (s.name !== name || s.content === undefined) return false;
        try {
          return predicate(JSON.parse(s.content) as Record<string, unknown>);
        } catch {
          return false;
        }
      }),
    stop: () => {
      stopped = true;
      if (timer) clearTimeout(timer);
    },
  };
}

export interface TranscriptWatch {
  /** When each line (1-based) was first seen in the file. */
  seenAt: Map<number, number>;
  stop(): void;
}

/**
 * Samples a transcript's size every `intervalMs` and notes when each complete line first
 * appeared: Claude stamps a row when the event happens but may append it later.
 */
export function watchTranscript(path: string, intervalMs = 5): TranscriptWatch {
  const seenAt = new Map<number, number>();
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const sample = () => {
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch {
      return;
    }
    const t = Date.now();
    // Every line but the last is complete (the last is '' after a final newline, or a row being written).
    const complete = text.split('\n').length - 1;
    for (let line = 1; line <= complete; line++) if (!seenAt.has(line)) seenAt.set(line, t);
  };
  const loop = () => {
    if (stopped) return;
    sample();
    timer = setTimeout(loop, intervalMs);
  };
  loop();
  return {
    seenAt,
    stop: () => {
      if (stopped) return;
      stopped = true;
      if (timer) clearTimeout(timer);
      // One last look, so rows a test just read are on record.
      sample();
    },
  };
}
