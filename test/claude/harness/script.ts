// What the scripted "model" sees and answers. A script is a pure function of one request:
// everything an agent has done so far comes back in `messages` (its tool_use ids, its text),
// so no state is kept between requests and agents that call concurrently cannot race.

/** One block of a reply: text, or a tool call (the id is made up by the stand-in when omitted). */
export type ReplyBlock = { type: 'text'; text: string } | { type: 'tool_use'; name: string; input: Record<string, unknown>; id?: string };

/** A content block as Claude sends it (text, tool_use, tool_result, image…). */
export interface ContentBlock {
  type: string;
  text?: string;
  content?: unknown;
  tool_use_id?: string;
  name?: string;
  input?: unknown;
  id?: string;
  [k: string]: unknown;
}

export interface ApiMessage {
  role: 'user' | 'assistant';
  content: string | ContentBlock[];
}

/** One request the stand-in received, as logged. */
export interface ApiRequest {
  seq: number;
  /** Date.now() when the body was complete. */
  at: number;
  method: string;
  url: string;
  headers: Record<string, string | string[] | undefined>;
  body: { model?: string; system?: unknown; messages?: ApiMessage[]; tools?: Array<{ name: string }>; stream?: boolean; [k: string]: unknown } | undefined;
  /** `lead`, a teammate's name, `side` (a request without tools) or `unknown`. */
  agent: string;
  /** Everything after the last assistant message: what the model newly sees. */
  newContent: ContentBlock[];
  /** All text of newContent, tool_result contents included, blocks joined by "\n". */
  newText: string;
  /** What the stand-in answered (absent for count_tokens and 404s). */
  reply?: ReplyBlock[];
  /** The usage the stand-in reported for that reply: every reply its own numbers (usageOfReply). */
  usage?: ReplyUsage;
  status?: number;
}

/** A reply's usage as the Messages API reports it. */
export interface ReplyUsage {
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
}

/**
 * The usage the stand-in gives its `seq`th reply: different for every reply and every kind, so
 * a sum that counts a reply twice, or drops one, or mixes two kinds up, never comes out right.
 */
export function usageOfReply(seq: number): ReplyUsage {
  return { input_tokens: 1_000 + seq * 7, output_tokens: 40 + seq * 3, cache_creation_input_tokens: 200 + seq * 11, cache_read_input_tokens: 5_000 + seq * 13 };
}

/** Answers one request: now, or later through a promise (a slow model); undefined = the default answer. */
export type Script = (req: ApiRequest) => ReplyBlock[] | undefined | Promise<ReplyBlock[] | undefined>;

export const text = (t: string): ReplyBlock => ({ type: 'text', text: t });
export const tool = (name: string, input: Record<string, unknown>): ReplyBlock => ({ type: 'tool_use', name, input });

export function blocksOf(content: string | ContentBlock[] | undefined): ContentBlock[] {
  if (content === undefined) return [];
  return typeof content === 'string' ? [{ type: 'text', text: content }] : content;
}

/** The text of a block, with a tool_result's content flattened. */
export function textOfBlock(b: ContentBlock): string {
  if (b.type === 'text') return b.text ?? '';
  if (b.type === 'tool_result') {
    const c = b.content;
    if (typeof c === 'string') return c;
    if (Array.isArray(c)) return (c as ContentBlock[]).map(textOfBlock).join('\n');
  }
  return '';
}

export function newContentOf(messages: ApiMessage[] | undefined): ContentBlock[] {
  const ms = messages ?? [];
  let last = -1;
  ms.forEach((m, i) => {
    if (m.role === 'assistant') last = i;
  });
  return ms.slice(last + 1).flatMap((m) => blocksOf(m.content));
}

/** All text of the first user message (Claude puts <system-reminder> blocks before the prompt). */
export function firstUserText(messages: ApiMessage[] | undefined): string {
  const first = (messages ?? []).find((m) => m.role === 'user');
  return first ? blocksOf(first.content).map(textOfBlock).join('\n') : '';
}

