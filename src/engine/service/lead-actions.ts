// What the user does to a team from Teamdeck through its lead's terminal: answer a permission
// prompt, stop the lead's turn, answer a teammate's plan. The terminal is the one this engine
// hosts, else the user's own tmux pane the lead runs in (terminals/lead-pane.ts). Every action
// that pressed a key is journaled (journal/actions-log.ts) before the call returns, shown in
// the team's feed, and joined to the member's activity ("stopped by you").
import { randomUUID } from 'node:crypto';
import type { AppEvent } from '../../shared/contract.js';
import { answerRequestSchema, argsSchema, describeArgsError, planAnswerRequestSchema } from '../../shared/contract-schema.js';
import type { ActionVia, AnswerRequest, LeadAction, MemberActivity, NeedItem, PlanAnswerRequest, ThreadMessage } from '../../shared/types.js';
import { inputBox, inputText, notLeadsBox, plainTurn } from '../claude/lead-screen.js';
import { parseDialog } from '../claude/permission-dialog.js';
import type { LeadSession } from '../claude/sessions.js';
import { answerDialog, interruptLead, LeadKeysError, type KeySent } from '../delivery/lead-keys.js';
import { TeamdeckError } from '../errors.js';
import { appendAction, readActions } from '../journal/actions-log.js';
import { hostedPane, userTmuxPane, type LeadPane } from '../terminals/lead-pane.js';
import { findTmux } from '../terminals/tmux-client.js';
import type { Team } from '../team/team.js';
import type { HostedTerminals } from './hosted-terminals.js';
import { SettingsStore } from './settings.js';

export interface LeadActionsContext {
  stateDir: string;
  now: () => number;
  resolve: (team: string) => Promise<Team>;
  team: (id: string) => Team | undefined;
  teams: () => Iterable<Team>;
  /** The needs as they are now (sessions read again by a one-shot engine). */
  needs: () => Promise<NeedItem[]>;
  hosted: HostedTerminals;
  sessionOf: (rt: Team) => LeadSession | undefined;
  emit: (e: AppEvent) => void;
  /** Something the user did changed what a member shows: its activity and the needs are judged again. */
  changed: (rt: Team) => void;
}

/**
 * Claude Code 2.1.332's lead terminal has no key that stops one in-process teammate's turn: Esc
 * stops only the lead's own turn (a teammate's running Bash went on, also in the teammate's
 * view), and the agents panel's "x to stop" ends the teammate altogether: it leaves the team
 * (docs/claude-contract.md#interrupts). Neither is a Stop.
 */
export const TEAMMATE_STOP_REASON =
  "Claude's lead terminal offers no safe way to stop one teammate's turn: Esc stops only the lead's own, and the agents panel's \"x to stop\" removes the teammate from the team; ask the lead, or message the teammate";

/** How long a "… by you" stays on a member's activity after the state it led to began. */
const BY_YOU_SLACK_MS = 5_000;

const VIA_WORDS: Record<ActionVia, string> = { window: "Teamdeck's window", browser: 'the browser', cli: 'the teamdeck command' };

export class LeadActions {
  private readonly recent = new Map<string, LeadAction[]>();
  private readonly loaded = new Map<string, Promise<void>>();
  private tmuxBin: Promise<string | undefined> | undefined;
  private enabled = true;
  private settingsReadAt = 0;
  /** Per lead pid: whether its pane could be found (for the needs' "answer here" buttons). */
  private readonly reach = new Map<number, { at: number; reason?: string }>();
  private readonly busy = new Set<string>();

  constructor(private readonly ctx: LeadActionsContext) {}

  private async answering(): Promise<boolean> {
    const store = await SettingsStore.open(this.ctx.stateDir);
    this.enabled = store.get().answerFromTeamdeck;
    this.settingsReadAt = this.ctx.now();
    return this.enabled;
  }

