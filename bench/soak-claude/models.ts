// The soak's scripted models, and what the Messages API log says they saw and said. Every soak
// message carries `soak-msg <seq> for <member>`; a model answers the messages of its turn with
// one text `<agent> answer <n>: #<seq> #<seq>…` (n counts answers, so each text is unique), now
// or after a spell of work (a Bash `sleep`, a long tool call), and then its turn ends: it goes
// idle. The lead also obeys `[[SHUTDOWN:name]]` in a soak message, any agent `[[WORK:<s>]]` (a
// spell of that many seconds), and teammates approve a shutdown request after a moment. A
// script is a function of one request (the conversation so far), so agents calling at once
// cannot race; only the answer and member-message counters and the random stream are shared.
//
// Members also talk among themselves: given new soak messages, a model sometimes first sends
// another member a message of its own (a SendMessage: teammate to teammate, teammate to lead,
// lead to teammate) whose text starts `member-msg <n> from <sender> to <recipient>:` (n counts
// them, so each is unique), and then goes on with its turn. A model given only members'
// messages says `<agent>: ok`. The request log holds every call a model made, with its id.
import type { Rng } from '../../src/sim/prng.js';
import { LEAD_TOKEN } from '../../test/claude/harness/api-standin.js';
import { blocksOf, directiveScript, text, textOfBlock, tool, type ApiRequest, type ReplyBlock, type Script } from '../../test/claude/harness/script.js';

