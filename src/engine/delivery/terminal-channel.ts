// The terminal channel: types a journaled message into the lead's terminal that Teamdeck hosts,
// the only way to speak to a current-era team in the user's own voice (docs/claude-contract.md#terminal): a turn
// for the lead, `@name text` for a teammate (the lead signs it; the teammate sees
// `teammate_id="user"`). One turn at a time, in journal order, and never while the terminal
// shows a dialog (typing would answer it), a teammate's view (typing would message the teammate)
// or holds text the user is typing.
//
// Once: an `attempt` is journaled before the keys go. A message with an attempt and no delivery
// (the engine died in between) is looked for in the recipient's transcript first; found, it
// counts as delivered and is not typed again. Still in the input box, only Enter is pressed.
import { readFile } from 'node:fs/promises';
import type { TerminalInfo } from '../../shared/types.js';
import { AdmissionError } from '../claude/inbox-writer.js';
import { inputBox, inputBoxEmpty, inputText, notLeadsBox, pastePieces, plainTurn, unwrapPasted } from '../claude/lead-screen.js';
import { holdsTeammateBlock, promptOrigin, promptText } from '../claude/transcripts.js';
import { teamPaths } from '../claude/paths.js';
import type { LeadSession } from '../claude/sessions.js';
import type { TerminalHost } from '../terminals/types.js';
import type { Team } from '../team/team.js';
import { neverReadable } from './inbox-channel.js';
import type { SentState } from '../journal/journal.js';
import { UndeliverableError } from './outbox.js';

export interface TerminalChannelContext {
  terminals: TerminalHost;
  /** The hosted terminal whose lead made this team, if any. */
  terminalOf(rt: Team): TerminalInfo | undefined;
  now(): number;
  /** The lead's sessions file read now (undefined before the team's session is followed). */
  readSession(rt: Team, pid: number): Promise<LeadSession | undefined>;
  /** The teams root: a typed `@name` message is in the teammate's inbox before it is in its transcript. */
  teamsRoot?: string;
}

/** How long Claude's input may take to clear after Enter before the send counts anyway. */
const SUBMIT_WAIT_MS = 3_000;
/** A transcript row up to this long before the attempt still counts as that attempt's turn. */
const ATTEMPT_SLACK_MS = 2_000;

/** Line ends as a terminal paste gives them, trimmed: how a typed text is compared. */
export function sameText(a: string, b: string): boolean {
  // Claude trims a typed turn's end and turns a pasted tab into four spaces.
  const norm = (s: string) => unwrapPasted(s).replace(/\r\n?/g, '\n').replace(/\t/g, '    ').trim();
  return norm(a) === norm(b);
}

/** What is typed for this message: the text for the lead, `@name text` for a teammate. */
export function typedLine(rt: Team, s: SentState): string {
  // A leading `!` or `/` would run a shell or slash command: a space before it keeps it a turn.
  return s.to === rt.lead?.name ? plainTurn(s.text) : `@${s.to} ${s.text}`;
}

/** Whether one prompt row of the recipient's transcript is this terminal message. */
export function isTerminalPrompt(rt: Team, s: SentState, p: { text: string; typed?: boolean }): boolean {
  if (s.to === rt.lead?.name) return p.typed === true && sameText(p.text, s.text);
  return holdsTeammateBlock(p.text, 'user', s.text);
}

/**
 * `@name text` makes the lead write `{from:"user", text}` into the teammate's inbox, which the
 * teammate's transcript shows only once its model takes it: after a crash, that entry is the
 * proof the message was typed.
 */
async function inTeammateInbox(ctx: TerminalChannelContext, rt: Team, s: SentState): Promise<boolean> {
  if (!ctx.teamsRoot || s.to === rt.lead?.name) return false;
  let entries: unknown;
  try {
    entries = JSON.parse(await readFile(teamPaths(ctx.teamsRoot, rt.id).inbox(s.to), 'utf8'));
  } catch {
    return false;
  }
  if (!Array.isArray(entries)) return false;
  const since = (s.attemptedAt ?? s.queuedAt) - ATTEMPT_SLACK_MS;
  return entries.some((e: { from?: unknown; text?: unknown; timestamp?: unknown }) => {
    if (e?.from !== 'user' || typeof e.text !== 'string' || !sameText(e.text, s.text)) return false;
    const t = typeof e.timestamp === 'string' ? Date.parse(e.timestamp) : NaN;
    return !Number.isFinite(t) || t >= since;
  });
}

/** Reads the recipient's transcript for this message since its attempt (the rare path after a crash). */
async function inTranscript(rt: Team, s: SentState): Promise<boolean> {
  const files = await rt.transcripts?.find(rt.lead?.name ?? 'team-lead');
  const path = files?.get(s.to);
  if (!path) return false;
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch {
    return false;
  }
  const since = (s.attemptedAt ?? s.queuedAt) - ATTEMPT_SLACK_MS;
  // Only lines that can hold the text are parsed (the JSON-escaped head of it).
  const head = JSON.stringify(s.text.trim().slice(0, 40)).slice(1, -1);
  for (const line of text.split('\n')) {
    if (!line.includes(head)) continue;
    let row: Record<string, unknown>;
    try {
      row = JSON.parse(line) as Record<string, unknown>;
    } catch {
      continue;
    }
    const time = typeof row.timestamp === 'string' ? Date.parse(row.timestamp) : NaN;
    if (Number.isFinite(time) && time < since) continue;
    // Typed while the lead was busy: Claude queues the prompt and records the enqueue.
    if (row.type === 'queue-operation' && typeof row.content === 'string' && sameText(row.content, s.to === rt.lead?.name ? s.text : typedLine(rt, s))) return true;
    const p = promptText(row);
    if (p !== undefined && isTerminalPrompt(rt, s, { text: p, ...promptOrigin(row) })) return true;
  }
  return false;
}