  /**
   * The lead's pid as its own sessions file gives it (the file of the team's lead session): never
   * config.leadProcess alone, which any process can write, so keys only go where Claude's lead runs.
   */
  private leadPid(rt: Team): number | undefined {
    return this.ctx.sessionOf(rt)?.pid;
  }

  /** The lead's terminal as a pane to read and press keys in, or why there is none. */
  private async paneOf(rt: Team): Promise<LeadPane | string> {
    const t = this.ctx.hosted.terminalOf(rt.id);
    const host = this.ctx.hosted.host;
    if (t && host && t.state === 'running') return hostedPane(host, t.id);
    const pid = this.leadPid(rt);
    if (!pid) return `Teamdeck does not see team ${rt.id}'s lead running (no sessions file of its session)`;
    this.tmuxBin ??= findTmux(process.env).then((f) => f?.bin);
    const pane = await userTmuxPane(pid, await this.tmuxBin);
    this.reach.set(pid, { at: this.ctx.now(), ...(typeof pane === 'string' ? { reason: pane } : {}) });
    return pane;
  }

  /** One action at a time per team: two answers must never interleave their keys. */
  private async exclusive<T>(team: string, job: () => Promise<T>): Promise<T> {
    if (this.busy.has(team)) throw new TeamdeckError('refused', `Teamdeck is already pressing keys in team ${team}'s lead terminal; try again in a moment`);
    this.busy.add(team);
    try {
      return await job();
    } finally {
      this.busy.delete(team);
    }
  }

  private async guard(): Promise<void> {
    if (!(await this.answering())) throw new TeamdeckError('refused', 'answering from Teamdeck is turned off in Settings ("Answer prompts from Teamdeck")');
  }

  /** Answers a permission prompt of the needs-you queue; refuses, typing nothing, unless the screen shows exactly it. */
  async answer(req: AnswerRequest, via: ActionVia): Promise<LeadAction> {
    checked('answer', answerRequestSchema, req);
    await this.guard();
    const need = (await this.ctx.needs()).find((n) => n.id === req.need);
    if (!need) throw new TeamdeckError('refused', `no permission prompt ${JSON.stringify(req.need)} is waiting (it was answered already, or the id is not one from \`teamdeck needs\`)`);
    if (need.kind !== 'permission' || !need.member) throw new TeamdeckError('refused', `${req.need} is not a permission prompt`);
    const rt = await this.ctx.resolve(need.team);
    const member = need.member;
    return this.exclusive(rt.id, async () => {
      const pane = await this.paneOf(rt);
      if (typeof pane === 'string') throw new TeamdeckError('refused', `${pane}; answer it in the lead's terminal`);
      const ask = { member, lead: rt.lead?.name ?? 'team-lead', ...(need.ask ? { tool: need.ask.tool, ...(need.ask.subject !== undefined ? { subject: need.ask.subject } : {}) } : {}) };
      const done = await this.journaled(rt, member, 'answer', pane, via, async () => {
        const out = await answerDialog(pane, ask, req.choice, req.reason, { now: this.ctx.now });
        const words = req.choice === 'allow' ? 'allowed' : req.choice === 'allow-always' ? 'allowed (always)' : 'denied';
        const subject = out.prompt?.body ? `: ${out.prompt.body.replace(/\s+/g, ' ').slice(0, 200)}` : '';
        return { ...out, what: `${words} ${member}'s ${out.prompt?.header ?? 'prompt'}${subject}${req.reason ? ` (reason: ${req.reason.replace(/\s+/g, ' ').slice(0, 200)})` : ''}` };
      });
      if (!done.confirmed) throw new TeamdeckError('unavailable', `the keys were pressed, but the dialog did not close within 2 s: look at the lead's terminal (${pane.where})`);
      return done;
    });
  }

