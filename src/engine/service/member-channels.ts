// The ways a send can reach a member, and which one it takes: typed into the lead's terminal
// when this engine hosts it, through Claude's messaging socket, or into the member's inbox. It
// owns the two channels that live in this process (the hosted terminals and the sockets) and
// what they add to the views (a team's terminal, the messages Claude holds). Apart from the
// facade because the choice depends on all of them at once; the options in words are
// hosted-terminals.ts, the delivery through each channel delivery/.
import type { AppEvent } from '../../shared/contract.js';
import type { ChannelKind, ChannelOption, MemberInfo, NeedItem, TeamSummary } from '../../shared/types.js';
import { leadReadsInbox, senderFor } from '../claude/era.js';
import type { PeerUserLine } from '../claude/peer-socket.js';
import type { LeadSession } from '../claude/sessions.js';
import { SocketChannel } from '../delivery/socket-channel.js';
import { HostedTerminals } from './hosted-terminals.js';
import { SendRefusedError, type TeamServiceOptions } from './service-types.js';
import type { Team } from '../team/team.js';

export interface MemberChannelsContext {
  configDir: string;
  teamsRoot: string;
  now: () => number;
  /** Creates the host of the lead terminals (absent: this engine hosts none). */
  terminalHost: TeamServiceOptions['terminalHost'];
  senderName: () => string;
  teams: () => Iterable<Team>;
  emit: (e: AppEvent) => void;
  /** A member's message arrived on Teamdeck's socket: it is journaled as its answer. */
  onReply: (rt: Team, line: PeerUserLine, replyTo: string[]) => void;
  /** Claude said something new on its socket about a message sent that way: its thread line changes. */
  onStatus: (rt: Team, id: string) => void;
  /** A lead's turn ended (an idle notice on its socket): its transcript has the receipts. */
  onIdle: () => void;
  /** A terminal's state changed: its team's typed messages may go now. */
  kick: (team: string) => void;
  /** What the lead's sessions file said last (the live views follow it). */
  sessionOf: (rt: Team) => LeadSession | undefined;
  /** The lead's sessions file read now (before typing into the lead's terminal). */
  readSession: (rt: Team, pid: number) => Promise<LeadSession | undefined>;
}

export class MemberChannels {
  /** The lead terminals this engine hosts, and the channels they open. */
  readonly hosted: HostedTerminals;
  /** Claude's messaging sockets: Teamdeck's own beside each lead's, for leads it did not launch. */
  readonly sockets: SocketChannel;

  constructor(private readonly ctx: MemberChannelsContext) {
    this.sockets = new SocketChannel({
      configDir: ctx.configDir,
      now: ctx.now,
      senderName: ctx.senderName,
      teams: ctx.teams,
      sessionOf: ctx.sessionOf,
      onReply: ctx.onReply,
      onStatus: ctx.onStatus,
      onIdle: () => ctx.onIdle(),
    });
    this.hosted = new HostedTerminals({
      socket: (rt, member) => this.sockets.availability(rt, member),
      create: ctx.terminalHost,
      now: ctx.now,
      teamsRoot: ctx.teamsRoot,
      emit: ctx.emit,
      teams: ctx.teams,
      kick: ctx.kick,
      readSession: ctx.readSession,
    });
  }

  /** Before any team is opened: its recovered typed messages need to know their terminal. */
  async start(): Promise<void> {
    await this.hosted.start();
  }

  async stop(): Promise<void> {
    // The engine stops whatever one part says: the journals must still be closed and the lock let go.
    for (const part of [() => this.hosted.stop(), () => this.sockets.close()]) await part().catch(() => {});
  }

  /** The ways a message can reach `member` now, in words; the preferred one is marked. */
  options(rt: Team, member: MemberInfo): ChannelOption[] {
    return this.hosted.channels(rt, member, senderFor(rt.era, this.ctx.senderName()), leadReadsInbox(rt.era, rt.config, rt.lead?.name));
  }

  /** The channel a send takes, and who it is from there. */
  choose(rt: Team, member: MemberInfo, asked: ChannelKind | undefined): { channel: ChannelKind; from: string } {
    const channel = this.channelFor(rt, member, asked);
    // Typed into the terminal, the message is the user's own (Claude writes `from:"user"` for `@name`).
    return { channel, from: channel === 'terminal' ? 'user' : senderFor(rt.era, this.ctx.senderName()) };
  }

  /** The asked channel if it can be used now (else a refusal in words), or the member's preferred one. */
  private channelFor(rt: Team, member: MemberInfo, asked: ChannelKind | undefined): ChannelKind {
    if (asked === 'inbox') return 'inbox';
    if (asked === undefined) return this.options(rt, member).find((c) => c.preferred)?.kind ?? 'inbox';
    const option = this.options(rt, member).find((c) => c.kind === asked);
    if (!option?.available) throw new SendRefusedError(`cannot send ${option?.label ?? `through the ${asked} channel`}: ${option?.reason ?? 'not available'}`);
    return asked;
  }

  /** Summaries with the terminal each team's lead runs in. */
  decorate(teams: TeamSummary[]): TeamSummary[] {
    return this.hosted.decorate(teams);
  }

  /** The needs from Claude's files, with the messages Claude holds, newest first; prompts open their terminal. */
  needs(needs: NeedItem[]): NeedItem[] {
    return this.hosted.decorateNeeds([...needs, ...this.sockets.heldNeeds()].sort((a, b) => b.since - a.since));
  }
}
