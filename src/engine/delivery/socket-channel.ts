// The socket channel: a journaled message to a lead through Claude's per-session messaging
// socket (docs/claude-contract.md#socket), for leads Teamdeck did not launch. The model reads it as "another Claude
// session". Teamdeck's own socket sits in the lead's socket directory (the only place Claude
// sends receipts to), and what comes back there is routed to the team whose lead sent it: a
// SendMessage reply becomes the lead's answer in its thread, a `held` status a needs-you item
// (the lead's user must approve it in its terminal), an idle notice a prompt to read receipts.
//
// Teamdeck asserts `from-mode="prompting"`, which it is: a lead in bypass mode then holds the
// message for its user, as Claude intends (Teamdeck never claims bypass to skip that check).
// Once: an `attempt` is journaled before the bytes go; after a crash the lead's transcript is
// looked at for a peer row with the message's id before it is sent again.
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { NeedItem } from '../../shared/types.js';
import { AdmissionError } from '../claude/inbox-writer.js';
import {
  openPeerEndpoint,
  PeerSendError,
  readLeadPeer,
  readPeerKey,
  sendPeerMessage,
  socketPathOf,
  type PeerControlLine,
  type PeerEndpoint,
  type PeerUserLine,
} from '../claude/peer-socket.js';
import type { MemberInfo } from '../../shared/types.js';
import type { LeadSession } from '../claude/sessions.js';
import type { Team } from '../team/team.js';
import { neverReadable } from './inbox-channel.js';
import type { SentState } from '../journal/journal.js';
import { UndeliverableError } from './outbox.js';

export interface SocketChannelContext {
  configDir: string;
  now(): number;
  senderName(): string;
  teams(): Iterable<Team>;
  /** What the team's lead's sessions file said last (its messaging socket's path). */
  sessionOf(rt: Team): LeadSession | undefined;
  /** A member's message arrived on Teamdeck's socket: journal it as its answer. */
  onReply(rt: Team, line: PeerUserLine, replyTo: string[]): void;
  /** A hold, a release or a refusal changed: the needs-you queue and the thread change with it. */
  onStatus(rt: Team, id: string): void;
  /** The lead's turn ended (an idle notice): its transcript has the receipts. */
  onIdle(rt: Team): void;
  log?: (line: string) => void;
}

export interface PeerNote {
  status: 'held' | 'delivered' | 'denied' | 'expired' | 'refused' | 'dropped';
  reason: string;
  at: number;
}

/** Claude's own words are kept; these are for a status that came without any. */
const STATUS_WORDS: Record<PeerNote['status'], string> = {
  held: "Claude holds it until the lead's user approves it in the lead's terminal",
  delivered: "the lead's user released it to the lead",
  denied: "the lead's user declined it; it did not reach the lead",
  expired: 'Claude dropped it unanswered (the hold expired)',
  refused: "the lead's session refuses messages from other sessions",
  dropped: "Claude dropped it before it reached the lead",
};

export class SocketChannel {
  private endpoints = new Map<string, Promise<PeerEndpoint>>();
  /** Per team, what Claude said on its socket about the messages sent that way (not journaled). */
  private readonly notes = new WeakMap<Team, Map<string, PeerNote>>();
  private closed = false;

  constructor(private readonly ctx: SocketChannelContext) {}

  private get sessionsDir(): string {
    return join(this.ctx.configDir, 'sessions');
  }

  /** Whether `member` can be reached through a messaging socket now, or why not. */
  availability(rt: Team, member: MemberInfo): { available: boolean; reason?: string } {
    if (!member.isLead) return { available: false, reason: `${member.name} runs inside the lead's process and has no messaging socket of its own` };
    if (!this.ctx.sessionOf(rt)?.messagingSocketPath) return { available: false, reason: "the lead's sessions file names no messaging socket" };
    return { available: true };
  }

  /** Sends one message (the outbox hands this channel one at a time). */
  async admit(rt: Team, s: SentState, attempt: () => Promise<void>): Promise<{ duplicate: boolean }> {
    const never = neverReadable(rt, s.to);
    if (never) throw new UndeliverableError(never);
    if (s.to !== rt.lead?.name) throw new UndeliverableError(`${s.to} has no messaging socket Teamdeck knows (only the lead's is in its sessions file)`);
    const pid = rt.config?.leadProcess?.pid;
    if (pid === undefined) throw new AdmissionError("the team's config.json names no lead process yet", true, 'ENOPID');
    const peer = await readLeadPeer(this.sessionsDir, pid);
    if (peer.kind !== 'ok') throw new AdmissionError(peer.kind === 'missing' ? `the lead's sessions file (${pid}.json) is not there` : `the lead's sessions file ${peer.reason}`, true, 'ENOSESSION');
    if (s.attemptedAt !== undefined && (await this.inTranscript(rt, s))) return { duplicate: true };
    const endpoint = await this.endpointFor(dirname(peer.peer.socketPath));
    const key = await readPeerKey(this.sessionsDir, pid, peer.peer.socketPath);
    await attempt();
    try {
      await sendPeerMessage({
        socketPath: peer.peer.socketPath,
        ...(key.kind === 'ok' ? { token: key.peerToken } : {}),
        from: endpoint.address,
        msgId: s.id,
        text: s.text,
        fromName: this.ctx.senderName(),
        fromMode: 'prompting',
        notifyWhenIdle: true,
      });
    } catch (e) {
      if (e instanceof PeerSendError) throw new AdmissionError(e.message, true, `EPEER_${e.code}`);
      throw e;
    }
    return { duplicate: false };
  }

