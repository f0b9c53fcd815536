// A member's thread with the user, or a whole team's traffic, as a file: Markdown that a person
// reads (names, local times, delivery and protocol events in words) and JSON that a program
// reads. Pure: messages and the team's metadata in, text out; no Node, no clock of its own
// (the caller passes exportedAt and the time zone), so tests use it alone.
//
// The Markdown is text, never HTML: names and reasons are escaped, each message's text goes in
// a fence longer than any backtick run inside it, and control characters are made visible, so
// no message can start a heading, close its block or reach a terminal as an escape sequence.
//
// The JSON (`format: "teamdeck-export"`, `version: 1`) keeps this field order, and omits a
// field that does not apply rather than writing null (`at` excepted):
//   format, version, exportedAt (ISO, UTC), scope ("thread" | "team"),
//   team { id, name, era, state, endedAt? (ISO), endedReason? },
//   member? { name, isLead, agentType?, model? }        (scope "thread" only)
//   messages[] { id, at (ISO, UTC; null when the file's timestamp did not parse),
//     timestamp (as written), from ("user" = you), to, kind ("message" | "protocol"),
//     text (exactly as written), summary?,
//     protocol? { type, words, fields }                  (a protocol frame: its fields as written)
//     delivery? { status, words, channel, sentAs?, reason? }   (messages you sent)
//     answer? { source, words },                         (a member's answer: where it was found)
//     via? { kind, words } }                             (read from a transcript: how it travelled)
import type { ExportFile, ExportFormat } from '../../shared/contract.js';
import { describeFrame } from '../../shared/frame-text.js';
import { channelMark, sourceLabel, undeliverableReason, viaWords } from '../../shared/message-words.js';
import { endsAsSeen } from '../../shared/threads.js';
import type { AnswerSource, ChannelKind, DeliveryStatus, FrameType, MemberInfo, MessageVia, TeamEra, TeamState, TeamSummary, ThreadMessage } from '../../shared/types.js';

export const EXPORT_FORMAT = 'teamdeck-export';
export const EXPORT_VERSION = 1;

export interface ExportInput {
  team: Pick<TeamSummary, 'id' | 'name' | 'era' | 'state' | 'endedAt' | 'endedReason'>;
  /** The thread's member; absent: the export is the whole team's. */
  member?: Pick<MemberInfo, 'name' | 'isLead' | 'agentType' | 'model'>;
  /** Oldest first, as the thread and the feed give them. */
  messages: readonly ThreadMessage[];
  /** ms since the epoch. */
  exportedAt: number;
  /** IANA time zone of the readable times; default: this runtime's. */
  timeZone?: string;
}

export interface ExportMessage {
  id: string;
  at: string | null;
  timestamp: string;
  from: string;
  to: string;
  kind: 'message' | 'protocol';
  text: string;
  summary?: string;
  protocol?: { type: FrameType; words: string; fields: Record<string, unknown> };
  delivery?: { status: DeliveryStatus; words: string; channel: ChannelKind; sentAs?: string; reason?: string };
  answer?: { source: AnswerSource; words: string };
  via?: { kind: MessageVia; words: string };
}

export interface ExportDocument {
  format: typeof EXPORT_FORMAT;
  version: typeof EXPORT_VERSION;
  exportedAt: string;
  scope: 'thread' | 'team';
  team: { id: string; name: string; era: TeamEra; state: TeamState; endedAt?: string; endedReason?: string };
  member?: { name: string; isLead: boolean; agentType?: string; model?: string };
  messages: ExportMessage[];
}

// ------------------------------------------------------------------------------------- words

/** Where a sent message got to, in words: "delivered, seen, replied", "undeliverable: <reason>". */
export function deliveryWords(m: Pick<ThreadMessage, 'status' | 'reason' | 'to'>, era: TeamEra): string | undefined {
  const why = m.reason?.trim().replace(/[.\s]+$/, '');
  switch (m.status) {
    case 'queued':
      return `queued, not delivered yet${why ? `: ${why}` : ''}`;
    case 'accepted':
      return 'delivered';
    case 'taken':
      return 'delivered, taken by its process';
    case 'seen':
      return 'delivered, seen';
    case 'replied':
      // A legacy team has no transcript receipt: `taken` is its last one before the answer.
      return era === 'legacy' ? 'delivered, taken, replied' : 'delivered, seen, replied';
    case 'undeliverable':
      return `undeliverable: ${undeliverableReason(m.to, m.reason)}`;
    default:
      return undefined;
  }
}

/** Where a member's answer was found, in words. */
export function answerWords(source: AnswerSource): string {
  return `answer ${sourceLabel(source) ?? 'in the user inbox'}`;
}

