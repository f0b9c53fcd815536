// The one zustand store: loads the first state with a single getSnapshot, then applies pushed
// events. All state transitions are the pure functions of deck-state.ts; this file only sequences
// API calls around them and remembers which loads are in flight.
import { createStore, type StoreApi } from 'zustand/vanilla';
import type { AppEvent, ExportFile, ExportRequest, Result, SearchRequest, SearchResult, Settings, Snapshot, TeamdeckApi } from '../../../shared/contract';
import type { ChannelKind, LaunchRequest, RosterEntry } from '../../../shared/types';
import { pickChannel } from '../lib/channels';
import * as D from './deck-state';
import type { DeckState } from './deck-state';
import { connectTerminal, type TerminalConnection, type TerminalConnectionOptions, type TerminalSink } from './terminal-connection';
import * as T from './terminal-state';

export interface DeckActions {
  start(): Promise<void>;
  stop(): void;
  retryStart(): Promise<void>;
  openTeam(team: string): void;
  openMember(team: string, member: string): void;
  openFeed(on?: boolean): void;
  openTasks(on?: boolean): void;
  /** Thread or Activity beside the open member. */
  setPane(pane: D.MemberPane): void;
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
  setDraft(team: string, member: string, patch: Partial<D.Draft>): void;
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
}

export type DeckStore = DeckState & { actions: DeckActions };

export interface DeckStoreOptions {
  /** Where "last viewed" per thread is remembered between launches; null keeps it in memory only. */
  storage?: Pick<Storage, 'getItem' | 'setItem'> | null;
  /** How often dots and relative times re-age. */
  tickMs?: number;
  /** This window's clock (tests inject one). */
  now?: () => number;
  /**
   * The browser host's start-up data (src/shared/host-boot.ts): the first start applies it instead
   * of asking for a snapshot; the API replays the events since it. `receivedAt` is this window's
   * clock when it arrived, to set the host clock's offset from `snapshot.now`.
   */
  boot?: { snapshot: Snapshot; roster?: { team: string; entries: RosterEntry[] }; receivedAt: number };
}

const VIEWED_KEY = 'teamdeck.viewed.v1';

interface Persisted {
  baseline: number;
  at: Record<string, number>;
}

function readPersisted(storage: DeckStoreOptions['storage'], now: number): Persisted {
  try {
    const raw = storage?.getItem(VIEWED_KEY);
    if (raw) {
      const v = JSON.parse(raw) as Partial<Persisted>;
      if (typeof v.baseline === 'number' && v.at && typeof v.at === 'object') return { baseline: v.baseline, at: v.at };
    }
  } catch {
    // A damaged entry only costs unread badges: start over.
  }
  return { baseline: now, at: {} };
}

function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

async function call<T>(p: () => Promise<Result<T>>): Promise<Result<T>> {
  try {
    return await p();
  } catch (e) {
    return { ok: false, error: { code: 'internal', message: `Teamdeck's host did not answer: ${errorText(e)}` } };
  }
}