  /** Stops a member's turn: Esc in the lead's terminal for the lead; refused, saying why, for a teammate. */
  async interrupt(team: string, member: string, via: ActionVia): Promise<LeadAction> {
    checked('interrupt', argsSchema(['team', 'member']), [team, member]);
    await this.guard();
    const rt = await this.ctx.resolve(team);
    const m = rt.members.find((x) => x.name === member);
    if (!m) throw new TeamdeckError('not_found', `team ${rt.id} has no member ${JSON.stringify(member)}`);
    const lead = rt.lead?.name ?? 'team-lead';
    if (m.name !== lead) throw new TeamdeckError('refused', TEAMMATE_STOP_REASON);
    return this.exclusive(rt.id, async () => {
      const pane = await this.paneOf(rt);
      if (typeof pane === 'string') throw new TeamdeckError('refused', `${pane}; press Esc in the lead's terminal`);
      const done = await this.journaled(rt, lead, 'interrupt', pane, via, async () => ({ ...(await interruptLead(pane, { now: this.ctx.now })), what: 'stopped' }));
      if (!done.confirmed) throw new TeamdeckError('unavailable', `Esc was pressed, but the lead's terminal still shows its turn running after 2 s (${pane.where})`);
      return done;
    });
  }

  /**
   * Answers a teammate's plan through the lead, as the user: a typed turn asking the lead to send
   * its answer (the teammate waits for the lead's `plan_approval_response`, which only the lead
   * may write: docs/claude-contract.md#frames).
   */
  async answerPlan(req: PlanAnswerRequest, via: ActionVia): Promise<LeadAction> {
    checked('answerPlan', planAnswerRequestSchema, req);
    await this.guard();
    const need = (await this.ctx.needs()).find((n) => n.id === req.need);
    if (!need || need.kind !== 'plan-approval' || !need.member) throw new TeamdeckError('refused', `no plan ${JSON.stringify(req.need)} is waiting for approval`);
    const rt = await this.ctx.resolve(need.team);
    const member = need.member;
    const requestId = need.id.split(':').slice(2).join(':');
    const feedback = req.feedback?.replace(/\s+/g, ' ').trim();
    const line = plainTurn(
      req.approve
        ? `I approve ${member}'s plan (request ${requestId}). Send ${member} the plan approval (approve: true) now.${feedback ? ` My notes for ${member}: ${feedback}` : ''}`
        : `I reject ${member}'s plan (request ${requestId}). Send ${member} the plan rejection (approve: false) with this feedback: ${feedback || 'please revise the plan'}`,
    );
    return this.exclusive(rt.id, async () => {
      const pane = await this.paneOf(rt);
      if (typeof pane === 'string') throw new TeamdeckError('refused', `${pane}; answer the plan in the lead's terminal`);
      const done = await this.journaled(rt, member, 'plan', pane, via, async () => ({ ...(await typeTurn(pane, line, this.ctx.now)), what: `${req.approve ? 'approved' : 'rejected'} ${member}'s plan${feedback ? ` (${feedback.slice(0, 200)})` : ''}` }));
      if (!done.confirmed) throw new TeamdeckError('unavailable', `the answer was typed, but the lead's input box did not take it within 3 s (${pane.where})`);
      return done;
    });
  }

  /** Runs the keys, and journals what was pressed, whether it ended well or not. */
  private async journaled(rt: Team, member: string, kind: LeadAction['kind'], pane: LeadPane, via: ActionVia, run: () => Promise<{ keys: KeySent[]; confirmed: boolean; what: string }>): Promise<LeadAction> {
    let out: { keys: KeySent[]; confirmed: boolean; what: string };
    try {
      out = await run();
    } catch (e) {
      const keys = e instanceof LeadKeysError ? e.keys : [];
      if (keys.length > 0) await this.record(rt, { id: randomUUID(), team: rt.id, member, kind, what: `pressed keys, then stopped: ${(e as Error).message}`, at: this.ctx.now(), via, where: pane.where, keys, confirmed: false });
      throw e;
    }
    const action: LeadAction = { id: randomUUID(), team: rt.id, member, kind, what: out.what, at: this.ctx.now(), via, where: pane.where, keys: out.keys, confirmed: out.confirmed };
    await this.record(rt, action);
    return action;
  }