function fromName(m: ThreadMessage): string {
  return endsAsSeen(m).from;
}

/** An answer is addressed to the user whatever inbox carried it (an idle notification goes to the lead). */
function toName(m: ThreadMessage): string {
  return endsAsSeen(m).to;
}

// -------------------------------------------------------------------------------------- time

// Intl's formatToParts costs ~15 µs a call, most of a 10,000-message export; the zone's offset
// is asked once per quarter hour instead (every offset and every change of one since 1970 falls
// on a quarter hour of UTC), and the wall clock is computed from it.
const QUARTER_MS = 15 * 60_000;

interface Zone {
  format: Intl.DateTimeFormat;
  /** Offset from UTC in minutes, per quarter hour since the epoch. */
  offsets: Map<number, number>;
}

const zones = new Map<string, Zone>();

function zoneFor(timeZone: string | undefined): Zone {
  const key = timeZone ?? '';
  let z = zones.get(key);
  if (!z) {
    let format: Intl.DateTimeFormat;
    try {
      format = new Intl.DateTimeFormat('en-US', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' });
    } catch {
      throw new RangeError(`unknown time zone ${JSON.stringify(timeZone)}: use a name such as Europe/Paris or UTC`);
    }
    zones.set(key, (z = { format, offsets: new Map() }));
  }
  return z;
}

function offsetMinutes(zone: Zone, ms: number): number {
  const q = Math.floor(ms / QUARTER_MS);
  let off = zone.offsets.get(q);
  if (off === undefined) {
    const start = q * QUARTER_MS;
    const p: Record<string, number> = {};
    for (const part of zone.format.formatToParts(start)) if (part.type !== 'literal') p[part.type] = Number(part.value);
    const wall = Date.UTC(p.year!, p.month! - 1, p.day!, p.hour!, p.minute!, p.second!);
    off = Math.round((wall - start) / 60_000);
    zone.offsets.set(q, off);
  }
  return off;
}

interface LocalTime {
  /** "2026-02-09 14:02:11" */
  text: string;
  /** "UTC+01:00" */
  offset: string;
  /** "20260209-140211", for file names */
  stamp: string;
}

const two = (n: number) => String(n).padStart(2, '0');

/** A moment as the clocks of `timeZone` read it (undefined for no time). */
export function localTime(ms: number, timeZone: string | undefined): LocalTime | undefined {
  if (!Number.isFinite(ms) || ms <= 0) return undefined;
  const off = offsetMinutes(zoneFor(timeZone), ms);
  const d = new Date(ms + off * 60_000);
  const [y, mo, da, h, mi, se] = [d.getUTCFullYear(), two(d.getUTCMonth() + 1), two(d.getUTCDate()), two(d.getUTCHours()), two(d.getUTCMinutes()), two(d.getUTCSeconds())];
  const abs = Math.abs(off);
  return { text: `${y}-${mo}-${da} ${h}:${mi}:${se}`, offset: `UTC${off < 0 ? '-' : '+'}${two(Math.floor(abs / 60))}:${two(abs % 60)}`, stamp: `${y}${mo}${da}-${h}${mi}${se}` };
}

function isoOf(ms: number): string | null {
  return Number.isFinite(ms) && ms > 0 ? new Date(ms).toISOString() : null;
}

// ---------------------------------------------------------------------------------- Markdown

/** C0 and C1 controls (tab and newline kept) as visible symbols: nothing reaches a terminal as an escape. */
function visible(s: string): string {
  return s.replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, (c) => {
    const n = c.charCodeAt(0);
    return n < 0x20 ? String.fromCharCode(0x2400 + n) : n === 0x7f ? '\u2421' : '\ufffd';
  });
}