  /** After a crash: the lead's transcript has a peer row with this message's id (docs/claude-contract.md#transcripts). */
  private async inTranscript(rt: Team, s: SentState): Promise<boolean> {
    const path = (await rt.transcripts?.find(rt.lead?.name ?? 'team-lead'))?.get(s.to);
    if (!path) return false;
    try {
      const text = await readFile(path, 'utf8');
      return text.includes(`"msg_id":"${s.id}"`);
    } catch {
      return false;
    }
  }

  private endpointFor(dir: string): Promise<PeerEndpoint> {
    let e = this.endpoints.get(dir);
    if (!e) {
      if (this.closed) return Promise.reject(new AdmissionError('the engine is stopping', true, 'ESTOPPING'));
      e = openPeerEndpoint({
        dir,
        onMessage: (line) => this.onMessage(line),
        onControl: (line) => this.onControl(line),
        ...(this.ctx.log ? { log: this.ctx.log } : {}),
      });
      // A failure is not remembered: the next send tries again.
      e.catch(() => this.endpoints.delete(dir));
      this.endpoints.set(dir, e);
    }
    return e;
  }

  /** The team whose lead's socket is this address. */
  private teamOf(address: string | undefined): Team | undefined {
    const path = address ? socketPathOf(address) : undefined;
    if (!path) return undefined;
    for (const rt of this.ctx.teams()) if (this.ctx.sessionOf(rt)?.messagingSocketPath === path) return rt;
    return undefined;
  }

  private onMessage(line: PeerUserLine): void {
    // Only a lead Teamdeck knows: the sender's address is what it claims (see docs/reliability.md#security).
    const rt = this.teamOf(line.from ?? line.envelope?.from);
    if (!rt?.lead) return;
    const lead = rt.lead.name;
    const replyTo = [...rt.history.sent.values()].filter((s) => s.channel === 'socket' && s.to === lead && s.deliveredAt !== undefined && !rt.facts.isReplied(s.id)).map((s) => s.id);
    this.ctx.onReply(rt, line, replyTo);
  }

  private onControl(line: PeerControlLine): void {
    if (line.action === 'peer_idle_notice') {
      const rt = this.teamOf(line.from);
      if (rt) this.ctx.onIdle(rt);
      return;
    }
    const id = line.origMsgId;
    if (!id) return;
    for (const rt of this.ctx.teams()) {
      const s = rt.history.sent.get(id);
      if (!s || s.channel !== 'socket') continue;
      let notes = this.notes.get(rt);
      if (!notes) this.notes.set(rt, (notes = new Map()));
      notes.set(id, { status: line.status, reason: line.reason ?? STATUS_WORDS[line.status], at: this.ctx.now() });
      this.ctx.onStatus(rt, id);
      return;
    }
  }

  /** What Claude last said on its socket about this message, if anything. */
  noteOf(rt: Team, id: string): PeerNote | undefined {
    return this.notes.get(rt)?.get(id);
  }

  /** Messages Claude holds for its user's approval, for the needs-you queue. */
  heldNeeds(): NeedItem[] {
    const out: NeedItem[] = [];
    for (const rt of this.ctx.teams()) {
      for (const [id, n] of this.notes.get(rt) ?? []) {
        const to = rt.history.sent.get(id)?.to;
        if (n.status !== 'held' || !to || rt.ended) continue;
        out.push({
          id: `held:${rt.id}:${id}`,
          kind: 'held',
          team: rt.id,
          member: to,
          title: `Claude holds your message to ${to} until its user approves it`,
          detail: n.reason,
          since: n.at,
          messageId: id,
        });
      }
    }
    return out;
  }

  async close(): Promise<void> {
    this.closed = true;
    const all = [...this.endpoints.values()];
    this.endpoints.clear();
    // At stop: an endpoint that never opened has nothing to close (its send was told why), and
    // a socket file a close leaves behind is cleared by the next open.
    for (const e of all) await (await e.catch(() => undefined))?.close().catch(() => {});
  }
}
