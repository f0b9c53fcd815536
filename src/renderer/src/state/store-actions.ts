// What the window's controls ask of the store: each action applies its reducer, loads what the
// screen then needs, or calls the host and applies (or returns in words) what it answered.
import type { ExportFile, ExportRequest, SearchRequest, SearchResult, Settings } from '../../../shared/contract';
import type { AnswerRequest, ChannelKind, DoctorReport, LaunchRequest, PlanAnswerRequest } from '../../../shared/types';
import { pickChannel } from '../lib/channels';
import * as compose from './compose-state';
import { applySettings, memberKey, type Draft, type MemberPane } from './deck-state';
import { applySnapshot } from './host-events';
import * as messages from './messages-state';
import { call, type StoreKit } from './store-kit';
import type { StoreLoads } from './store-loads';
import type { StoreLifecycle } from './store-start';
import { connectTerminal, type TerminalConnection, type TerminalConnectionOptions, type TerminalSink } from './terminal-connection';
import * as terminals from './terminal-state';
import * as view from './view-state';
import { showUsage } from './usage-state';
import type { BudgetRequest, ModelPrice, PriceInfo } from '../../../shared/usage-types';

export interface DeckActions {
  start(): Promise<void>;
  stop(): void;
  retryStart(): Promise<void>;
  openTeam(team: string): void;
  openMember(team: string, member: string): void;
  openFeed(on?: boolean): void;
  openTasks(on?: boolean): void;
  /** The Usage view: the open team's (scope `team`) or every team's per day (`all`). */
  openUsage(on?: boolean, scope?: 'team' | 'all'): void;
  /** Sets or clears a budget; resolves with the refusal in words, if any. */
  setBudget(req: BudgetRequest): Promise<string | undefined>;
  /** The price table (defaults and overrides), or why not in words. */
  loadPrices(): Promise<PriceInfo | string>;
  /** Replaces the price overrides; resolves with the refusal in words, if any. */
  savePrices(table: Record<string, ModelPrice>): Promise<string | undefined>;
  /** Thread or Activity beside the open member. */
  setPane(pane: MemberPane): void;
  /** Opens a member's thread with one message brought into view (from the needs queue). */
  openMessage(team: string, member: string, id: string): void;
  /** The team's feed with this message brought into view (teammates' traffic). */
  openFeedMessage(team: string, id: string): void;
  clearFocus(): void;
  retryActivity(team: string): void;
  retryTimeline(team: string, member: string): void;
  retryTasks(team: string): void;
  retryNeeds(): void;
  /** Loads a team's members without opening the team (the needs queue's "Send to…"). */
  loadRoster(team: string): void;
  setFeedFilter(team: string, member: string): void;
  retryThread(team: string, member: string): void;
  retryFeed(team: string): void;
  setDraft(team: string, member: string, patch: Partial<Draft>): void;
  send(team: string, member: string): Promise<boolean>;
  markViewed(team: string, member: string): void;
  startDemo(): Promise<string | undefined>;
  saveSettings(patch: Partial<Settings>): Promise<string | undefined>;
  openExternal(url: string): void;
  /** Shows a hosted terminal on its own (no team yet, or its team ended). */
  openTerminal(id: string): void;
  /** Opens a team's lead on its Terminal tab. */
  openTeamTerminal(team: string): void;
  /** The lead's Terminal tab chosen, or left for Thread or Activity; remembered per team. */
  setLeadTerminal(team: string, on: boolean): void;
  /** Starts a lead in a hosted terminal and shows it; resolves with the refusal in words, if any. */
  launchTeam(req: LaunchRequest): Promise<string | undefined>;
  /** Forgets an exited terminal; resolves with the refusal in words, if any. */
  closeTerminal(id: string): Promise<string | undefined>;
  /** Asks the host how a message can reach this member, unless it answered for these same inputs. */
  loadChannels(team: string, member: string, inputs: string): void;
  /** The channel the next sends to this member use; undefined goes back to the preferred one. */
  setChannel(team: string, member: string, kind: ChannelKind | undefined): void;
  /** A pane's link to a terminal: its output goes straight to `sink`, never through this store. */
  connectTerminal(id: string, sink: TerminalSink, opts?: TerminalConnectionOptions): TerminalConnection;
  /** A thread or the whole team as a file's text, or the refusal in words (saving is the caller's). */
  exportConversation(req: ExportRequest): Promise<{ file: ExportFile } | { error: string }>;
  /** Every team's history searched (newest first), or the refusal in words. */
  search(req: SearchRequest): Promise<{ result: SearchResult } | { error: string }>;
  /** The host's checks of this setup (the same as `teamdeck doctor`), or why they could not run. */
  doctor(): Promise<{ report: DoctorReport } | { error: string }>;
  /** Answers a permission prompt in the lead's terminal; resolves with the refusal in words, if any. */
  answerPrompt(req: AnswerRequest): Promise<string | undefined>;
  /** Stops a member's turn; resolves with the refusal in words, if any. */
  interruptMember(team: string, member: string): Promise<string | undefined>;
  /** Approves or rejects a teammate's plan through the lead; resolves with the refusal in words, if any. */
  answerPlan(req: PlanAnswerRequest): Promise<string | undefined>;
}