export function createDeckStore(api: TeamdeckApi, opts: DeckStoreOptions = {}): StoreApi<DeckStore> {
  const clock = opts.now ?? (() => Date.now());
  const storage = opts.storage === undefined ? (typeof localStorage === 'undefined' ? null : localStorage) : opts.storage;
  const tickMs = opts.tickMs ?? 10_000;
  const persisted = readPersisted(storage, clock());
  let boot = opts.boot;

  const inFlight = new Set<string>();
  let unsubscribe: (() => void) | undefined;
  let timer: ReturnType<typeof setInterval> | undefined;

  const store = createStore<DeckStore>()((set, get) => {
    const update = (f: (s: DeckState) => DeckState) => set((s) => f(s));

    const once = async (key: string, run: () => Promise<void>) => {
      if (inFlight.has(key)) return;
      inFlight.add(key);
      try {
        await run();
      } finally {
        inFlight.delete(key);
      }
    };

    const ensureThread = (team: string, member: string) => {
      const s = get();
      const gen = s.generation;
      if (s.byTeam[team]?.threadLoaded[member] === gen) return;
      // The feed loaded in this generation holds every message of the team, and events keep it
      // current: the thread is already here, and fetching thousands of messages again would only
      // hold up its first paint.
      if (s.byTeam[team]?.feedLoaded === gen) {
        update((x) => D.applyThreadLoaded(x, team, member, [], gen));
        return;
      }
      void once(`thread:${gen}:${team}/${member}`, async () => {
        const r = await call(() => api.getThread(team, member));
        update((x) => (r.ok ? D.applyThreadLoaded(x, team, member, r.value, gen) : D.applyThreadError(x, team, member, r.error.message)));
      });
    };

    const ensureFeed = (team: string) => {
      const s = get();
      const gen = s.generation;
      if (s.byTeam[team]?.feedLoaded === gen) return;
      void once(`feed:${gen}:${team}`, async () => {
        const r = await call(() => api.getFeed(team));
        update((x) => (r.ok ? D.applyFeedLoaded(x, team, r.value, gen) : D.applyFeedError(x, team, r.error.message)));
      });
    };

    const ensureRoster = (team: string) => {
      const s = get();
      const gen = s.generation;
      if (s.byTeam[team]?.rosterLoaded === gen) return;
      void once(`roster:${gen}:${team}`, async () => {
        const r = await call(() => api.getRoster(team));
        update((x) => (r.ok ? D.applyRoster(x, team, r.value, gen) : D.applyRosterError(x, team, r.error.message)));
        openSelection();
      });
    };

    const ensureActivity = (team: string) => {
      const s = get();
      const gen = s.generation;
      if (s.byTeam[team]?.activityLoaded === gen) return;
      void once(`activity:${gen}:${team}`, async () => {
        const r = await call(() => api.getActivity(team));
        update((x) => (r.ok ? D.applyActivityLoaded(x, team, r.value, gen) : D.applyActivityError(x, team, r.error.message)));
      });
    };

    const ensureTimeline = (team: string, member: string) => {
      const s = get();
      const gen = s.generation;
      if (s.byTeam[team]?.timelines[member]?.loaded === gen) return;
      // Keep this member's timeline events from now on, so none is lost while the load runs.
      update((x) => D.requestTimeline(x, team, member, gen));
      void once(`timeline:${gen}:${team}/${member}`, async () => {
        const r = await call(() => api.getTimeline(team, member));
        update((x) => (r.ok ? D.applyTimelineLoaded(x, team, member, r.value, gen) : D.applyTimelineError(x, team, member, r.error.message)));
      });
    };

    const ensureTasks = (team: string) => {
      const s = get();
      const gen = s.generation;
      if (s.byTeam[team]?.tasksLoaded === gen) return;
      void once(`tasks:${gen}:${team}`, async () => {
        const r = await call(() => api.getTasks(team));
        update((x) => (r.ok ? D.applyTasksLoaded(x, team, r.value, gen) : D.applyTasksError(x, team, r.error.message)));
      });
    };

    const ensureNeeds = () => {
      const s = get();
      const gen = s.generation;
      if (s.phase !== 'ready' || s.needsLoaded === gen) return;
      void once(`needs:${gen}`, async () => {
        const r = await call(() => api.getNeeds());
        update((x) => (r.ok ? D.applyNeedsLoaded(x, r.value, gen) : D.applyNeedsError(x, r.error.message)));
      });
    };

    /** Loads whatever the current selection needs and is not loaded yet. */
    const openSelection = () => {
      // Needs span every team: loaded once per generation, then kept current by events.
      ensureNeeds();
      const s = get();
      const team = s.selectedTeam;
      if (!team) return;
      ensureRoster(team);
      // The feed also gives unread counts for members whose threads are not open yet.
      ensureFeed(team);
      ensureActivity(team);
      // Small, and its open count shows on the Tasks button.
      ensureTasks(team);
      const member = s.memberByTeam[team];
      if (member && s.view === 'thread') {
        if (s.pane === 'activity') ensureTimeline(team, member);
        else ensureThread(team, member);
      }
    };

    const dispatch = (ev: AppEvent) => {
      // Terminal output goes to the panes' own subscriptions (terminal-connection.ts), not to state.
      if (ev.type === 'terminal-output') return;
      const before = get().selectedTeam;
      update((s) => D.applyEvent(s, ev, clock()));
      const s = get();
      // A new snapshot (reconnect, new root) or a new selection: load what the screen now needs.
      if (ev.type === 'snapshot' || s.selectedTeam !== before) openSelection();
    };

    /** Events that arrive before the first snapshot is applied; replayed on top of it. */
    let held: AppEvent[] | undefined;

    const start = async () => {
      update((s) => ({ ...s, phase: 'loading', loadError: undefined }));
      if (!unsubscribe) {
        held = [];
        // Subscribe before asking for the snapshot so nothing between the two is lost.
        unsubscribe = api.onEvent((ev) => {
          if (held) held.push(ev);
          else dispatch(ev);
        });
      }
      const given = boot;
      boot = undefined;
      if (given) {
        // Nothing to wait for: the first render has the teams and the first team's roster.
        held = undefined;
        update((s) => D.applyBoot(s, given, given.receivedAt));
        if (!timer) timer = setInterval(() => update((s) => D.tick(s, clock())), tickMs);
        openSelection();
        return;
      }
      const r = await call(() => api.getSnapshot());
      if (!r.ok) {
        // Events keep being held until a retry loads the snapshot.
        update((s) => ({ ...s, phase: 'failed', loadError: r.error.message }));
        return;
      }
      update((s) => D.applySnapshot(s, r.value, clock()));
      const replay = held ?? [];
      held = undefined;
      for (const ev of replay) dispatch(ev);
      if (!timer) timer = setInterval(() => update((s) => D.tick(s, clock())), tickMs);
      openSelection();
    };

    const actions: DeckActions = {
      start,
      retryStart: start,
      stop() {
        unsubscribe?.();
        unsubscribe = undefined;
        held = undefined;
        if (timer) clearInterval(timer);
        timer = undefined;
      },
      openTeam(team) {
        update((s) => D.selectTeam(s, team));
        openSelection();
      },
      openMember(team, member) {
        update((s) => D.selectMember(s, team, member));
        openSelection();
      },
      openFeed(on = true) {
        update((s) => D.showFeed(s, on));
        openSelection();
      },
      openTasks(on = true) {
        update((s) => D.showTasks(s, on));
        openSelection();
      },
      setPane(pane) {
        update((s) => D.setPane(s, pane));
        openSelection();
      },
      openMessage(team, member, id) {
        update((s) => D.focusMessage(s, team, member, id));
        openSelection();
      },
      openFeedMessage(team, id) {
        update((s) => D.focusFeedMessage(s, team, id));
        openSelection();
      },
      clearFocus() {
        update((s) => D.clearFocus(s));
      },
      retryActivity(team) {
        ensureActivity(team);
      },
      retryTimeline(team, member) {
        ensureTimeline(team, member);
      },
      retryTasks(team) {
        ensureTasks(team);
      },
      retryNeeds() {
        ensureNeeds();
      },
      loadRoster(team) {
        ensureRoster(team);
      },
      setFeedFilter(team, member) {
        update((s) => D.setFeedFilter(s, team, member));
      },
      retryThread(team, member) {
        ensureThread(team, member);
      },
      retryFeed(team) {
        ensureFeed(team);
      },
      setDraft(team, member, patch) {
        update((s) => D.setDraft(s, team, member, patch));
      },
      async send(team, member) {
        const s = get();
        const key = D.memberKey(team, member);
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
        update((x) => D.setSending(x, team, member, true));
        const r = await call(() => api.send(req));
        if (!r.ok) {
          update((x) => D.setSendError(x, team, member, r.error.message));
          return false;
        }
        update((x) => D.applySent(x, req, r.value, clock() + x.clockOffset));
        return true;
      },
      markViewed(team, member) {
        update((s) => D.markViewed(s, team, member));
      },
      async startDemo() {
        const r = await call(() => api.startDemo());
        if (!r.ok) return r.error.message;
        // The demo may live under a new root: take a fresh snapshot rather than wait for the event.
        const snap = await call(() => api.getSnapshot());
        if (snap.ok) update((s) => D.applySnapshot(s, snap.value, clock()));
        if (get().teams.some((t) => t.id === r.value.team)) actions.openTeam(r.value.team);
        else openSelection();
        return undefined;
      },
      async saveSettings(patch) {
        const r = await call(() => api.setSettings(patch));
        if (!r.ok) return r.error.message;
        update((s) => D.applySettings(s, r.value));
        return undefined;
      },
      openExternal(url) {
        void call(() => api.openExternal(url));
      },
      openTerminal(id) {
        update((s) => T.showTerminal(s, id));
      },
      openTeamTerminal(team) {
        update((s) => T.openTeamTerminal(s, team));
        openSelection();
      },
      setLeadTerminal(team, on) {
        update((s) => T.setLeadTerminal(s, team, on));
        openSelection();
      },
      async launchTeam(req) {
        const r = await call(() => api.launchTeam(req));
        if (!r.ok) return r.error.message;
        update((s) => T.applyLaunched(s, r.value.terminal));
        openSelection();
        return undefined;
      },
      async closeTerminal(id) {
        const r = await call(() => api.closeTerminal(id));
        if (!r.ok) return r.error.message;
        update((s) => T.removeTerminal(s, id));
        return undefined;
      },
      loadChannels(team, member, inputs) {
        const key = D.memberKey(team, member);
        if (get().channels[key]?.inputs === inputs) return;
        void once(`channels:${key}:${inputs}`, async () => {
          const r = await call(() => api.getChannels(team, member));
          update((x) => T.applyChannels(x, key, inputs, r.ok ? { options: r.value } : { error: r.error.message }));
        });
      },
      setChannel(team, member, kind) {
        update((s) => T.setChannelChoice(s, D.memberKey(team, member), kind));
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
    };

    return { ...D.initialState({ viewedAt: persisted.at, viewedBaseline: persisted.baseline, now: clock() }), actions };
  });

  if (storage) {
    const save = (s: DeckState) => {
      try {
        storage.setItem(VIEWED_KEY, JSON.stringify({ baseline: s.viewedBaseline, at: s.viewedAt } satisfies Persisted));
      } catch {
        // Storage full or unavailable: unread badges just will not survive a restart.
      }
    };
    save(store.getState());
    store.subscribe((s, prev) => {
      if (s.viewedAt !== prev.viewedAt) save(s);
    });
  }
  return store;
}