  private async record(rt: Team, action: LeadAction): Promise<void> {
    await appendAction(rt.history.dir, action);
    await this.load(rt);
    const list = this.recent.get(rt.id) ?? [];
    list.push(action);
    if (list.length > 500) list.shift();
    this.recent.set(rt.id, list);
    this.ctx.emit({ type: 'message', team: rt.id, message: actionMessage(action) });
    this.ctx.changed(rt);
  }

  private load(rt: Team): Promise<void> {
    let p = this.loaded.get(rt.id);
    if (!p) {
      p = readActions(rt.history.dir).then((list) => {
        this.recent.set(rt.id, [...list, ...(this.recent.get(rt.id) ?? [])]);
      });
      this.loaded.set(rt.id, p);
    }
    return p;
  }

  /** Once the team's journaled actions are read (a one-shot command's activity shows them too). */
  ready(rt: Team): Promise<void> {
    return this.load(rt);
  }

  /** The team's actions as feed lines, oldest first. */
  async feedOf(rt: Team): Promise<ThreadMessage[]> {
    await this.load(rt);
    return (this.recent.get(rt.id) ?? []).map(actionMessage);
  }

  /** The member's activity with what the user did last ("stopped by you") and whether Stop reaches it. */
  decorateActivity(rt: Team, activity: MemberActivity[]): MemberActivity[] {
    void this.load(rt);
    const lead = rt.lead?.name ?? 'team-lead';
    const actions = this.recent.get(rt.id) ?? [];
    return activity.map((a) => {
      const last = actions.findLast((x) => x.member === a.member);
      const out: MemberActivity = { ...a };
      if (last && last.confirmed && last.at >= (a.since ?? 0) - BY_YOU_SLACK_MS) out.byYou = { what: `${last.kind === 'interrupt' ? 'stopped' : last.what.split(' ')[0]} by you`, at: last.at };
      if (a.kind === 'working') out.stop = a.member === lead ? this.stopReach(rt) : { available: false, reason: TEAMMATE_STOP_REASON };
      return out;
    });
  }

  private stopReach(rt: Team): { available: boolean; reason?: string } {
    if (!this.enabled) return { available: false, reason: 'answering from Teamdeck is turned off in Settings' };
    const t = this.ctx.hosted.terminalOf(rt.id);
    if (t?.state === 'running' && this.ctx.hosted.host) return { available: true };
    const pid = this.leadPid(rt);
    const known = pid === undefined ? undefined : this.reach.get(pid);
    if (pid !== undefined && (!known || this.ctx.now() - known.at > 30_000)) void this.probe(rt);
    if (!known) return { available: false, reason: pid === undefined ? "Teamdeck does not know the lead's process" : "looking for the lead's terminal" };
    return known.reason ? { available: false, reason: known.reason } : { available: true };
  }

  private readonly probing = new Map<number, Promise<void>>();

  /** Finds the lead's pane in the background; the needs and activity are judged again with it. */
  private probe(rt: Team): Promise<void> {
    const pid = this.leadPid(rt);
    if (pid === undefined) return Promise.resolve();
    let p = this.probing.get(pid);
    if (!p) {
      const before = JSON.stringify(this.reach.get(pid) ? (this.reach.get(pid)!.reason ?? null) : 'unknown');
      p = this.paneOf(rt)
        .then(() => {
          if (JSON.stringify(this.reach.get(pid)?.reason ?? null) !== before) this.ctx.changed(rt);
        })
        // found again at the next look
        .catch(() => {})
        .finally(() => this.probing.delete(pid));
      this.probing.set(pid, p);
    }
    return p;
  }

  /** Looks for every waiting lead's terminal now (a one-shot command answers once, not after a probe). */
  async probeAll(): Promise<void> {
    await this.answering();
    await Promise.all([...this.ctx.teams()].filter((rt) => this.ctx.sessionOf(rt)?.status === 'waiting' && !this.ctx.hosted.terminalOf(rt.id)).map((rt) => this.probe(rt)));
  }