export function createStoreActions({ api, get, update, clock, once }: StoreKit, loads: StoreLoads, life: StoreLifecycle): DeckActions {
  const actions: DeckActions = {
    start: life.start,
    retryStart: life.start,
    stop: life.stop,
    openTeam(team) {
      update((s) => view.selectTeam(s, team));
      loads.openSelection();
    },
    openMember(team, member) {
      update((s) => view.selectMember(s, team, member));
      loads.openSelection();
    },
    openFeed(on = true) {
      update((s) => view.showFeed(s, on));
      loads.openSelection();
    },
    openTasks(on = true) {
      update((s) => view.showTasks(s, on));
      loads.openSelection();
    },
    openUsage(on = true, scope) {
      update((s) => showUsage(s, on, scope));
      loads.openSelection();
      // The days across teams move with every team's spend: asked again each time the view opens.
      if (on) loads.usage(true);
    },
    async loadPrices() {
      const r = await call(() => api.getPrices());
      return r.ok ? r.value : r.error.message;
    },
    async savePrices(table) {
      const r = await call(() => api.setPrices(table));
      if (!r.ok) return r.error.message;
      loads.usage(true);
      return undefined;
    },
    async setBudget(req) {
      const r = await call(() => api.setBudget(req));
      if (!r.ok) return r.error.message;
      loads.usage(true);
      return undefined;
    },
    setPane(pane) {
      update((s) => view.setPane(s, pane));
      loads.openSelection();
    },
    openMessage(team, member, id) {
      update((s) => view.focusMessage(s, team, member, id));
      loads.openSelection();
    },
    openFeedMessage(team, id) {
      update((s) => view.focusFeedMessage(s, team, id));
      loads.openSelection();
    },
    clearFocus() {
      update((s) => view.clearFocus(s));
    },
    retryActivity(team) {
      loads.activity(team);
    },
    retryTimeline(team, member) {
      loads.timeline(team, member);
    },
    retryTasks(team) {
      loads.tasks(team);
    },
    retryNeeds() {
      loads.needs();
    },
    loadRoster(team) {
      loads.roster(team);
    },
    setFeedFilter(team, member) {
      update((s) => view.setFeedFilter(s, team, member));
    },
    retryThread(team, member) {
      loads.thread(team, member);
    },
    retryFeed(team) {
      loads.feed(team);
    },
    setDraft(team, member, patch) {
      update((s) => compose.setDraft(s, team, member, patch));
    },
    async send(team, member) {
      const s = get();
      const key = memberKey(team, member);
      if (s.sending[key]) return false;
      const draft = s.drafts[key];
      const text = (draft?.text ?? '').replace(/\s+$/, '');
      if (!text.trim()) return false;
      const summary = draft?.summary.trim();
      // The channel shown under the box. Before the host has listed any, or when none can be
      // used now, the host picks (and queues or refuses in words).
      const picked = pickChannel(s.channels[key]?.options, s.channelChoice[key]);
      const channel = picked?.available ? picked.kind : undefined;
      const req = { team, to: member, text, ...(summary ? { summary } : {}), ...(channel ? { channel } : {}) };
      update((x) => compose.setSending(x, team, member, true));
      const r = await call(() => api.send(req));
      if (!r.ok) {
        update((x) => compose.setSendError(x, team, member, r.error.message));
        return false;
      }
      update((x) => compose.applySent(x, req, r.value, clock() + x.clockOffset));
      return true;
    },
    markViewed(team, member) {
      update((s) => messages.markViewed(s, team, member));
    },
    async startDemo() {
      const r = await call(() => api.startDemo());
      if (!r.ok) return r.error.message;
      // The demo may live under a new root: take a fresh snapshot rather than wait for the event.
      const snap = await call(() => api.getSnapshot());
      if (snap.ok) update((s) => applySnapshot(s, snap.value, clock()));
      if (get().teams.some((t) => t.id === r.value.team)) actions.openTeam(r.value.team);
      else loads.openSelection();
      return undefined;
    },
    async saveSettings(patch) {
      const r = await call(() => api.setSettings(patch));
      if (!r.ok) return r.error.message;
      update((s) => applySettings(s, r.value));
      return undefined;
    },
    openExternal(url) {
      void call(() => api.openExternal(url));
    },
    openTerminal(id) {
      update((s) => terminals.showTerminal(s, id));
    },
    openTeamTerminal(team) {
      update((s) => terminals.openTeamTerminal(s, team));
      loads.openSelection();
    },
    setLeadTerminal(team, on) {
      update((s) => terminals.setLeadTerminal(s, team, on));
      loads.openSelection();
    },
    async launchTeam(req) {
      const r = await call(() => api.launchTeam(req));
      if (!r.ok) return r.error.message;
      update((s) => terminals.applyLaunched(s, r.value.terminal));
      loads.openSelection();
      return undefined;
    },
    async answerPrompt(req) {
      const r = await call(() => api.answerPrompt(req));
      return r.ok ? undefined : r.error.message;
    },
    async interruptMember(team, member) {
      const r = await call(() => api.interruptMember(team, member));
      return r.ok ? undefined : r.error.message;
    },
    async answerPlan(req) {
      const r = await call(() => api.answerPlan(req));
      return r.ok ? undefined : r.error.message;
    },
    async closeTerminal(id) {
      const r = await call(() => api.closeTerminal(id));
      if (!r.ok) return r.error.message;
      update((s) => terminals.removeTerminal(s, id));
      return undefined;
    },
    loadChannels(team, member, inputs) {
      const key = memberKey(team, member);
      if (get().channels[key]?.inputs === inputs) return;
      void once(`channels:${key}:${inputs}`, async () => {
        const r = await call(() => api.getChannels(team, member));
        update((x) => terminals.applyChannels(x, key, inputs, r.ok ? { options: r.value } : { error: r.error.message }));
      });
    },
    setChannel(team, member, kind) {
      update((s) => terminals.setChannelChoice(s, memberKey(team, member), kind));
    },
    connectTerminal(id, sink, opts) {
      return connectTerminal(api, id, sink, opts);
    },
    async exportConversation(req) {
      let r = await call(() => api.exportConversation(req));
      // A time zone the host does not know: its own local times are better than no export.
      if (!r.ok && r.error.code === 'invalid' && req.timeZone !== undefined && /timeZone/.test(r.error.message)) {
        const { timeZone: _zone, ...rest } = req;
        r = await call(() => api.exportConversation(rest));
      }
      return r.ok ? { file: r.value } : { error: r.error.message };
    },
    async search(req) {
      const r = await call(() => api.search(req));
      return r.ok ? { result: r.value } : { error: r.error.message };
    },
    async doctor() {
      const r = await call(() => api.doctor());
      return r.ok ? { report: r.value } : { error: r.error.message };
    },
  };
  return actions;
}