async function waitForEmptyBox(ctx: TerminalChannelContext, id: string, deadline: number): Promise<boolean> {
  while (ctx.now() < deadline) {
    if (inputBoxEmpty(await ctx.terminals.screenText(id))) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return false;
}

/**
 * Types one message (the outbox hands this channel one at a time). Throws UndeliverableError
 * when no one can ever read it, AdmissionError (temporary, with the reason in words) while it
 * must wait. `attempt` journals the attempt; it resolves once that is durable.
 */
export async function admitToTerminal(ctx: TerminalChannelContext, rt: Team, s: SentState, attempt: () => Promise<void>): Promise<{ duplicate: boolean }> {
  const never = neverReadable(rt, s.to);
  if (never) throw new UndeliverableError(never);
  const term = ctx.terminalOf(rt);
  if (!term) throw new UndeliverableError(`Teamdeck does not host the terminal of team ${rt.id}'s lead, so it cannot type into it`);
  if (term.state === 'exited') throw new UndeliverableError(`the lead's terminal closed (the lead exited) before it could be typed`);
  if (term.state === 'starting' || term.pid === undefined) throw new AdmissionError(`the lead's terminal is starting`, true, 'ESTARTING');
  if (s.attemptedAt !== undefined && ((await inTeammateInbox(ctx, rt, s)) || (await inTranscript(rt, s)))) return { duplicate: true };
  // A dialog in the lead's terminal (its own or a teammate's permission prompt) takes keys as answers.
  const session = await ctx.readSession(rt, term.pid);
  if (session?.status === 'waiting') {
    throw new AdmissionError(`the lead's terminal shows a ${session.waitingFor ?? 'dialog'}; typing now would answer it, so this waits until it is answered`, true, 'EDIALOG');
  }
  const screen = await ctx.terminals.screenText(term.id);
  // A teammate's view (or the agents list) takes what is typed: never type there.
  const off = notLeadsBox(screen);
  if (off) throw new AdmissionError(`${off.why}; this waits until the terminal is back on the lead's input box`, true, off.code);
  const box = inputBox(screen);
  if (box === undefined) throw new AdmissionError(`the lead's input box is not on screen (a dialog or a menu is open in its terminal)`, true, 'ENOBOX');
  const pending = inputText(box);
  const line = typedLine(rt, s);
  if (pending !== '') {
    // Typed before a crash, not submitted: press Enter, or type the pieces that did not go yet.
    const rest = s.attemptedAt !== undefined ? untyped(pending, line) : undefined;
    if (rest === undefined) throw new AdmissionError(`there is unsent text in the lead's input box; this goes once the box is empty`, true, 'EBUSYBOX');
    if (rest.length === 0) ctx.terminals.input(term.id, '\r');
    else await ctx.terminals.typeTurn(term.id, rest);
    return submitted(ctx, term.id, line);
  }
  await attempt();
  // In pieces Claude takes inline: one large paste would arrive wrapped as pasted material
  // (and a multi-line `@name` paste would become a lead turn).
  await ctx.terminals.typeTurn(term.id, pastePieces(line));
  return submitted(ctx, term.id, line);
}

/**
 * What is left to type of `line` when the box holds `pending`: [] (only Enter) when it is all
 * there, the pieces not pasted yet when the box holds the first ones (the engine died between
 * two pieces), undefined when the box holds anything else (the user's own text).
 */
export function untyped(pending: string, line: string): string[] | undefined {
  // The box wraps a long line at its width, at a space or inside a word, and indents the rest:
  // its text is compared with every blank taken out.
  const squash = (t: string) => unwrapPasted(t).replace(/\s+/g, '');
  const shown = squash(pending);
  if (shown === '') return undefined;
  const pieces = pastePieces(line);
  for (let k = pieces.length; k >= 1; k--) {
    if (squash(pieces.slice(0, k).join('')) !== shown) continue;
    const rest = pieces.slice(k);
    return rest.join('').trim() === '' ? [] : rest;
  }
  return undefined;
}

/**
 * After Enter: the box clears once Claude took the turn. Still holding the message after a
 * while, Claude did not take it (an `@name` whose inbox stayed locked leaves the line in the
 * box): the send waits as queued, and its next try presses Enter again rather than saying
 * `accepted` for text that sits in the box.
 */
async function submitted(ctx: TerminalChannelContext, id: string, line: string): Promise<{ duplicate: boolean }> {
  if (await waitForEmptyBox(ctx, id, ctx.now() + SUBMIT_WAIT_MS)) return { duplicate: false };
  const box = inputBox(await ctx.terminals.screenText(id));
  const left = box === undefined ? '' : inputText(box);
  if (left !== '' && untyped(left, line)?.length === 0) {
    throw new AdmissionError(`Claude has not taken the message from the lead's input box yet; Enter is pressed again`, true, 'ENOTTAKEN');
  }
  return { duplicate: false };
}