  /** Permission prompts say whether Teamdeck can answer them here, or why not. */
  decorateNeeds(needs: NeedItem[]): NeedItem[] {
    if (this.ctx.now() - this.settingsReadAt > 5_000) void this.answering().catch(() => {});
    return needs.map((n) => {
      if (n.kind !== 'permission' && n.kind !== 'plan-approval') return n;
      const rt = this.ctx.team(n.team);
      if (!rt) return n;
      const reach = this.stopReach(rt);
      return { ...n, answer: reach };
    });
  }
}

/** The contract's schema, applied on every path (the command in-process has no host to do it). */
function checked(what: string, schema: { safeParse(v: unknown): { success: true } | { success: false; error: Parameters<typeof describeArgsError>[1] } }, value: unknown): void {
  const r = schema.safeParse(value);
  if (!r.success) throw new TeamdeckError('invalid', describeArgsError(what, r.error, 1));
}

/** An action as a line of the team's feed (never HTML: the window renders it as text). */
export function actionMessage(a: LeadAction): ThreadMessage {
  return {
    id: `action:${a.id}`,
    team: a.team,
    from: 'you',
    to: a.member,
    text: `You ${a.what}, from ${VIA_WORDS[a.via]} (${a.keys.length} key${a.keys.length === 1 ? '' : 's'} in ${a.where})${a.confirmed ? '' : '; not confirmed on screen'}`,
    timestamp: new Date(a.at).toISOString(),
    time: a.at,
    read: true,
    action: a.kind,
  };
}

/** Why a turn typed now would not reach the lead (a teammate's view, the agents list), in words for the user. */
function offLeadsBox(screen: string): string | undefined {
  const off = notLeadsBox(screen);
  if (!off) return undefined;
  if (off.member !== undefined) return `the lead's terminal is showing ${off.member}'s view; switch back to the lead to answer (typed there, the answer would go to ${off.member})`;
  return `${off.why}; press Esc in it to return to the input box, then answer`;
}

/** Types a turn into the lead's empty input box and presses Enter; confirmed once the box is empty again. */
export async function typeTurn(pane: LeadPane, line: string, now: () => number): Promise<{ keys: KeySent[]; confirmed: boolean }> {
  const screen = await pane.screen();
  if (parseDialog(screen)) throw new LeadKeysError(`the lead's terminal shows a permission dialog; answer it first`);
  const off = offLeadsBox(screen);
  if (off) throw new LeadKeysError(off);
  const box = inputBox(screen);
  if (box === undefined) throw new LeadKeysError(`the lead's input box is not on screen (a dialog or a menu is open in its terminal)`);
  if (inputText(box) !== '') throw new LeadKeysError(`there is unsent text in the lead's input box`);
  const keys: KeySent[] = [{ key: `text:${line}`, at: now() }];
  await pane.text(line);
  const head = line.replace(/\s+/g, '').slice(0, 30);
  const end = now() + 3_000;
  const boxText = async () => {
    const b = inputBox(await pane.screen());
    return b === undefined ? '' : inputText(b).replace(/\s+/g, '');
  };
  while (!(await boxText()).includes(head)) {
    if (now() > end) throw new LeadKeysError(`the typed answer did not show in the lead's input box`, keys);
    await new Promise((r) => setTimeout(r, 50));
  }
  // The TUI takes keys that arrive together as a paste: Enter after it settles.
  await new Promise((r) => setTimeout(r, 250));
  // The user may have switched views meanwhile: Enter would then send it elsewhere.
  const moved = offLeadsBox(await pane.screen());
  if (moved) throw new LeadKeysError(`${moved}; the typed answer was not sent`, keys);
  keys.push({ key: 'Enter', at: now() });
  await pane.key('Enter');
  while (now() < end + 3_000) {
    if ((await boxText()) === '') return { keys, confirmed: true };
    await new Promise((r) => setTimeout(r, 50));
  }
  return { keys, confirmed: false };
}
