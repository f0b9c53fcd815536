// One running team for a test: the stand-in API, a scratch home, the lead in its private
// tmux, the observer, and the lead's first turn spawning the teammates. Tests (Claude-side
// contract checks now, Teamdeck-side checks later) build on the handles it returns.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { LEAD_TOKEN, startApiStandin, type ApiStandin } from './api-standin.js';
import { claudeForTests } from './binary.js';
import { makeRunDir, type RunDir } from './home.js';
import { appendInboxEntry, inboxEntry, type InboxEntry } from './inbox.js';
import { startObserver, type Observer } from './observer.js';
import { directiveScript, type Script } from './script.js';
import { startLead, type Lead } from './tmux-lead.js';
import { waitFor } from './wait.js';

export interface TeamOptions {
  /** Teammates the lead spawns (with the Agent tool) in its first turn. */
  teammates?: string[];
  /** Spawn prompts by teammate (directives in them drive the teammate's first turn). */
  prompts?: Record<string, string>;
  /** Scripts by agent (`lead`, a teammate's name, `default`); every agent else follows directiveScript. */
  scripts?: Record<string, Script>;
  /** The lead's first typed prompt; by default it spawns `teammates`. */
  firstPrompt?: string;
  env?: Record<string, string>;
  sessionId?: string;
  /** The lead's permission mode (LeadOptions.permissionMode): `bypass` by default. */
  permissionMode?: 'bypass' | 'default' | 'plan';
  /** Where teammates run (LeadOptions.teammateMode): `in-process` by default. */
  teammateMode?: 'in-process' | 'tmux';
}

export interface ConfigMember {
  name: string;
  agentId: string;
  [k: string]: unknown;
}

export interface TeamConfig {
  name: string;
  leadSessionId: string;
  leadProcess?: { pid: number; [k: string]: unknown };
  members: ConfigMember[];
  [k: string]: unknown;
}

/** Something the test did to the team, for timelines. */
export interface Action {
  t: number;
  what: string;
}

export interface Team {
  run: RunDir;
  /** Date.now() just before the lead was launched. */
  startedAt: number;
  actions: Action[];
  api: ApiStandin;
  lead: Lead;
  observer: Observer;
  configDir: string;
  teamsDir: string;
  teamName: string;
  teamDir: string;
  /** Relative to configDir, as the observer names files. */
  inboxRel(member: string): string;
  configRel: string;
  sessionRel: string;
  leadPids: { lead: number; tmux: number };
  /** The current config.json (retried: Claude rewrites it in place). */
  config(): Promise<TeamConfig>;
  memberNames(): Promise<string[]>;
  /** Types into the lead's terminal (a user turn), noting it in `actions`. */
  type(text: string): Promise<void>;
  /** Types /exit and waits for the lead to end. */
  exit(): Promise<void>;
  /** Writes an entry (default sender `teamdeck`) into a member's inbox the way Claude does. */
  send(member: string, text: string, opts?: { from?: string; summary?: string }): Promise<InboxEntry>;
  /** Screen, debug-log tail and the requests so far: for failure reports. */
  report(): string;
  stop(): Promise<void>;
}

/** Reads and parses a JSON file that Claude may be rewriting in place (a torn read is retried). */
export async function readJsonRetry<T>(path: string, timeoutMs = 2_000): Promise<T> {
  return waitFor(() => JSON.parse(readFileSync(path, 'utf8')) as T, { what: `${path} to parse`, timeoutMs, intervalMs: 50 });
}

export function tail(path: string, lines: number): string {
  try {
    return readFileSync(path, 'utf8').split('\n').slice(-lines).join('\n');
  } catch {
    return '(none)';
  }
}

export async function startTeam(opts: TeamOptions = {}): Promise<Team> {
  const binary = claudeForTests();
  if ('skip' in binary) throw new Error(binary.skip);
  const teammates = opts.teammates ?? [];
  const fallback = directiveScript({ prompts: opts.prompts });
  const api = await startApiStandin({ default: fallback, ...opts.scripts });
  const run = makeRunDir();
  // Before the lead starts, so the transient startup team and the first writes are on record.
  const observer = startObserver(run.configDir);
  const startedAt = Date.now();
  let lead: Lead;
  try {
    lead = await startLead({ binary: binary.path, run, apiUrl: api.url, env: opts.env, sessionId: opts.sessionId, permissionMode: opts.permissionMode, teammateMode: opts.teammateMode });
  } catch (e) {
    observer.stop();
    await api.close();
    run.remove();
    throw e;
  }
  const actions: Action[] = [{ t: startedAt, what: 'launched the lead' }];
  const teamDir = join(run.teamsDir, lead.teamName);
  const configRel = `teams/${lead.teamName}/config.json`;
  const config = () => readJsonRetry<TeamConfig>(join(teamDir, 'config.json'));
  const report = () =>
    [
      `run dir: ${run.run}`,
      '--- lead screen ---',
      lead.capture(),
      '--- lead debug log (tail) ---',
      tail(lead.debugLog, 60),
      '--- model requests ---',
      ...api.log.map((r) => `#${r.seq} ${r.agent} ${r.url} new: ${JSON.stringify(r.newText.slice(0, 300))} -> ${JSON.stringify(r.reply ?? r.status)}`),
    ].join('\n');
  const team: Team = {
    run,
    startedAt,
    actions,
    api,
    lead,
    observer,
    configDir: run.configDir,
    teamsDir: run.teamsDir,
    teamName: lead.teamName,
    teamDir,
    inboxRel: (member) => `teams/${lead.teamName}/inboxes/${member}.json`,
    configRel,
    sessionRel: `sessions/${lead.pid}.json`,
    leadPids: { lead: lead.pid, tmux: lead.tmuxPid },
    config,
    memberNames: async () => (await config()).members.map((m) => m.name),
    type: async (text) => {
      actions.push({ t: Date.now(), what: `typed into the lead: ${JSON.stringify(text)}` });
      await lead.type(text);
    },
    exit: async () => {
      actions.push({ t: Date.now(), what: 'typed /exit' });
      await lead.exit();
    },
    send: async (member, text, o = {}) => {
      const entry = inboxEntry(o.from ?? 'teamdeck', text, o.summary);
      actions.push({ t: Date.now(), what: `wrote into inboxes/${member}.json as from:${JSON.stringify(entry.from)}: ${JSON.stringify(text)}` });
      return appendInboxEntry(teamDir, member, entry);
    },
    report,
    stop: async () => {
      observer.stop();
      try {
        await lead.cleanup({ keepRunDir: !!process.env.TEAMDECK_CLAUDE_KEEP_RUN });
      } finally {
        await api.close();
      }
    },
  };
  try {
    if (opts.firstPrompt !== undefined || teammates.length) {
      await team.type(opts.firstPrompt ?? `${LEAD_TOKEN} Start the team. ${teammates.map((n) => `[[SPAWN:${n}]]`).join(' ')}`);
    }
    if (teammates.length) {
      await waitFor(
        async () => {
          const names = await team.memberNames();
          return teammates.every((n) => names.includes(n));
        },
        { what: `teammates ${teammates.join(', ')} in config.json`, timeoutMs: 20_000, intervalMs: 50 },
      );
    }
  } catch (e) {
    const r = report();
    await team.stop();
    throw new Error(`${(e as Error).message}\n${r}`);
  }
  return team;
}