/** The longest run of backticks in `s`. */
function longestTicks(s: string): number {
  let best = 0;
  if (s.includes('`')) for (const run of s.matchAll(/`+/g)) if (run[0].length > best) best = run[0].length;
  return best;
}

/** Text for one line of Markdown: line breaks become spaces, and what could start markup is escaped. */
export function mdInline(s: string): string {
  return visible(s.replace(/\r\n?|\n|\u2028|\u2029/g, ' ')).replace(/[\\`*_[\]<>&#|~]/g, '\\$&');
}

/** A code span that holds `s` whatever backticks it has. */
function codeSpan(s: string): string {
  const clean = visible(s.replace(/\r\n?|\n/g, ' '));
  if (clean.trim() === '') return '(empty)';
  const ticks = '`'.repeat(longestTicks(clean) + 1);
  const pad = clean.startsWith('`') || clean.endsWith('`') ? ' ' : '';
  return `${ticks}${pad}${clean}${pad}${ticks}`;
}

/** A fenced block that no line of `text` can close: its fence is longer than any backtick run inside. */
export function mdFence(text: string, info = 'text'): string {
  const body = visible(text.replace(/\r\n?/g, '\n')).replace(/\n+$/, '');
  const fence = '`'.repeat(Math.max(3, longestTicks(body) + 1));
  return `${fence}${info}\n${body}\n${fence}`;
}

/** Frame fields worth reading in full beside the one-line description. */
const FRAME_DETAILS: Partial<Record<FrameType, { field: string; label: string; json?: boolean }[]>> = {
  idle_notification: [{ field: 'result', label: 'Its last text' }],
  plan_approval_request: [{ field: 'planContent', label: 'The plan' }],
  permission_request: [
    { field: 'description', label: 'What it asks' },
    { field: 'input', label: 'Tool input', json: true },
  ],
  task_assignment: [{ field: 'description', label: 'The task' }],
};

function frameDetails(m: ThreadMessage): string[] {
  const out: string[] = [];
  for (const d of (m.frame && FRAME_DETAILS[m.frame.type]) || []) {
    const v = m.frame!.fields[d.field];
    if (v === undefined || v === null || v === '') continue;
    const text = typeof v === 'string' && !d.json ? v : JSON.stringify(v, null, 2);
    if (text === undefined) continue;
    out.push(`${d.label}:`, '', mdFence(text, d.json ? 'json' : 'text'), '');
  }
  return out;
}

function messageMarkdown(m: ThreadMessage, era: TeamEra, timeZone: string | undefined): string {
  const when = localTime(m.time, timeZone)?.text ?? 'unknown time';
  const lines = [`### ${when} — ${mdInline(fromName(m))} → ${mdInline(toName(m))}`, ''];
  const meta: string[] = [];
  if (m.frame) meta.push(`protocol event: ${mdInline(describeFrame(m.frame))}`);
  if (m.status !== undefined) {
    const mark = channelMark(m);
    if (mark) meta.push(mdInline(mark));
    meta.push(mdInline(deliveryWords(m, era) ?? m.status));
  }
  if (m.source !== undefined) meta.push(mdInline(answerWords(m.source)));
  if (m.via !== undefined) meta.push(mdInline(viaWords(m.via, m.sentAs)));
  meta.push(codeSpan(isoOf(m.time) ?? m.timestamp));
  const line = meta.join(' · ');
  lines.push(line.charAt(0).toUpperCase() + line.slice(1), '');
  if (m.summary !== undefined && m.summary.trim() !== '' && !m.frame) lines.push(`Summary: ${mdInline(m.summary)}`, '');
  if (m.frame) lines.push(...frameDetails(m));
  else lines.push(mdFence(m.text), '');
  return lines.join('\n');
}

function teamLine(input: ExportInput): string {
  const t = input.team;
  const parts = [`${mdInline(t.name)} (folder ${codeSpan(t.id)})`, `${t.era} era`];
  if (t.state === 'ended') {
    const when = t.endedAt ? localTime(t.endedAt, input.timeZone)?.text : undefined;
    const why = t.endedReason?.trim().replace(/[.\s]+$/, '');
    parts.push(`ended${when ? ` ${when}` : ''}${why ? `: ${mdInline(why)}` : ''}`);
  } else parts.push('running');
  return `- Team: ${parts.join(' · ')}`;
}

function memberLine(member: NonNullable<ExportInput['member']>): string {
  const parts = [mdInline(member.name)];
  if (member.isLead) parts.push('the lead');
  if (member.model) parts.push(mdInline(member.model));
  if (member.agentType) parts.push(mdInline(member.agentType));
  return `- Member: ${parts.join(' · ')}`;
}

/** The export as Markdown: a title, the team and member, then each message under its own heading. */
export function exportMarkdown(input: ExportInput): string {
  const { team, member, messages, timeZone } = input;
  // The name asked for as given (ICU would answer Asia/Kolkata with its older Asia/Calcutta).
  const zone = timeZone ?? zoneFor(undefined).format.resolvedOptions().timeZone;
  zoneFor(timeZone);
  const exported = localTime(input.exportedAt, timeZone);
  const first = messages.find((m) => m.time > 0);
  const last = messages.findLast((m) => m.time > 0);
  const span = first && last ? `, from ${localTime(first.time, timeZone)!.text} to ${localTime(last.time, timeZone)!.text}` : '';
  const out: string[] = [
    member ? `# Thread with ${mdInline(member.name)}` : `# Every message in ${mdInline(team.name)}`,
    '',
    member
      ? `The messages between you and ${mdInline(member.name)} in the team ${mdInline(team.name)}, oldest first, exported from Teamdeck.`
      : `Every message of the team ${mdInline(team.name)}, teammate-to-teammate traffic included, oldest first, exported from Teamdeck.`,
    '',
    teamLine(input),
    ...(member ? [memberLine(member)] : []),
    `- Messages: ${messages.length}${span}`,
    `- Exported: ${exported ? `${exported.text} · ` : ''}${codeSpan(isoOf(input.exportedAt) ?? String(input.exportedAt))}`,
    `- Times: local to ${mdInline(zone)} (${exported?.offset ?? 'UTC'} when exported); each message also gives its time in UTC`,
    '',
    '---',
    '',
  ];
  if (messages.length === 0) out.push(member ? `No messages between you and ${mdInline(member.name)}.` : 'No messages in this team.', '');
  for (const m of messages) out.push(messageMarkdown(m, team.era, timeZone));
  return out.join('\n');
}

// -------------------------------------------------------------------------------------- JSON

function messageJson(m: ThreadMessage, era: TeamEra): ExportMessage {
  const o: ExportMessage = { id: m.id, at: isoOf(m.time), timestamp: m.timestamp, from: m.from, to: m.to, kind: m.frame ? 'protocol' : 'message', text: m.text };
  if (m.summary !== undefined) o.summary = m.summary;
  if (m.frame) o.protocol = { type: m.frame.type, words: describeFrame(m.frame), fields: m.frame.fields };
  if (m.status !== undefined) {
    const d: NonNullable<ExportMessage['delivery']> = { status: m.status, words: deliveryWords(m, era) ?? m.status, channel: m.channel ?? 'inbox' };
    if (m.sentAs !== undefined) d.sentAs = m.sentAs;
    if (m.reason !== undefined) d.reason = m.reason;
    o.delivery = d;
  }
  if (m.source !== undefined) o.answer = { source: m.source, words: answerWords(m.source) };
  if (m.via !== undefined) o.via = { kind: m.via, words: viaWords(m.via, m.sentAs) };
  return o;
}

/** The export as a JSON document, fields in the documented order. */
export function exportDocument(input: ExportInput): ExportDocument {
  const t = input.team;
  const team: ExportDocument['team'] = { id: t.id, name: t.name, era: t.era, state: t.state };
  const endedAt = t.endedAt === undefined ? null : isoOf(t.endedAt);
  if (endedAt) team.endedAt = endedAt;
  if (t.endedReason !== undefined) team.endedReason = t.endedReason;
  let member: ExportDocument['member'];
  if (input.member) {
    member = { name: input.member.name, isLead: input.member.isLead };
    if (input.member.agentType !== undefined) member.agentType = input.member.agentType;
    if (input.member.model !== undefined) member.model = input.member.model;
  }
  return {
    format: EXPORT_FORMAT,
    version: EXPORT_VERSION,
    exportedAt: isoOf(input.exportedAt) ?? new Date(0).toISOString(),
    scope: member ? 'thread' : 'team',
    team,
    ...(member ? { member } : {}),
    messages: input.messages.map((m) => messageJson(m, t.era)),
  };
}

// -------------------------------------------------------------------------------------- file

/** A file-name-safe piece of a name: letters, digits, ".", "_" and "-". */
function fileSafe(s: string): string {
  return (
    s
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .replace(/[^A-Za-z0-9._-]+/g, '-')
      .replace(/\.{2,}/g, '.')
      .replace(/^[-.]+|[-.]+$/g, '')
      .slice(0, 60) || 'x'
  );
}

export function exportFilename(input: Pick<ExportInput, 'team' | 'member' | 'exportedAt' | 'timeZone'>, format: ExportFormat): string {
  const stamp = localTime(input.exportedAt, input.timeZone)?.stamp ?? 'undated';
  const who = input.member ? fileSafe(input.member.name) : 'team';
  return `teamdeck-${fileSafe(input.team.id)}-${who}-${stamp}.${format}`;
}

/** The export as a file to save: its name, type and text. */
export function buildExport(input: ExportInput, format: ExportFormat): ExportFile {
  const text = format === 'json' ? JSON.stringify(exportDocument(input), null, 2) + '\n' : exportMarkdown(input);
  return {
    filename: exportFilename(input, format),
    mime: format === 'json' ? 'application/json' : 'text/markdown; charset=utf-8',
    text,
    count: input.messages.length,
  };
}
