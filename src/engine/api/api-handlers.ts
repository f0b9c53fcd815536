// The contract's calls, implemented once over the TeamService facade, for every host (Electron
// IPC and the browser host). Hosts authenticate the caller and hand the raw name and arguments
// to dispatch(), which validates them before anything runs. No electron here.
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { CALL_NAMES, type ApiError, type AppEvent, type CallHandlers, type CallName, type Result, type Settings, type Snapshot, type TeamdeckCalls } from '../../shared/contract.js';
import { validateCall } from '../../shared/contract-schema.js';
import { resolveTeamsRoot } from '../claude/paths.js';
import { errorCode, TeamdeckError } from '../errors.js';
import type { TeamServiceApi, TeamServiceOptions } from '../service/service-types.js';
import type { SettingsStore } from '../service/settings.js';

export interface RootChoice {
  root: string;
  /** --teams-dir, TEAMDECK_TEAMS_DIR, setting, CLAUDE_CONFIG_DIR, default or demo. */
  source: string;
  alsoLooked: string[];
}

/** A folder typed by a person: `~` and `~/...` mean the home folder, as in a shell. */
export function expandHome(p: string): string {
  if (p === '~') return homedir();
  if (p.startsWith('~/') || p.startsWith('~\\')) return join(homedir(), p.slice(2));
  return p;
}

/** --teams-dir, then TEAMDECK_TEAMS_DIR, then the teamsDir setting, then $CLAUDE_CONFIG_DIR/teams, then ~/.claude/teams. */
export function chooseTeamsRoot(opts: { flag?: string; env?: NodeJS.ProcessEnv; setting?: string }): RootChoice {
  const env = opts.env ?? process.env;
  const candidates: { root: string; source: string }[] = [];
  if (opts.flag) candidates.push({ root: resolve(opts.flag), source: '--teams-dir' });
  if (env.TEAMDECK_TEAMS_DIR) candidates.push({ root: resolve(env.TEAMDECK_TEAMS_DIR), source: 'TEAMDECK_TEAMS_DIR' });
  if (opts.setting) candidates.push({ root: resolve(expandHome(opts.setting)), source: 'setting' });
  const fallback = resolveTeamsRoot({ env: { ...env, TEAMDECK_TEAMS_DIR: undefined } });
  candidates.push(fallback);
  if (fallback.source !== 'default') candidates.push(resolveTeamsRoot({ env: {} }));
  const chosen = candidates[0]!;
  const alsoLooked = [...new Set(candidates.slice(1).map((c) => c.root))].filter((r) => r !== chosen.root);
  return { root: chosen.root, source: chosen.source, alsoLooked };
}

export interface DemoTeam {
  teamsRoot: string;
  /** The team's folder name under teamsRoot. */
  team: string;
  /** A state dir of its own, so a throwaway team never mixes into the user's journal. */
  stateDir: string;
  /** Starts the simulated members; called once the service has read the seeded history. */
  run(): Promise<void>;
  /** Stops the members and removes the temporary folders. */
  stop(): Promise<void>;
}

export interface ApiHandlerOptions {
  stateDir: string;
  settings: SettingsStore;
  createService: (opts: TeamServiceOptions) => TeamServiceApi;
  /** The --teams-dir flag, when given. */
  teamsDirFlag?: string;
  env?: NodeJS.ProcessEnv;
  /** Creates and runs a simulated team in a temporary root; absent when the host cannot. */
  startDemo?: () => Promise<DemoTeam>;
  /** Opens an already validated http(s) URL outside the app; absent when the host cannot. */
  openExternal?: (url: string) => Promise<void>;
  /** Where internal errors are reported in full (they reach the caller without stacks). */
  log?: (message: string, error?: unknown) => void;
  /**
   * Hosts lead terminals for the service on this state dir (the shell passes the tmux/pty host);
   * absent: this host launches no teams.
   */
  terminalHost?: (o: { stateDir: string; claudePath: () => string }) => TeamServiceOptions['terminalHost'];
  /** Where calls come from, for the record of keys pressed in a lead's terminal (default `window`). */
  via?: 'window' | 'browser';
}

/** The only error shapes that cross to the renderer, by the error's code; stacks and causes stay in the host's log. */
export function toApiError(e: unknown): ApiError {
  const message = (e instanceof Error ? e.message : String(e)).slice(0, 500);
  return { code: errorCode(e), message: message || 'internal error' };
}

type Listener = (event: AppEvent) => void;

export class ApiHandlers {
  readonly calls: TeamdeckCalls;
  private service: TeamServiceApi;
  private choice: RootChoice;
  private demo?: DemoTeam;
  private demoStarting?: Promise<DemoTeam>;
  private readonly listeners = new Set<Listener>();
  private unsubscribe: () => void;
  /** Root switches (settings, demo) run one at a time. */
  private switching: Promise<unknown> = Promise.resolve();
  private closed = false;