/** The tool_result blocks of the new content, with the name of the tool each answers. */
export function newToolResults(req: ApiRequest): Array<{ name: string | undefined; text: string; isError: boolean }> {
  const calls = new Map<string, string>();
  for (const m of req.body?.messages ?? []) {
    if (m.role !== 'assistant') continue;
    for (const b of blocksOf(m.content)) if (b.type === 'tool_use' && b.id && b.name) calls.set(b.id, b.name);
  }
  return req.newContent
    .filter((b) => b.type === 'tool_result')
    .map((b) => ({ name: calls.get(b.tool_use_id ?? ''), text: textOfBlock(b), isError: b.is_error === true }));
}

export interface DirectiveOptions {
  /** Spawn prompts by teammate name, for `[[SPAWN:name]]`. */
  prompts?: Record<string, string>;
  /** What to answer when the new content holds no directive (default `<agent>: ok`). */
  fallback?: (req: ApiRequest) => ReplyBlock[];
}

const DIRECTIVE = /\[\[(SPAWN|BASH|SEND|SHUTDOWN|SAY|TASK|TASKUPDATE):([^\]]*)\]\]/g;

/**
 * A script driven by tokens in what the agent newly sees, so tests steer any agent by what
 * they type or write into an inbox:
 * - `[[SPAWN:name]]`: Agent call spawning `name` with `prompts[name]`;
 * - `[[BASH:command]]`: Bash call;
 * - `[[SEND:to:message]]`: SendMessage to `to`;
 * - `[[SHUTDOWN:name]]`: SendMessage with a shutdown_request to `name`;
 * - `[[SAY:text]]`: a text block;
 * - `[[TASK:subject|description]]`: TaskCreate (description defaults to the subject; the task
 *   tools need CLAUDE_CODE_ENABLE_TODO_TOOLS=1);
 * - `[[TASKUPDATE:id:status:owner]]`: TaskUpdate of task `id`; an empty status or owner is left out.
 * A shutdown_request frame in the new content is approved (SendMessage shutdown_response).
 * All directives of one request go into one reply, in order; a reply without tool calls ends
 * the turn.
 */
export function directiveScript(opts: DirectiveOptions = {}): Script {
  return (req) => {
    const out: ReplyBlock[] = [];
    for (const m of req.newText.matchAll(DIRECTIVE)) {
      const [, kind, arg = ''] = m;
      if (kind === 'SPAWN') {
        out.push(tool('Agent', { description: `${arg} joins the team`, prompt: opts.prompts?.[arg] ?? `You are ${arg}.`, name: arg, subagent_type: 'general-purpose' }));
      } else if (kind === 'BASH') {
        out.push(tool('Bash', { command: arg, description: `run ${arg}` }));
      } else if (kind === 'SEND') {
        const at = arg.indexOf(':');
        const to = arg.slice(0, at);
        const message = arg.slice(at + 1);
        out.push(tool('SendMessage', { to, summary: `${req.agent} to ${to}`, message }));
      } else if (kind === 'SHUTDOWN') {
        out.push(tool('SendMessage', { to: arg, message: { type: 'shutdown_request', reason: 'the test is done with you' } }));
      } else if (kind === 'SAY') {
        out.push(text(arg));
      } else if (kind === 'TASK') {
        const [subject = '', description] = arg.split('|');
        out.push(tool('TaskCreate', { subject, description: description ?? subject }));
      } else if (kind === 'TASKUPDATE') {
        const [taskId = '', status, owner] = arg.split(':');
        out.push(tool('TaskUpdate', { taskId, ...(status ? { status } : {}), ...(owner ? { owner } : {}) }));
      }
    }
    for (const m of req.newText.matchAll(/"type":\s*"shutdown_request"[^}]*?"requestId":\s*"([^"]+)"|"requestId":\s*"([^"]+)"[^}]*?"type":\s*"shutdown_request"/g)) {
      out.push(tool('SendMessage', { to: 'team-lead', message: { type: 'shutdown_response', request_id: m[1] ?? m[2], approve: true } }));
    }
    if (out.length) return out;
    return opts.fallback?.(req) ?? [text(`${req.agent}: ok`)];
  };
}
