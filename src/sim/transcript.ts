// Transcripts as Claude Code 2.1.332 writes them (docs/claude-contract.md#transcripts): JSON lines
// under `<config>/projects/<slug>/`, the lead's as `<sessionId>.jsonl`, an in-process teammate's as
// `<leadSessionId>/subagents/agent-a<name>-<16 hex>.jsonl` with a `.meta.json` beside it. A
// message from an inbox is "in context" once its user row (rowSource "recorded") is written.
// Row keys and their order follow test/fixtures/claude-2.1.332/team-lifecycle exactly for the
// rows written here (typed, recorded, harness, tool_result user rows; one assistant row per
// content block). The rows Claude adds around them (attachments, api-request*, mode,
// file-history-snapshot, cost-state…) are left out: readers must tolerate their absence anyway.
import { appendFile, mkdir, readdir, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { claudeSidePaths, inboxFileStem } from './claude-paths.js';
import { randomIds, teammateMetaJson, TranscriptRows, type AssistantBlock, type ContentBlock, type Ids, type PromptState, type Row, type TeammateMeta, type TranscriptOwner } from './transcript-rows.js';

export { DEFAULT_MODEL, newPromptState, PERMISSION_MODE, type ContentBlock, type PromptState, type Row, type TeammateMeta, type TranscriptOwner } from './transcript-rows.js';

/** One transcript file, appended row by row in the order the rows were made (transcript-rows.ts makes them). */
export class Transcript {
  private ready: Promise<void> | undefined;
  /** Writes are serialized so rows land in the order they were made. */
  private queue: Promise<void> = Promise.resolve();
  private readonly rows: TranscriptRows;
  /** The appends of the call being made, so it answers once they are all on disk. */
  private jobs: Promise<void>[] = [];

  constructor(
    readonly path: string,
    readonly owner: TranscriptOwner,
    now: () => number = Date.now,
    ids: Ids = randomIds,
  ) {
    this.rows = new TranscriptRows(owner, (row) => this.append(row), now, ids);
  }

  private append(row: Row): void {
    const line = JSON.stringify(row) + '\n';
    const job = this.queue.then(async () => {
      this.ready ??= mkdir(dirname(this.path), { recursive: true }).then(() => undefined);
      await this.ready;
      await appendFile(this.path, line);
    });
    // The caller gets this row's failure from its call; the queue only orders the appends.
    this.queue = job.catch(() => undefined);
    this.jobs.push(job);
  }

  /** The row(s) a call made, once they are on disk. */
  private written<T>(made: T): Promise<T> {
    const jobs = this.jobs;
    this.jobs = [];
    return Promise.all(jobs).then(() => made);
  }

  /** A prompt typed into the lead's terminal: a new prompt, and a new turn. */
  typed(content: string, at?: number): Promise<Row> {
    return this.written(this.rows.typed(content, at));
  }

  /** What entered the context from an inbox (or as the spawn prompt): rowSource "recorded". The lead's starts a turn. */
  recorded(content: string, at?: number): Promise<Row> {
    return this.written(this.rows.recorded(content, at));
  }

  /** A reminder the harness adds (isMeta, rowSource "harness"). */
  harness(content: string, at?: number): Promise<Row> {
    return this.written(this.rows.harness(content, at));
  }

  /** One model reply: a row per content block, sharing the message id and request. */
  assistant(content: AssistantBlock[], at?: number): Promise<Row[]> {
    return this.written(this.rows.assistant(content, at));
  }

  text(text: string, at?: number): Promise<Row[]> {
    return this.assistant([{ type: 'text', text }], at);
  }

  /** A tool's answer to one tool_use row: the result block, plus what the tool reported. */
  toolResult(toolUse: Row, content: ContentBlock & { type: 'tool_result' }, toolUseResult: unknown, at?: number): Promise<Row> {
    return this.written(this.rows.toolResult(toolUse, content, toolUseResult, at));
  }

  /** Resolves once every row made so far is on disk. */
  flush(): Promise<void> {
    return this.queue;
  }
}

export function toolUseId(): string {
  return `toolu_${randomIds.base62(24)}`;
}

/** The text blocks a SendMessage or Agent result comes back as. */
export function textResult(toolUseIdValue: string, text: string): ContentBlock & { type: 'tool_result' } {
  return { tool_use_id: toolUseIdValue, type: 'tool_result', content: [{ type: 'text', text }] };
}

/** An in-process teammate's agent id: `a<name>-<16 hex>`, as the spawn result reports it. */
export function newTeammateAgentId(name: string, ids: Ids = randomIds): string {
  return `a${inboxFileStem(name)}-${ids.hex(8)}`;
}

export function leadTranscript(teamsDir: string, owner: TranscriptOwner, now?: () => number): Transcript {
  return new Transcript(claudeSidePaths(teamsDir).leadTranscript(owner.cwd, owner.sessionId), owner, now);
}

export interface TeammateTranscriptOptions {
  teamsDir: string;
  /** The lead's cwd: the subagents folder sits in the lead's project. */
  cwd: string;
  leadSessionId: string;
  agentId: string;
  model?: string;
  prompt: PromptState;
  now?: () => number;
}

export function teammateTranscript(o: TeammateTranscriptOptions): Transcript {
  const dir = claudeSidePaths(o.teamsDir).subagentsDir(o.cwd, o.leadSessionId);
  return new Transcript(join(dir, `agent-${o.agentId}.jsonl`), { sessionId: o.leadSessionId, cwd: o.cwd, agentId: o.agentId, model: o.model, prompt: o.prompt }, o.now);
}

/** The `.meta.json` beside an in-process teammate's transcript: one line, keys as 2.1.332 writes them. */
export async function writeTeammateMeta(t: Transcript, meta: TeammateMeta): Promise<void> {
  await mkdir(dirname(t.path), { recursive: true });
  await writeFile(t.path.replace(/\.jsonl$/, '.meta.json'), teammateMetaJson(meta));
}

/** The agent id of a teammate's latest transcript in this lead session, to continue it. */
export async function findTeammateAgentId(o: { teamsDir: string; cwd: string; leadSessionId: string; name: string }): Promise<string | undefined> {
  const dir = claudeSidePaths(o.teamsDir).subagentsDir(o.cwd, o.leadSessionId);
  const stem = `agent-a${inboxFileStem(o.name)}-`;
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return undefined;
  }
  const found = names.filter((n) => n.startsWith(stem) && /^[0-9a-f]{16}\.jsonl$/.test(n.slice(stem.length)));
  let best: { id: string; mtime: number } | undefined;
  for (const n of found) {
    const mtime = (await stat(join(dir, n))).mtimeMs;
    if (!best || mtime > best.mtime) best = { id: n.slice('agent-'.length, -'.jsonl'.length), mtime };
  }
  return best?.id;
}
