// Transcripts as Claude Code 2.1.332 writes them (docs/claude-contract.md#transcripts): JSON lines
// under `<config>/projects/<slug>/`, the lead's as `<sessionId>.jsonl`, an in-process teammate's as
// `<leadSessionId>/subagents/agent-a<name>-<16 hex>.jsonl` with a `.meta.json` beside it. A
// message from an inbox is "in context" once its user row (rowSource "recorded") is written.
// Row keys and their order follow test/fixtures/claude-2.1.332/team-lifecycle exactly for the
// rows written here (typed, recorded, harness, tool_result user rows; one assistant row per
// content block). The rows Claude adds around them (attachments, api-request*, mode,
// file-history-snapshot, cost-state…) are left out: readers must tolerate their absence anyway.
import { appendFile, mkdir, readdir, stat, writeFile } from 'node:fs/promises';
import { randomBytes, randomUUID } from 'node:crypto';
import { dirname, join } from 'node:path';
import { CLAUDE_VERSION, claudeSidePaths, inboxFileStem } from './claude-paths.js';

export const DEFAULT_MODEL = 'claude-opus-5-5';
/** The simulated team never asks for a permission: like a lead run with --dangerously-skip-permissions. */
export const PERMISSION_MODE = 'bypassPermissions';

export type ContentBlock =
  | { type: 'text'; text: string }
  | { type: 'tool_use'; id: string; name: string; input: Record<string, unknown> }
  | { type: 'tool_result'; tool_use_id: string; content: string | { type: 'text'; text: string }[]; is_error?: boolean };

export type Row = Record<string, unknown>;

/** What the lead's process knows while a turn is recorded: the user prompt it belongs to and how many turns came before. */
export interface PromptState {
  promptId: string;
  promptIndex: number;
  turnIndex: number;
}

export interface TranscriptOwner {
  sessionId: string;
  cwd: string;
  /** In-process teammates: `a<name>-<16 hex>`, and every row is a sidechain. */
  agentId?: string;
  model?: string;
  /** Shared with the lead: teammates' rows carry the lead's current promptId. */
  prompt: PromptState;
}

/** The assistant message's usage, in the shape 2.1.332 records it. */
function usage(outputTokens: number): Record<string, unknown> {
  return {
    input_tokens: 10,
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: 0,
    output_tokens: outputTokens,
    output_tokens_details: { thinking_tokens: 0 },
    server_tool_use: { web_search_requests: 0, web_fetch_requests: 0 },
    service_tier: 'standard',
    cache_creation: { ephemeral_1h_input_tokens: 0, ephemeral_5m_input_tokens: 0 },
    inference_geo: '',
    iterations: [],
    speed: 'standard',
    fallback_credit: null,
  };
}

const B62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
function base62(n: number): string {
  let s = '';
  for (const b of randomBytes(n)) s += B62[b % 62];
  return s;
}

export function newPromptState(): PromptState {
  return { promptId: randomUUID(), promptIndex: 1, turnIndex: 0 };
}

/** One transcript file; rows chain through parentUuid like Claude's. */
export class Transcript {
  private parent: string | null = null;
  private ready: Promise<void> | undefined;
  /** Writes are serialized so rows land in the order they were made. */
  private queue: Promise<void> = Promise.resolve();

  constructor(
    readonly path: string,
    readonly owner: TranscriptOwner,
    private readonly now: () => number = Date.now,
  ) {}

  private get lead(): boolean {
    return this.owner.agentId === undefined;
  }

  /** The head every row starts with. */
  private head(): Row {
    return { parentUuid: this.parent, isSidechain: !this.lead };
  }

  /** The tail every row ends with; the lead's assistant and tool_result rows add session_id. */
  private tail(row: Row, sessionIdToo: boolean): Row {
    if (sessionIdToo && this.lead) row.session_id = this.owner.sessionId;
    row.userType = 'external';
    row.entrypoint = 'cli';
    row.cwd = this.owner.cwd;
    row.sessionId = this.owner.sessionId;
    row.version = CLAUDE_VERSION;
    row.gitBranch = 'HEAD';
    return row;
  }

  private userHead(): Row {
    const row = this.head();
    row.promptId = this.owner.prompt.promptId;
    if (!this.lead) row.agentId = this.owner.agentId;
    row.type = 'user';
    return row;
  }

  private write(row: Row): Promise<Row> {
    this.parent = row.uuid as string;
    const line = JSON.stringify(row) + '\n';
    const job = this.queue.then(async () => {
      this.ready ??= mkdir(dirname(this.path), { recursive: true }).then(() => undefined);
      await this.ready;
      await appendFile(this.path, line);
    });
    // The caller gets this row's failure from `job`; the queue only orders the appends.
    this.queue = job.catch(() => undefined);
    return job.then(() => row);
  }

  private stamp(at?: number): string {
    return new Date(at ?? this.now()).toISOString();
  }

  /** A prompt typed into the lead's terminal: a new prompt, and a new turn. */
  typed(content: string, at?: number): Promise<Row> {
    const p = this.owner.prompt;
    if (p.turnIndex > 0) {
      p.promptId = randomUUID();
      p.promptIndex += 1;
    }
    p.turnIndex += 1;
    const row = this.userHead();
    row.message = { role: 'user', content };
    row.uuid = randomUUID();
    row.timestamp = this.stamp(at);
    row.permissionMode = PERMISSION_MODE;
    row.origin = { kind: 'human' };
    row.promptSource = 'typed';
    row.turnOrigin = 'human';
    row.turnPosition = { promptIndex: p.promptIndex, turnIndex: p.turnIndex };
    return this.write(this.tail(row, false));
  }

