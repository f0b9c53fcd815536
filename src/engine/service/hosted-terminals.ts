// The lead terminals this engine hosts, joined to the teams their leads made: which team a
// terminal belongs to (its lead's pid is the team's config.leadProcess.pid), the channels a
// member can be reached by, in words, and the terminal calls of the contract. The terminals
// themselves (tmux or a pty) are in terminal/; this module never knows which.
import type { AppEvent } from '../../shared/contract.js';
import type { ChannelKind, ChannelOption, LaunchRequest, MemberInfo, NeedItem, TeamSummary, TerminalInfo } from '../../shared/types.js';
import type { TerminalChannelContext } from '../delivery/terminal-channel.js';
import type { Team } from '../team/team.js';
import { TerminalError, type TerminalAvailability, type TerminalHost, type TerminalHostOptions } from '../terminals/types.js';

export interface HostedTerminalsOptions {
  /** Creates the host (tmux or pty); absent when this engine hosts no terminals. */
  create?: (opts: Pick<TerminalHostOptions, 'emit' | 'now'>) => TerminalHost;
  now: () => number;
  /** Where the teams' folders are: a teammate's inbox shows a typed `@name` message before its transcript does. */
  teamsRoot?: string;
  emit: (e: AppEvent) => void;
  teams: () => Iterable<Team>;
  /** Called when a terminal's state changed: its team's typed messages may go now. */
  kick: (team: string) => void;
  /** Whether a member can be reached through its messaging socket now, or why not. */
  socket?: (rt: Team, member: MemberInfo) => { available: boolean; reason?: string };
  /** The lead's sessions file read now: no typing while it shows a dialog. */
  readSession: TerminalChannelContext['readSession'];
}

const NOT_HOSTED: TerminalAvailability = { available: false, reason: 'this Teamdeck process does not host terminals' };

export class HostedTerminals {
  readonly host: TerminalHost | undefined;

  constructor(private readonly opts: HostedTerminalsOptions) {
    this.host = opts.create?.({
      now: opts.now,
      emit: (e) => {
        if (e.type === 'output') opts.emit({ type: 'terminal-output', id: e.id, data: e.data });
        else this.changed();
      },
    });
  }

  async start(): Promise<void> {
    await this.host?.start();
    this.match();
  }

  async stop(): Promise<void> {
    await this.host?.stop();
  }

  availability(): TerminalAvailability {
    return this.host?.availability() ?? NOT_HOSTED;
  }

  async launchAvailability(): Promise<TerminalAvailability> {
    return (await this.host?.launchAvailability()) ?? NOT_HOSTED;
  }

  list(): TerminalInfo[] {
    return this.host?.list() ?? [];
  }

  private changed(): void {
    this.match();
    this.opts.emit({ type: 'terminals', terminals: this.list() });
    for (const t of this.list()) if (t.team) this.opts.kick(t.team);
  }

  /** Gives each running terminal without a team the team whose lead runs in it. */
  match(): boolean {
    if (!this.host) return false;
    let assigned = false;
    for (const t of this.host.list()) {
      if (t.team || t.pid === undefined || t.state === 'exited') continue;
      for (const rt of this.opts.teams()) {
        if (!rt.ended && rt.config?.leadProcess?.pid === t.pid) {
          this.host.assignTeam(t.id, rt.id);
          assigned = true;
          break;
        }
      }
    }
    return assigned;
  }

  /** The terminal whose lead made this team (the latest, if a team id was ever reused). */
  terminalOf(team: string): TerminalInfo | undefined {
    return this.list()
      .filter((t) => t.team === team)
      .sort((a, b) => b.startedAt - a.startedAt)[0];
  }

  /** Summaries with the terminal each team's lead runs in. */
  decorate(teams: TeamSummary[]): TeamSummary[] {
    if (!this.host) return teams;
    if (this.match()) queueMicrotask(() => this.opts.emit({ type: 'terminals', terminals: this.list() }));
    return teams.map((s) => {
      const t = this.terminalOf(s.id);
      return t ? { ...s, terminal: t.id } : s;
    });
  }

  /** Permission prompts of a hosted lead open its terminal: answering there clears them. */
  decorateNeeds(needs: NeedItem[]): NeedItem[] {
    if (!this.host) return needs;
    return needs.map((n) => {
      if (n.kind !== 'permission') return n;
      const t = this.terminalOf(n.team);
      return t && t.state === 'running' ? { ...n, terminal: t.id } : n;
    });
  }

  channelContext(): TerminalChannelContext | undefined {
    const host = this.host;
    if (!host) return undefined;
    return {
      terminals: host,
      terminalOf: (rt) => this.terminalOf(rt.id),
      now: this.opts.now,
      readSession: this.opts.readSession,
      ...(this.opts.teamsRoot ? { teamsRoot: this.opts.teamsRoot } : {}),
    };
  }

  /** The ways a message can reach `member` now, in words; the preferred one is marked. */
  channels(rt: Team, member: MemberInfo, sendAs: string, leadReads: boolean): ChannelOption[] {
    const isLead = member.isLead === true;
    const out: ChannelOption[] = [];
    if (rt.era === 'current') {
      const t = this.terminalOf(rt.id);
      const label = isLead ? "as you, typed into the lead's terminal" : `as you, typed as @${member.name} into the lead's terminal`;
      const reason = rt.ended
        ? 'the team has ended'
        : !t
          ? "Teamdeck did not launch this team's lead, so it cannot type into its terminal"
          : t.state === 'exited'
            ? "the lead's terminal has exited"
            : undefined;
      out.push({ kind: 'terminal', label, available: reason === undefined, ...(reason ? { reason } : {}) });
    }
    const inboxReason = rt.ended ? 'the team has ended' : undefined;
    const inboxLabel = rt.era === 'current' ? `as ${sendAs}, a teammate message` : 'as user, into its inbox';
    const waits = isLead && !leadReads ? 'waits until the lead spawns a teammate (only then does it read its inbox)' : undefined;
    out.push({ kind: 'inbox', label: inboxLabel, available: inboxReason === undefined, ...(inboxReason ? { reason: inboxReason } : waits ? { reason: waits } : {}) });
    if (rt.era === 'current') {
      const s = this.opts.socket?.(rt, member) ?? { available: false, reason: 'the messaging socket is not supported by this Teamdeck' };
      out.push({ kind: 'socket', label: 'as another session, through its messaging socket', available: s.available && !rt.ended, ...(s.reason ? { reason: s.reason } : {}) });
    }
    const pick = (k: ChannelKind) => out.find((c) => c.kind === k && c.available);
    const preferred = pick('terminal') ?? (waits ? (pick('socket') ?? pick('inbox')) : pick('inbox')) ?? pick('socket');
    if (preferred) preferred.preferred = true;
    return out;
  }

  launch(req: LaunchRequest): Promise<TerminalInfo> {
    return this.need().launch(req);
  }

  attach(id: string, cols: number, rows: number): Promise<{ screen: string }> {
    return this.need().attach(id, cols, rows);
  }

  input(id: string, data: string): void {
    this.need().input(id, data);
  }

  resize(id: string, cols: number, rows: number): void {
    this.need().resize(id, cols, rows);
  }

  detach(id: string): void {
    this.need().detach(id);
  }

  close(id: string): Promise<void> {
    return this.need().close(id);
  }

  private need(): TerminalHost {
    if (!this.host) throw new TerminalError(NOT_HOSTED.reason!, 'unavailable');
    return this.host;
  }
}
