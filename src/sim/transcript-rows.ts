// The rows of one transcript as Claude Code 2.1.332 writes them (docs/claude-contract.md#transcripts,
// #record), built in memory: keys and their order follow test/fixtures/claude-2.1.332/team-lifecycle
// exactly for the rows made here (typed, recorded, harness, tool_result user rows; one assistant
// row per content block, each with message.id, model and usage). Making a row and putting it on
// disk are apart so the live simulator (transcript.ts: appends in order) and the history
// generator (history-gen.ts: large buffered writes) share every row shape.
import { randomBytes, randomUUID } from 'node:crypto';
import { CLAUDE_VERSION } from './claude-paths.js';
import { createRng, seededUuid } from './prng.js';

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

/** Where ids come from: random like Claude's, or seeded so generated history is the same every run. */
export interface Ids {
  uuid(): string;
  /** `n` characters of [0-9A-Za-z] (message ids, tool use ids). */
  base62(n: number): string;
  /** `bytes` random bytes as lower-case hex (agent id suffixes). */
  hex(bytes: number): string;
}

const B62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

export const randomIds: Ids = {
  uuid: randomUUID,
  base62: (n) => {
    let s = '';
    for (const b of randomBytes(n)) s += B62[b % 62];
    return s;
  },
  hex: (n) => randomBytes(n).toString('hex'),
};

export function seededIds(seed: number, salt = 'ids'): Ids {
  const rng = createRng(seed, salt);
  return {
    uuid: () => seededUuid(rng),
    base62: (n) => {
      let s = '';
      for (let i = 0; i < n; i++) s += B62[rng.int(0, 61)];
      return s;
    },
    hex: (n) => {
      let s = '';
      for (let i = 0; i < n; i++) s += rng.int(0, 255).toString(16).padStart(2, '0');
      return s;
    },
  };
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

export function newPromptState(ids: Ids = randomIds): PromptState {
  return { promptId: ids.uuid(), promptIndex: 1, turnIndex: 0 };
}

export type AssistantBlock = Exclude<ContentBlock, { type: 'tool_result' }>;

/** The rows of one transcript; rows chain through parentUuid like Claude's. Each row made is handed to `emit`. */
export class TranscriptRows {
  private parent: string | null = null;

  constructor(
    readonly owner: TranscriptOwner,
    private readonly emit: (row: Row) => void,
    private readonly now: () => number = Date.now,
    readonly ids: Ids = randomIds,
  ) {}

  private get lead(): boolean {
    return this.owner.agentId === undefined;
  }

  /** Continues a file already written: the next row's parent is its last row. */
  continueAfter(uuid: string): void {
    this.parent = uuid;
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

  private put(row: Row): Row {
    this.parent = row.uuid as string;
    this.emit(row);
    return row;
  }

  private stamp(at?: number): string {
    return new Date(at ?? this.now()).toISOString();
  }

  /** A prompt typed into the lead's terminal: a new prompt, and a new turn. */
  typed(content: string, at?: number): Row {
    const p = this.owner.prompt;
    if (p.turnIndex > 0) {
      p.promptId = this.ids.uuid();
      p.promptIndex += 1;
    }
    p.turnIndex += 1;
    const row = this.userHead();
    row.message = { role: 'user', content };
    row.uuid = this.ids.uuid();
    row.timestamp = this.stamp(at);
    row.permissionMode = PERMISSION_MODE;
    row.origin = { kind: 'human' };
    row.promptSource = 'typed';
    row.turnOrigin = 'human';
    row.turnPosition = { promptIndex: p.promptIndex, turnIndex: p.turnIndex };
    return this.put(this.tail(row, false));
  }

  /** What entered the context from an inbox (or as the spawn prompt): rowSource "recorded". The lead's starts a turn. */
  recorded(content: string, at?: number): Row {
    const row = this.userHead();
    row.message = { role: 'user', content };
    row.rowSource = 'recorded';
    row.uuid = this.ids.uuid();
    row.timestamp = this.stamp(at);
    if (this.lead) {
      this.owner.prompt.turnIndex += 1;
      row.turnPosition = { promptIndex: this.owner.prompt.promptIndex, turnIndex: this.owner.prompt.turnIndex };
    }
    return this.put(this.tail(row, false));
  }

  /** A reminder the harness adds (isMeta, rowSource "harness"). */
  harness(content: string, at?: number): Row {
    const row = this.userHead();
    row.message = { role: 'user', content };
    row.isMeta = true;
    row.rowSource = 'harness';
    row.uuid = this.ids.uuid();
    row.timestamp = this.stamp(at);
    return this.put(this.tail(row, false));
  }

  /** One model reply: a row per content block, sharing the message id, its whole usage and the request. */
  assistant(content: AssistantBlock[], at?: number): Row[] {
    const id = `msg_${this.ids.base62(24)}`;
    const requestRef = this.ids.uuid();
    const model = this.owner.model ?? DEFAULT_MODEL;
    const tokens = Math.max(1, Math.ceil(JSON.stringify(content).length / 4));
    const stop = content.some((b) => b.type === 'tool_use') ? 'tool_use' : 'end_turn';
    return content.map((block, i) => {
      const row = this.head();
      if (!this.lead) row.agentId = this.owner.agentId;
      row.message = { id, type: 'message', role: 'assistant', model, content: [block], stop_reason: stop, stop_sequence: null, usage: usage(tokens), stop_details: null };
      if (block.type === 'tool_use') row.toolInputStreamMs = 2;
      row.apiBlockIndex = i;
      row.requestRef = requestRef;
      row.requestedModel = model;
      row.promptCacheRequested = '5m';
      row.type = 'assistant';
      row.uuid = this.ids.uuid();
      row.timestamp = this.stamp(at);
      row.effort = 'medium';
      row.perTurnEffort = 'medium';
      row.madeBy = 'model';
      return this.put(this.tail(row, true));
    });
  }

  text(text: string, at?: number): Row[] {
    return this.assistant([{ type: 'text', text }], at);
  }

  /** A tool's answer to one tool_use row: the result block, plus what the tool reported (Bash's also says whether it ran sandboxed). */
  toolResult(toolUse: Row, content: ContentBlock & { type: 'tool_result' }, toolUseResult: unknown, at?: number, sandboxed?: boolean): Row {
    const row = this.userHead();
    row.message = { role: 'user', content: [content] };
    row.uuid = this.ids.uuid();
    row.timestamp = this.stamp(at);
    row.toolUseResult = toolUseResult;
    if (sandboxed !== undefined) row.sandboxed = sandboxed;
    row.sourceToolAssistantUUID = toolUse.uuid;
    row.permissionDecision = { decision: 'accept', source: 'config', reasonType: 'mode' };
    return this.put(this.tail(row, true));
  }

  toolUseId(): string {
    return `toolu_${this.ids.base62(24)}`;
  }
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
export function teammateMetaJson(meta: TeammateMeta): string {
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
  return JSON.stringify(body);
}