/** The token a soak message carries; nothing else in the soak writes `soak-msg`. */
export const MESSAGE_TOKEN = /soak-msg (\d+) for ([\w-]+)/g;
/** The label an answer starts with. */
export const ANSWER_LABEL = /^([\w-]+) answer (\d+): ((?:#\d+ ?)+)$/;
/** The start of a member's own message; nothing else in the soak writes `member-msg`. */
export const MEMBER_LABEL = /^member-msg (\d+) from ([\w-]+) to ([\w-]+):/;
/** The lead's name on the team (its model is the stand-in's `lead`). */
const LEAD_NAME = 'team-lead';
const MEMBER_WORDS = ['please', 'look', 'at', 'the', 'flaky', 'test', 'in', 'déjà', '日本語', 'quotes "y"', '<b>', 'and', 'tell', 'me'];

export interface ModelOptions {
  rng: Rng;
  /** Chance that a teammate works before answering, and how long (ms). */
  workChance: number;
  workMs: [number, number];
  /** The lead works less often and for less long: its input box then holds typed turns back. */
  leadWorkChance: number;
  leadWorkMs: [number, number];
  /** How long a model takes to answer (ms). */
  latencyMs: [number, number];
  /** The teammates' names: whom the lead messages, and whom (with the lead) a teammate does. */
  teammates: string[];
  /** Chance that a model given new soak messages first messages another member. */
  memberMessageChance: number;
  /** Members nobody messages now (the soak times a crash on writes to their inbox). */
  quiet?: ReadonlySet<string>;
}

function seqsIn(s: string): number[] {
  return [...s.matchAll(MESSAGE_TOKEN)].map((m) => Number(m[1]));
}

function hasToolUse(content: unknown): boolean {
  return Array.isArray(content) && content.some((b) => (b as { type?: string }).type === 'tool_use');
}

/**
 * The soak messages of the turn in progress: every one in the user content since the agent's
 * last answer that ended a turn (an assistant message without tool calls).
 */
export function turnSeqs(req: ApiRequest): { seqs: number[]; worked: boolean; messaged: boolean; justMessaged: boolean } {
  const ms = req.body?.messages ?? [];
  const seqs: number[] = [];
  let worked = false;
  let messaged = false;
  let justMessaged = false;
  let last = true;
  for (let i = ms.length - 1; i >= 0; i--) {
    const m = ms[i]!;
    if (m.role === 'assistant') {
      if (!hasToolUse(m.content)) break;
      const calls = blocksOf(m.content).filter((b) => b.type === 'tool_use');
      if (calls.some((b) => b.name === 'Bash')) worked = true;
      const member = calls.some((b) => b.name === 'SendMessage' && MEMBER_LABEL.test(String((b.input as { message?: unknown } | undefined)?.message ?? '')));
      if (member) messaged = true;
      if (last) justMessaged = member;
      last = false;
      continue;
    }
    for (const b of blocksOf(m.content)) seqs.unshift(...seqsIn(textOfBlock(b)));
  }
  return { seqs: [...new Set(seqs)], worked, messaged, justMessaged };
}

export interface Models {
  scripts: Record<string, Script>;
}

export function soakModels(opts: ModelOptions): Models {
  let answers = 0;
  let memberMessages = 0;
  const { rng } = opts;
  const directives = directiveScript();
  const later = (reply: ReplyBlock[]): Promise<ReplyBlock[]> => new Promise((r) => setTimeout(() => r(reply), rng.int(opts.latencyMs[0], opts.latencyMs[1])));

  const agentScript = (isLead: boolean): Script => (req) => {
    // The lead's first turn spawns the teammates; a teammate approves a shutdown request.
    if (isLead && req.newText.includes(LEAD_TOKEN)) return directives(req);
    // (It thinks a shutdown over for a moment: the soak sends it a message meanwhile.)
    if (!isLead && /"type":\s*"shutdown_request"/.test(req.newText)) return new Promise((r) => setTimeout(() => r(directives(req)), rng.int(700, 1_000)));
    const { seqs, worked, messaged, justMessaged } = turnSeqs(req);
    const fresh = seqsIn(req.newText);
    // `[[WORK:<s>]]` in a message: a spell of exactly that long (the soak needs a member busy).
    const asked = /\[\[WORK:(\d+)\]\]/.exec(req.newText)?.[1];
    // A message of its own to another member, once per turn, before it works or answers.
    if (fresh.length && asked === undefined && !messaged && rng.chance(opts.memberMessageChance)) {
      const from = isLead ? LEAD_NAME : req.agent;
      const others = [LEAD_NAME, ...opts.teammates].filter((m) => m !== from && !opts.quiet?.has(m));
      if (others.length) {
        const to = rng.pick(others);
        const words = Array.from({ length: rng.int(2, 10) }, () => rng.pick(MEMBER_WORDS)).join(' ');
        memberMessages++;
        return later([tool('SendMessage', { to, summary: `${from} writes to ${to}`, message: `member-msg ${memberMessages} from ${from} to ${to}: ${words}` })]);
      }
    }
    const out: ReplyBlock[] = [];
    if (isLead) {
      for (const m of req.newText.matchAll(/\[\[SHUTDOWN:([\w-]+)\]\]/g)) {
        out.push(tool('SendMessage', { to: m[1]!, message: { type: 'shutdown_request', reason: 'the soak is done with you' } }));
      }
      if (out.length) return later(out);
    }
    if (seqs.length === 0) return later([text(`${req.agent}: ok`)]);
    const [chance, [lo, hi]] = isLead ? [opts.leadWorkChance, opts.leadWorkMs] : [opts.workChance, opts.workMs];
    if ((fresh.length || justMessaged) && !worked && (asked !== undefined || rng.chance(chance))) {
      const secs = asked ?? (rng.int(lo, hi) / 1000).toFixed(1);
      return later([tool('Bash', { command: `sleep ${secs}; echo WORKED`, description: `work on ${seqs.map((s) => `#${s}`).join(' ')}` })]);
    }
    answers++;
    return later([text(`${req.agent} answer ${answers}: ${seqs.map((s) => `#${s}`).join(' ')}`)]);
  };
  return { scripts: { lead: agentScript(true), default: agentScript(false) } };
}

// ------------------------------------------------------------------ reading the API log

/** One soak message in what a model newly saw. */
export interface Arrival {
  seq: number;
  /** Who the text names as the recipient. */
  for: string;
  /** The agent that saw it: `lead` or a teammate's name. */
  agent: string;
  /** The team in the agent id header (teammates only). */
  team?: string;
  at: number;
  /** The request's number in the log: copies in one request were in the inbox together. */
  request: number;
  /** Where in that request's new text it was (messages of one request in their order). */
  pos: number;
}

/** An answer a model gave. */
export interface GivenAnswer {
  agent: string;
  team?: string;
  n: number;
  text: string;
  seqs: number[];
  at: number;
}

/** A teammate's Bash spell: it is busy until `until`. */
export interface Spell {
  agent: string;
  team?: string;
  from: number;
  until: number;
}

function teamOf(req: ApiRequest): string | undefined {
  const id = req.headers['x-claude-code-agent-id'];
  return typeof id === 'string' && id.includes('@') ? id.slice(id.indexOf('@') + 1) : undefined;
}

const isModelCall = (r: ApiRequest) => r.url.startsWith('/v1/messages') && !r.url.includes('count_tokens') && r.agent !== 'side';

export function arrivals(log: ApiRequest[]): Arrival[] {
  return log.filter(isModelCall).flatMap((r) =>
    [...r.newText.matchAll(MESSAGE_TOKEN)].map((m) => ({ seq: Number(m[1]), for: m[2]!, agent: r.agent, team: teamOf(r), at: r.at, request: r.seq, pos: m.index })),
  );
}

export function givenAnswers(log: ApiRequest[]): GivenAnswer[] {
  const out: GivenAnswer[] = [];
  for (const r of log.filter(isModelCall)) {
    for (const b of r.reply ?? []) {
      if (b.type !== 'text') continue;
      const m = ANSWER_LABEL.exec(b.text);
      if (m) out.push({ agent: r.agent, team: teamOf(r), n: Number(m[2]), text: b.text, seqs: [...m[3]!.matchAll(/#(\d+)/g)].map((x) => Number(x[1])), at: r.at });
    }
  }
  return out;
}

/** The work spells models are in (or were in); `now` bounds a spell whose result has not come back. */
export function spells(log: ApiRequest[]): Spell[] {
  const out: Spell[] = [];
  for (const r of log.filter(isModelCall)) {
    for (const b of r.reply ?? []) {
      if (b.type !== 'tool_use' || b.name !== 'Bash') continue;
      const secs = Number(/sleep ([\d.]+)/.exec(String(b.input.command))?.[1] ?? 0);
      out.push({ agent: r.agent, team: teamOf(r), from: r.at, until: r.at + secs * 1000 });
    }
  }
  return out;
}

/** How long after a spell's sleep its result may take to come back as a call (a busy machine). */
const SPELL_RESULT_SLACK_MS = 3_000;

/**
 * Whether a model may still give an answer: a call whose reply has not gone out (the script's
 * latency), or a work spell not over or just over (its result comes back as a new call, a
 * moment after the sleep ends). A check that every answer is shown means nothing while one is.
 */
export function modelsBusy(log: ApiRequest[], now: number): boolean {
  return log.some((r) => isModelCall(r) && r.status === undefined) || spells(log).some((w) => w.until + SPELL_RESULT_SLACK_MS > now);
}

/** When `agent` of `team` can first read what reached its inbox at `at`: after the spells it is in. */
export function readableAfterSpells(all: Spell[], agent: string, team: string, at: number): number {
  let t = at;
  for (let moved = true; moved; ) {
    moved = false;
    for (const w of all) {
      if (w.agent === agent && (w.team === undefined || w.team === team) && w.from <= t && t < w.until) {
        t = w.until;
        moved = true;
      }
    }
  }
  return t;
}

/** A member's own message, as its model made the call. */
export interface MemberSend {
  n: number;
  /** The stand-in's agent (`lead` or a teammate's name) and the member names of the text. */
  agent: string;
  from: string;
  to: string;
  team?: string;
  text: string;
  /** The tool_use id Claude records the call under (the stand-in gave it). */
  callId: string;
  at: number;
}

export function memberSends(log: ApiRequest[]): MemberSend[] {
  const out: MemberSend[] = [];
  for (const r of log.filter(isModelCall)) {
    for (const b of r.reply ?? []) {
      if (b.type !== 'tool_use' || b.name !== 'SendMessage' || typeof b.input.message !== 'string' || !b.id) continue;
      const m = MEMBER_LABEL.exec(b.input.message);
      if (m) out.push({ n: Number(m[1]), agent: r.agent, from: m[2]!, to: m[3]!, team: teamOf(r), text: b.input.message, callId: b.id, at: r.at });
    }
  }
  return out;
}

/** The results of tool calls that came back to the models: tool_use id -> whether Claude said it failed, and its words. */
export function toolResults(log: ApiRequest[]): Map<string, { isError: boolean; text: string }> {
  const out = new Map<string, { isError: boolean; text: string }>();
  for (const r of log.filter(isModelCall)) {
    for (const b of r.newContent) {
      if (b.type === 'tool_result' && typeof b.tool_use_id === 'string') out.set(b.tool_use_id, { isError: b.is_error === true, text: textOfBlock(b) });
    }
  }
  return out;
}

/** Members' own messages their recipients' models saw: `<n>` per copy seen by the agent it names. */
export function memberArrivals(log: ApiRequest[]): number[] {
  const out: number[] = [];
  for (const r of log.filter(isModelCall)) {
    for (const m of r.newText.matchAll(/member-msg (\d+) from [\w-]+ to ([\w-]+):/g)) {
      if ((m[2] === LEAD_NAME ? 'lead' : m[2]) === r.agent) out.push(Number(m[1]));
    }
  }
  return out;
}