  private constructor(
    private readonly opts: ApiHandlerOptions,
    service: TeamServiceApi,
    choice: RootChoice,
  ) {
    this.service = service;
    this.choice = choice;
    this.unsubscribe = service.onEvent((e) => this.emit(e));
    this.calls = this.guarded(this.handlers());
  }

  /** Resolves the teams root, starts the service (it may throw StateDirBusyError), and is ready. */
  static async create(opts: ApiHandlerOptions): Promise<ApiHandlers> {
    const choice = chooseTeamsRoot({ flag: opts.teamsDirFlag, env: opts.env, setting: opts.settings.get().teamsDir });
    const service = opts.createService(serviceOptions(choice.root, opts.stateDir, opts.settings.get(), opts));
    await service.start();
    return new ApiHandlers(opts, service, choice);
  }

  get teamsRoot(): string {
    return this.service.teamsRoot;
  }

  get currentStateDir(): string {
    return this.service.stateDir;
  }

  get demoTeam(): DemoTeam | undefined {
    return this.demo;
  }

  onEvent(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The team the window opens first is read ahead, while its page loads (see TeamServiceApi.prepare). */
  prepare(team: string): Promise<void> {
    return this.service.prepare?.(team) ?? Promise.resolve();
  }

  /** Validates an untrusted call and runs it; never throws. */
  async dispatch(name: unknown, args: unknown): Promise<Result<unknown>> {
    const v = validateCall(name, args);
    if (!v.ok) return { ok: false, error: v.error };
    const fn = this.calls[v.name] as (...a: unknown[]) => Promise<Result<unknown>>;
    return fn(...v.args);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    // A switch's failure went to whoever asked for it; closing only waits for it to end.
    await this.switching.catch(() => {});
    this.unsubscribe();
    this.listeners.clear();
    await this.service.stop().catch((e) => this.opts.log?.('stopping the team service failed', e));
    await this.demo?.stop().catch((e) => this.opts.log?.('stopping the demo team failed', e));
  }

  private emit(event: AppEvent): void {
    for (const l of [...this.listeners]) {
      try {
        l(event);
      } catch (e) {
        this.opts.log?.('an event listener failed', e);
      }
    }
  }

  private async snapshot(): Promise<Snapshot> {
    const s = this.service;
    const problems = s.problems();
    return {
      teamsRoot: s.teamsRoot,
      rootSource: this.choice.source,
      alsoLooked: this.choice.alsoLooked,
      watching: !problems.some((p) => p.kind === 'watch'),
      teams: await s.listTeams(),
      problems,
      settings: this.opts.settings.get(),
      queuedCount: s.queuedCount(),
      now: Date.now(),
      canStartDemo: this.opts.startDemo !== undefined,
      terminals: await s.terminals(),
      launch: await s.terminalAvailability(),
    };
  }

  /** Swaps the service for one on another root; the old one is stopped first (it holds the state-dir lock). */
  private switchRoot(choice: RootChoice, stateDir: string): Promise<void> {
    const run = this.switching.then(async () => {
      if (this.closed) return;
      const old = this.service;
      this.unsubscribe();
      await old.stop();
      const next = this.opts.createService(serviceOptions(choice.root, stateDir, this.opts.settings.get(), this.opts));
      try {
        await next.start();
      } catch (e) {
        // Put the previous root back so the window keeps working, then report the failure.
        const back = this.opts.createService(serviceOptions(old.teamsRoot, old.stateDir, this.opts.settings.get(), this.opts));
        await back.start();
        this.service = back;
        this.unsubscribe = back.onEvent((ev) => this.emit(ev));
        throw e;
      }
      this.service = next;
      this.choice = choice;
      this.unsubscribe = next.onEvent((ev) => this.emit(ev));
      this.emit({ type: 'snapshot', snapshot: await this.snapshot() });
    });
    // The caller gets this switch's failure from `run`; the chain only orders the switches.
    this.switching = run.catch(() => {});
    return run;
  }

  private async launchDemo(start: () => Promise<DemoTeam>): Promise<DemoTeam> {
    const demo = await start();
    try {
      await this.switchRoot({ root: demo.teamsRoot, source: 'demo', alsoLooked: [this.choice.root, ...this.choice.alsoLooked] }, demo.stateDir);
      await demo.run();
    } catch (e) {
      // The failure to report is the one thrown below; a demo that also fails to stop leaves only its temp folders.
      await demo.stop().catch(() => {});
      throw e;
    }
    this.demo = demo;
    return demo;
  }

  /** Each handler, wrapped so that it resolves to a Result and reports internal failures in full. */
  private guarded(handlers: CallHandlers): TeamdeckCalls {
    const guard =
      (name: CallName, fn: (...args: unknown[]) => Promise<unknown>) =>
      async (...args: unknown[]): Promise<Result<unknown>> => {
        try {
          return { ok: true, value: await fn(...args) };
        } catch (e) {
          const error = toApiError(e);
          if (error.code === 'internal') this.opts.log?.(`${name} failed`, e);
          return { ok: false, error };
        }
      };
    return Object.fromEntries(CALL_NAMES.map((name) => [name, guard(name, handlers[name] as (...args: unknown[]) => Promise<unknown>)])) as TeamdeckCalls;
  }

  /** One handler per call of the contract (a missing or an extra one does not compile). */
  private handlers(): CallHandlers {
    return {
      getSnapshot: () => this.snapshot(),
      getRoster: (team) => this.service.roster(team),
      getThread: (team, member) => this.service.thread(team, member),
      getFeed: (team) => this.service.feed(team),
      send: async (req) => {
        // The engine refuses an unknown team as a send problem; the contract calls it not_found.
        // A team listed as ended is refused by send itself, without its history being opened.
        const ended = (await this.service.listTeams()).some((t) => t.state === 'ended' && (t.id === req.team || t.name === req.team));
        if (!ended) await this.service.roster(req.team);
        return this.service.send(req);
      },
      getSettings: async () => this.opts.settings.get(),
      setSettings: async (patch) => {
        const settings = await this.opts.settings.update(patch);
        if (patch.idleMinutes !== undefined) this.service.setIdleThresholdMs(settings.idleMinutes * 60_000);
        if (patch.senderName !== undefined) this.service.setSenderName(settings.senderName);
        if (patch.teamsDir !== undefined) {
          const choice = chooseTeamsRoot({ flag: this.opts.teamsDirFlag, env: this.opts.env, setting: settings.teamsDir });
          // Leaving the demo, or pointing at another root, takes effect now.
          if (choice.root !== this.service.teamsRoot || this.demo) {
            const demo = this.demo;
            await this.switchRoot(choice, this.opts.stateDir);
            this.demo = undefined;
            await demo?.stop().catch((e) => this.opts.log?.('stopping the demo team failed', e));
            return settings;
          }
        }
        this.emit({ type: 'snapshot', snapshot: await this.snapshot() });
        return settings;
      },
      startDemo: async () => {
        const start = this.opts.startDemo;
        if (!start) throw new TeamdeckError('refused', 'this host cannot start a demo team');
        // A double click (or the menu and the button) must not start two demos.
        const demo =
          this.demo ??
          (await (this.demoStarting ??= this.launchDemo(start).finally(() => {
            this.demoStarting = undefined;
          })));
        return { teamsRoot: demo.teamsRoot, team: demo.team };
      },
      getActivity: (team) => this.service.activity(team),
      getTimeline: (team, member, limit) => this.service.timeline(team, member, limit),
      getTasks: (team) => this.service.tasks(team),
      getNeeds: () => this.service.needs(),
      getChannels: (team, member) => this.service.channels(team, member),
      launchTeam: async (req) => ({ terminal: await this.service.launch(req) }),
      getTerminals: () => this.service.terminals(),
      attachTerminal: (id, cols, rows) => this.service.attachTerminal(id, cols, rows),
      terminalInput: async (id, data) => {
        await this.service.terminalInput(id, data);
        return null;
      },
      resizeTerminal: async (id, cols, rows) => {
        await this.service.resizeTerminal(id, cols, rows);
        return null;
      },
      detachTerminal: async (id) => {
        await this.service.detachTerminal(id);
        return null;
      },
      closeTerminal: async (id) => {
        await this.service.closeTerminal(id);
        return null;
      },
      exportConversation: (req) => this.service.export(req),
      search: (req) => this.service.search(req),
      getUsage: (req) => this.service.usage(req),
      setBudget: (req) => this.service.setBudget(req),
      getPrices: () => this.service.prices(),
      setPrices: (table) => this.service.setPrices(table),
      doctor: () => this.service.doctor(),
      importStatus: () => this.service.importStatus(),
      answerPrompt: (req) => this.service.answer(req, this.opts.via ?? 'window'),
      interruptMember: (team, member) => this.service.interrupt(team, member, this.opts.via ?? 'window'),
      answerPlan: (req) => this.service.answerPlan(req, this.opts.via ?? 'window'),
      openExternal: async (url) => {
        if (!this.opts.openExternal) throw new TeamdeckError('refused', 'this host cannot open links');
        // Re-checked here so a caller that skipped dispatch() still cannot open file: or custom schemes.
        const v = validateCall('openExternal', [url]);
        if (!v.ok) throw new TeamdeckError('refused', v.error.message);
        await this.opts.openExternal(new URL(url).href);
        return null;
      },
    };
  }
}

function serviceOptions(teamsRoot: string, stateDir: string, settings: Settings, opts?: ApiHandlerOptions): TeamServiceOptions {
  const o: TeamServiceOptions = { teamsRoot, stateDir, idleThresholdMs: settings.idleMinutes * 60_000, senderName: settings.senderName, watch: true };
  const store = opts?.settings;
  const host = store && opts.terminalHost?.({ stateDir, claudePath: () => store.get().claudePath });
  if (host) o.terminalHost = host;
  return o;
}