  /** What entered the context from an inbox (or as the spawn prompt): rowSource "recorded". The lead's starts a turn. */
  recorded(content: string, at?: number): Promise<Row> {
    const row = this.userHead();
    row.message = { role: 'user', content };
    row.rowSource = 'recorded';
    row.uuid = randomUUID();
    row.timestamp = this.stamp(at);
    if (this.lead) {
      this.owner.prompt.turnIndex += 1;
      row.turnPosition = { promptIndex: this.owner.prompt.promptIndex, turnIndex: this.owner.prompt.turnIndex };
    }
    return this.write(this.tail(row, false));
  }

  /** A reminder the harness adds (isMeta, rowSource "harness"). */
  harness(content: string, at?: number): Promise<Row> {
    const row = this.userHead();
    row.message = { role: 'user', content };
    row.isMeta = true;
    row.rowSource = 'harness';
    row.uuid = randomUUID();
    row.timestamp = this.stamp(at);
    return this.write(this.tail(row, false));
  }

  /** One model reply: a row per content block, sharing the message id and request. */
  async assistant(content: Exclude<ContentBlock, { type: 'tool_result' }>[], at?: number): Promise<Row[]> {
    const id = `msg_${base62(24)}`;
    const requestRef = randomUUID();
    const rows: Row[] = [];
    for (const [i, block] of content.entries()) {
      const row = this.head();
      if (!this.lead) row.agentId = this.owner.agentId;
      const toolUse = block.type === 'tool_use';
      row.message = {
        id,
        type: 'message',
        role: 'assistant',
        model: this.owner.model ?? DEFAULT_MODEL,
        content: [block],
        stop_reason: content.some((b) => b.type === 'tool_use') ? 'tool_use' : 'end_turn',
        stop_sequence: null,
        usage: usage(Math.max(1, Math.ceil(JSON.stringify(block).length / 4))),
        stop_details: null,
      };
      if (toolUse) row.toolInputStreamMs = 2;
      row.apiBlockIndex = i;
      row.requestRef = requestRef;
      row.requestedModel = this.owner.model ?? DEFAULT_MODEL;
      row.promptCacheRequested = '5m';
      row.type = 'assistant';
      row.uuid = randomUUID();
      row.timestamp = this.stamp(at);
      row.effort = 'medium';
      row.perTurnEffort = 'medium';
      row.madeBy = 'model';
      rows.push(await this.write(this.tail(row, true)));
    }
    return rows;
  }

  text(text: string, at?: number): Promise<Row[]> {
    return this.assistant([{ type: 'text', text }], at);
  }

  /** A tool's answer to one tool_use row: the result block, plus what the tool reported. */
  toolResult(toolUse: Row, content: ContentBlock & { type: 'tool_result' }, toolUseResult: unknown, at?: number): Promise<Row> {
    const row = this.userHead();
    row.message = { role: 'user', content: [content] };
    row.uuid = randomUUID();
    row.timestamp = this.stamp(at);
    row.toolUseResult = toolUseResult;
    row.sourceToolAssistantUUID = toolUse.uuid;
    row.permissionDecision = { decision: 'accept', source: 'config', reasonType: 'mode' };
    return this.write(this.tail(row, true));
  }

  /** Resolves once every row made so far is on disk. */
  flush(): Promise<void> {
    return this.queue;
  }
}

export function toolUseId(): string {
  return `toolu_${base62(24)}`;
}

/** The text blocks a SendMessage or Agent result comes back as. */
export function textResult(toolUseIdValue: string, text: string): ContentBlock & { type: 'tool_result' } {
  return { tool_use_id: toolUseIdValue, type: 'tool_result', content: [{ type: 'text', text }] };
}

/** An in-process teammate's agent id: `a<name>-<16 hex>`, as the spawn result reports it. */
export function newTeammateAgentId(name: string): string {
  return `a${inboxFileStem(name)}-${randomBytes(8).toString('hex')}`;
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

export interface TeammateMeta {
  name: string;
  teamName: string;
  description: string;
  model?: string;
  color?: string;
  planModeRequired?: boolean;
  agentType?: string;
}

/** The `.meta.json` beside an in-process teammate's transcript: one line, keys as 2.1.332 writes them. */
export async function writeTeammateMeta(t: Transcript, meta: TeammateMeta): Promise<void> {
  const model = meta.model ?? DEFAULT_MODEL;
  const body: Record<string, unknown> = {
    agentType: meta.name,
    isBuiltIn: false,
    description: meta.description,
    name: meta.name,
    spawnDepth: 0,
    requestShape: 'background',
    requestNonInteractive: true,
    model,
    pickedEffortModel: model,
    taskKind: 'in_process_teammate',
    teamName: meta.teamName,
  };
  if (meta.color !== undefined) body.color = meta.color;
  body.planModeRequired = meta.planModeRequired ?? false;
  body.spawnedAgentType = meta.agentType ?? 'general-purpose';
  body.permissionMode = PERMISSION_MODE;
  await mkdir(dirname(t.path), { recursive: true });
  await writeFile(t.path.replace(/\.jsonl$/, '.meta.json'), JSON.stringify(body));
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
