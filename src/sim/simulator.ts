// A Claude-compatible Agent Team on disk, in either era of Claude Code:
//   legacy : a named team; members poll their inbox, answer the user in inboxes/user.json, go
//            idle and approve shutdown requests (read messages flagged read:true or pruned);
//   current: Claude Code 2.1.332: a `session-<8 hex>` team owned by a lead process, entries with
//            msg_id, provenance, no user mailbox; see teammate.ts and lead.ts.
// Every inbox write goes through claude-inbox.ts (Claude's own algorithm), never through the
// core, so the app is exercised against "the other side".
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { randomBytes, randomUUID } from 'node:crypto';
import { basename } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { claudeAppend, claudeConsume, claudeLock, type ClaudeMessage, type ConsumeMode } from './claude-inbox.js';
import { createRng, randomSeed, type Rng } from './prng.js';
import { SESSION_TEAM, simTeamPaths, type SimEra } from './claude-paths.js';
import { configMembers, createSessionTeamConfig, LEAD_NAME, MEMBER_COLORS, spawnIntoConfig } from './claude-config.js';
import { SessionFile } from './lead-session.js';
import type { Ledger, Provenance } from './provenance.js';
import { answerSummary, answerText, DETAILS, frameOf, str } from './replies.js';
import { runTeammate } from './teammate.js';
import type { PromptState } from './transcript.js';

export { LEAD_NAME, MEMBER_COLORS, simTeamPaths, type SimEra };
export const USER_NAME = 'user';

const MODELS = ['sonnet', 'opus', 'haiku'] as const;

export interface SimMemberSpec {
  name: string;
  agentType?: string;
  model?: string;
  color?: string;
  backendType?: 'in-process' | 'tmux';
  /** The spawn prompt; Claude keeps it in the config entry. */
  prompt?: string;
  planModeRequired?: boolean;
  joinedAt?: number;
}

export interface CreateTeamOptions {
  teamsDir: string;
  /**
   * Legacy: the team name; its folder is derived from it as Claude derives it. Current: omit it
   * (the name comes from the session id) or give a `session-<8 hex>` name to pin it.
   */
  team?: string;
  /** Default: the era a team of this name can only be from (a chosen name is legacy; none or `session-<8 hex>` is current). */
  era?: SimEra;
  /** Legacy only; current-era configs have none. */
  description?: string;
  members?: (string | SimMemberSpec)[];
  cwd?: string;
  /** ms since epoch, for createdAt and joinedAt. */
  now?: () => number;
  leadSessionId?: string;
  /** Current: the lead's pid in leadProcess and sessions/<pid>.json (default: this process). */
  pid?: number;
}

export interface SimTeam {
  /** The folder name under the teams root. */
  id: string;
  name: string;
  dir: string;
  configPath: string;
  inboxesDir: string;
  config: Record<string, unknown>;
  era: SimEra;
  leadSessionId: string;
}

/** The era a team of this name can be from, when nothing else says: Claude 2.1.332 only makes `session-<8 hex>` teams. */
export function eraOfName(team: string | undefined): SimEra {
  return team === undefined || SESSION_TEAM.test(team) ? 'current' : 'legacy';
}

/** A team's era from its files (docs/claude-contract.md#eras): leadProcess says current; legacy markers or a chosen name say legacy. */
export function eraOfConfig(config: Record<string, unknown> | undefined, team: string): SimEra {
  if (config?.leadProcess) return 'current';
  if (typeof config?.description === 'string' || configMembers(config).some((m) => typeof m.prompt === 'string')) return 'legacy';
  return eraOfName(typeof config?.name === 'string' ? config.name : team);
}

export async function teamEra(teamsDir: string, team: string): Promise<SimEra> {
  return eraOfConfig(await readSimConfig(teamsDir, team), team);
}

function leadEntry(team: string, joinedAt: number, cwd: string): Record<string, unknown> {
  return {
    agentId: `${LEAD_NAME}@${team}`,
    name: LEAD_NAME,
    agentType: 'team-lead',
    joinedAt,
    tmuxPaneId: 'leader',
    cwd,
    subscriptions: [],
    backendType: 'in-process',
  };
}

function memberEntry(team: string, spec: SimMemberSpec, index: number, joinedAt: number, cwd: string): Record<string, unknown> {
  const backendType = spec.backendType ?? 'in-process';
  const entry: Record<string, unknown> = {
    agentId: `${spec.name}@${team}`,
    name: spec.name,
    agentType: spec.agentType ?? 'general-purpose',
    model: spec.model ?? MODELS[index % MODELS.length],
  };
  if (spec.prompt !== undefined) entry.prompt = spec.prompt;
  entry.color = spec.color ?? MEMBER_COLORS[index % MEMBER_COLORS.length];
  entry.planModeRequired = spec.planModeRequired ?? false;
  entry.joinedAt = spec.joinedAt ?? joinedAt;
  entry.tmuxPaneId = backendType === 'tmux' ? `%${index + 1}` : 'in-process';
  entry.cwd = cwd;
  entry.subscriptions = [];
  entry.backendType = backendType;
  entry.isActive = true;
  return entry;
}

const toSpec = (m: string | SimMemberSpec): SimMemberSpec => (typeof m === 'string' ? { name: m } : m);

/** Claude rewrites config.json under `config.json.lock` (proper-lockfile), pretty-printed. */
async function withConfigLock<T>(configPath: string, fn: () => Promise<T>): Promise<T> {
  const release = await claudeLock(configPath);
  try {
    return await fn();
  } finally {
    await release();
  }
}

async function writeConfig(configPath: string, config: Record<string, unknown>): Promise<void> {
  const tmp = `${configPath}.tmp.${randomBytes(4).toString('hex')}`;
  await writeFile(tmp, JSON.stringify(config, null, 2));
  await rename(tmp, configPath);
}

export async function readSimConfig(teamsDir: string, team: string): Promise<Record<string, unknown> | undefined> {
  try {
    const v: unknown = JSON.parse(await readFile(simTeamPaths(teamsDir, team).configPath, 'utf8'));
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Writes a fresh team. Legacy: config.json with the lead and the members, and an empty
 * inboxes/ folder. Current: what a 2.1.332 lead leaves once it has spawned the members (config
 * created, then members added under the lock; tasks/<team>/; sessions/<pid>.json): a snapshot
 * with no process behind it beyond `pid`. To run a lead, use startLead or startSimulation.
 */
export async function createTeam(opts: CreateTeamOptions): Promise<SimTeam> {
  const era = opts.era ?? eraOfName(opts.team);
  if (era === 'current') return createSessionTeam(opts);
  if (opts.team === undefined) throw new Error('a legacy team needs a name');
  return createLegacyTeam({ ...opts, team: opts.team });
}

async function createSessionTeam(opts: CreateTeamOptions): Promise<SimTeam> {
  const now = opts.now ?? Date.now;
  const sessionId = sessionIdFor(opts.team, opts.leadSessionId);
  const cwd = opts.cwd ?? process.cwd();
  const pid = opts.pid ?? process.pid;
  const createdAt = now();
  const t = await createSessionTeamConfig({ teamsDir: opts.teamsDir, sessionId, cwd, createdAt, pid });
  const specs = (opts.members ?? []).map(toSpec);
  for (const s of specs) {
    if (s.backendType === 'tmux') throw new Error(`${s.name}: the current-era simulator runs in-process teammates only`);
  }
  if (specs.length > 0) await spawnIntoConfig(t.configPath, specs, { now: () => createdAt, cwd });
  const session = new SessionFile({ teamsDir: opts.teamsDir, pid, sessionId, cwd, startedAt: createdAt, now });
  await session.start();
  await session.setStatus('idle');
  const config = (await readSimConfig(opts.teamsDir, t.id)) ?? t.config;
  const p = simTeamPaths(opts.teamsDir, t.id);
  return { id: t.id, name: t.id, dir: t.dir, configPath: t.configPath, inboxesDir: p.inboxesDir, config, era: 'current', leadSessionId: sessionId };
}

/** A session id whose first 8 characters give the team name asked for, or a random one. */
export function sessionIdFor(team: string | undefined, sessionId: string | undefined): string {
  if (team !== undefined && !SESSION_TEAM.test(team)) throw new Error(`current-era teams are named session-<8 hex>, not ${JSON.stringify(team)}`);
  if (sessionId !== undefined) {
    if (team !== undefined && !sessionId.startsWith(team.slice('session-'.length))) throw new Error(`session id ${sessionId} does not make team ${team}`);
    return sessionId;
  }
  const id = randomUUID();
  return team === undefined ? id : team.slice('session-'.length) + id.slice(8);
}

async function createLegacyTeam(opts: CreateTeamOptions & { team: string }): Promise<SimTeam> {
  const now = opts.now ?? Date.now;
  const p = simTeamPaths(opts.teamsDir, opts.team);
  const cwd = opts.cwd ?? process.cwd();
  await mkdir(p.inboxesDir, { recursive: true });
  const createdAt = now();
  const config: Record<string, unknown> = { name: opts.team };
  if (opts.description !== undefined) config.description = opts.description;
  config.createdAt = createdAt;
  config.leadAgentId = `${LEAD_NAME}@${opts.team}`;
  config.leadSessionId = opts.leadSessionId ?? randomUUID();
  config.members = [
    leadEntry(opts.team, createdAt, cwd),
    ...(opts.members ?? []).map(toSpec).map((s, i) => memberEntry(opts.team, s, i, createdAt, cwd)),
  ];
  await withConfigLock(p.configPath, () => writeConfig(p.configPath, config));
  return { id: p.id, name: opts.team, dir: p.dir, configPath: p.configPath, inboxesDir: p.inboxesDir, config, era: 'legacy', leadSessionId: config.leadSessionId as string };
}

/** Adds members missing from an existing config, as Claude does when it spawns a teammate. Returns the names added. */
export async function addMembers(
  teamsDir: string,
  team: string,
  members: (string | SimMemberSpec)[],
  opts: { now?: () => number; cwd?: string } = {},
): Promise<string[]> {
  const p = simTeamPaths(teamsDir, team);
  const current = await readSimConfig(teamsDir, team);
  if (eraOfConfig(current, team) === 'current') {
    // A 2.1.332 lead spawning: in-place update under the lock, names as Claude gives them.
    const have = new Set(configMembers(current).map((m) => m.name));
    const missing = members.map(toSpec).filter((s) => !have.has(s.name));
    if (missing.length === 0) return [];
    return spawnIntoConfig(p.configPath, missing, { now: opts.now ?? Date.now, cwd: opts.cwd ?? process.cwd() });
  }
  return withConfigLock(p.configPath, async () => {
    const config = JSON.parse(await readFile(p.configPath, 'utf8')) as Record<string, unknown>;
    const list = Array.isArray(config.members) ? (config.members as Record<string, unknown>[]) : [];
    const have = new Set(list.map((m) => m?.name));
    const teamName = typeof config.name === 'string' ? config.name : team;
    const added: string[] = [];
    for (const spec of members.map(toSpec)) {
      if (have.has(spec.name)) continue;
      // Colour and model continue the sequence of the members already there (the lead excluded).
      const index = list.filter((m) => m?.name !== LEAD_NAME).length;
      list.push(memberEntry(teamName, spec, index, (opts.now ?? Date.now)(), opts.cwd ?? process.cwd()));
      have.add(spec.name);
      added.push(spec.name);
    }
    if (added.length > 0) {
      config.members = list;
      await writeConfig(p.configPath, config);
    }
    return added;
  });
}

/** Non-lead member names in config order. */
export function configMemberNames(config: Record<string, unknown> | undefined): string[] {
  const list = Array.isArray(config?.members) ? (config.members as unknown[]) : [];
  return list
    .map((m) => (m && typeof m === 'object' ? (m as Record<string, unknown>) : {}))
    .filter((m) => typeof m.name === 'string' && m.name !== LEAD_NAME && m.agentType !== 'team-lead')
    .map((m) => m.name as string);
}

// ---------------------------------------------------------------------------------------------
// Members

export type MemberEvent =
  | { kind: 'started'; member: string; seed: number; mode: ConsumeMode; pollMs: number }
  | { kind: 'consumed'; member: string; messages: { from: string; text: string; timestamp: string; provenance?: Provenance }[] }
  | { kind: 'work'; member: string; from: string; ms: number }
  | { kind: 'replied'; member: string; to: string; text: string; summary: string }
  | { kind: 'no-reply'; member: string; from: string }
  | { kind: 'idle'; member: string }
  | { kind: 'shutdown'; member: string; requestId: string }
  | { kind: 'error'; member: string; message: string }
  | { kind: 'exit'; member: string; reason: MemberExit }
  // Current era only:
  /** A forged entry: delivered marked verified="false", or dropped unseen when it is a frame. */
  | { kind: 'unverified'; member: string; from: string; text: string; dropped: boolean }
  /** Entries that failed Claude's schema, deleted from the inbox. */
  | { kind: 'invalid'; member: string; count: number }
  /** A user row for what just entered the member's context is in its transcript. */
  | { kind: 'context'; member: string; transcript: string; from: string[] }
  /** Gone from config.json (~0.8 s after an approved shutdown). */
  | { kind: 'left'; member: string }
  /** The lead's team: made, or reclaimed by a new lead process. */
  | { kind: 'team'; member: string; team: string; dir: string; sessionId: string; pid: number; created: boolean }
  /** The lead ended cleanly and deleted its team folder (rename to .deleted-<uuid>, rm -rf). */
  | { kind: 'team-deleted'; member: string; team: string };

export type MemberExit = 'shutdown' | 'stopped';

export interface RunMemberOptions {
  teamsDir: string;
  /** The team name or folder name. */
  team: string;
  name: string;
  /** Default: the team's own era, read from its config. */
  era?: SimEra;
  /** 'prune' (Claude 2.1.19x) removes read messages; 'flag' (2.1.8x) marks them read:true. */
  mode?: ConsumeMode;
  /** Poll interval; Claude uses 500 ms for in-process teammates and 1000 ms for tmux ones. */
  pollMs?: number;
  /** How long each request "takes", picked uniformly in [min, max] ms. */
  workMs?: [number, number];
  /** Chance of answering a user request in user.json (default 1). */
  replyProbability?: number;
  seed?: number;
  /** Defaults from the member's config entry. */
  color?: string;
  paneId?: string;
  backendType?: string;
  /** Send an idle_notification as soon as the member starts, as a freshly spawned teammate does. */
  idleOnStart?: boolean;
  now?: () => number;
  onEvent?: (e: MemberEvent) => void;
  signal?: AbortSignal;
  // Current era only:
  /** What this simulated Claude process wrote (shared with the lead when the member runs in its process). */
  ledger?: Ledger;
  /** Continue this transcript (`a<name>-<16 hex>`); default: the member's latest one, or a new one. */
  agentId?: string;
  /** The spawn prompt: the member's first turn, from team-lead, whose result is its first idle_notification. */
  spawnPrompt?: { text: string; summary?: string; /** The first turn's final text, instead of one made from the prompt. */ answer?: string };
  /** Called as a turn starts and ends: a teammate's turn keeps the lead busy. */
  onTurn?: (member: string, busy: boolean) => void;
  /** The lead's prompt state, shared by a teammate running in its process (rows carry its promptId). */
  prompt?: PromptState;
  /** A lead in this process removes the member from config when it reads the approval; otherwise the member leaves by itself. */
  leadRemovesMember?: boolean;
  /** Without such a lead: approved shutdown to leaving config (default 800 ms). */
  leaveDelayMs?: number;
}

export interface MemberHandle {
  name: string;
  seed: number;
  /** Resolves when the member has exited, after its shutdown approval or stop(). */
  done: Promise<MemberExit>;
  stop(): Promise<MemberExit>;
}

function memberConfigEntry(config: Record<string, unknown> | undefined, name: string): Record<string, unknown> | undefined {
  const list = Array.isArray(config?.members) ? (config.members as unknown[]) : [];
  return list.find((m): m is Record<string, unknown> => !!m && typeof m === 'object' && (m as Record<string, unknown>).name === name);
}

/**
 * Runs one member as Claude's inbox poller, in its team's era (or `opts.era`): current-era
 * members are runTeammate's; legacy ones take their unread messages between turns, "work" on
 * each, answer the user in user.json, then report idle to the lead. A shutdown_request is
 * approved and ends the member.
 */
export function runMember(opts: RunMemberOptions): MemberHandle {
  const seed = opts.seed ?? randomSeed();
  const abort = new AbortController();
  if (opts.signal) {
    if (opts.signal.aborted) abort.abort();
    else opts.signal.addEventListener('abort', () => abort.abort(), { once: true });
  }
  const done = (async (): Promise<MemberExit> => {
    const era = opts.era ?? (await teamEra(opts.teamsDir, opts.team));
    const run = era === 'current' ? runTeammate : runLegacyMember;
    return run({ ...opts, seed, signal: abort.signal }).done;
  })();
  return {
    name: opts.name,
    seed,
    done,
    stop: () => {
      abort.abort();
      return done;
    },
  };
}

function runLegacyMember(opts: RunMemberOptions): MemberHandle {
  const seed = opts.seed ?? randomSeed();
  const rng: Rng = createRng(seed, opts.name);
  const mode = opts.mode ?? 'prune';
  const now = opts.now ?? Date.now;
  const emit = (e: MemberEvent) => {
    try {
      opts.onEvent?.(e);
    } catch {
      // a listener's failure must not kill the member
    }
  };
  const abort = new AbortController();
  if (opts.signal) {
    if (opts.signal.aborted) abort.abort();
    else opts.signal.addEventListener('abort', () => abort.abort(), { once: true });
  }
  const p = simTeamPaths(opts.teamsDir, opts.team);
  const own = p.inbox(opts.name);
  const isLead = opts.name === LEAD_NAME;

  const done = (async (): Promise<MemberExit> => {
    const entry = memberConfigEntry(await readSimConfig(opts.teamsDir, opts.team), opts.name);
    const color = opts.color ?? str(entry?.color);
    const backendType = opts.backendType ?? str(entry?.backendType) ?? 'in-process';
    const paneId = opts.paneId ?? str(entry?.tmuxPaneId) ?? 'in-process';
    const pollMs = opts.pollMs ?? (backendType === 'tmux' ? 1000 : 500);
    const [workMin, workMax] = opts.workMs ?? [300, 2000];
    const replyProbability = opts.replyProbability ?? 1;

    const envelope = (text: string, summary?: string): ClaudeMessage => {
      const m: ClaudeMessage = { from: opts.name, text, timestamp: new Date(now()).toISOString(), read: false };
      if (summary !== undefined) m.summary = summary;
      if (color !== undefined) m.color = color;
      return m;
    };
    const pause = async (ms: number) => {
      try {
        await sleep(ms, undefined, { signal: abort.signal });
      } catch {
        // aborted: the loop checks the signal
      }
    };
    /** Appends like Claude; a failed write is reported and retried a couple of times, never fatal. */
    const append = async (inbox: string, message: ClaudeMessage): Promise<boolean> => {
      for (let attempt = 0; ; attempt++) {
        try {
          await claudeAppend(inbox, message);
          return true;
        } catch (e) {
          emit({ kind: 'error', member: opts.name, message: `cannot write ${basename(inbox)}: ${(e as Error).message}` });
          if (attempt >= 2) return false;
          await pause(50 * (attempt + 1));
        }
      }
    };
    const toLead = (frame: Record<string, unknown>) => append(p.inbox(LEAD_NAME), envelope(JSON.stringify(frame)));
    const sendIdle = () =>
      toLead({ type: 'idle_notification', from: opts.name, timestamp: new Date(now()).toISOString(), idleReason: 'available' });

    emit({ kind: 'started', member: opts.name, seed, mode, pollMs });
    if (opts.idleOnStart && !isLead) {
      await sendIdle();
      emit({ kind: 'idle', member: opts.name });
    }

    while (!abort.signal.aborted) {
      let batch: ClaudeMessage[];
      try {
        batch = await claudeConsume(own, mode);
      } catch (e) {
        // A busy lock or a vanished folder: Claude just tries again at the next poll.
        emit({ kind: 'error', member: opts.name, message: (e as Error).message });
        await pause(pollMs);
        continue;
      }
      if (batch.length > 0) {
        emit({ kind: 'consumed', member: opts.name, messages: batch.map((m) => ({ from: m.from, text: m.text, timestamp: m.timestamp })) });
      }
      let worked = false;
      for (const msg of batch) {
        if (abort.signal.aborted) break;
        const frame = frameOf(String(msg.text));
        if (frame) {
          if (frame.type === 'shutdown_request' && !isLead) {
            const requestId = str(frame.requestId) ?? '';
            await toLead({
              type: 'shutdown_approved',
              requestId,
              from: opts.name,
              timestamp: new Date(now()).toISOString(),
              paneId,
              backendType,
            });
            emit({ kind: 'shutdown', member: opts.name, requestId });
            emit({ kind: 'exit', member: opts.name, reason: 'shutdown' });
            return 'shutdown';
          }
          // Other frames (idle notifications to the lead, approvals...) need no turn here.
          continue;
        }
        const ms = rng.int(workMin, workMax);
        emit({ kind: 'work', member: opts.name, from: msg.from, ms });
        await pause(ms);
        if (abort.signal.aborted) break;
        worked = true;
        const replies = rng.chance(replyProbability);
        const detail = rng.pick(DETAILS);
        // Only the user gets an answer: answering teammates would let two simulated members loop forever.
        if (msg.from !== USER_NAME) continue;
        if (!replies) {
          emit({ kind: 'no-reply', member: opts.name, from: msg.from });
          continue;
        }
        const text = answerText(String(msg.text), detail);
        const summary = answerSummary(String(msg.text));
        if (!(await append(p.inbox(USER_NAME), envelope(text, summary)))) continue;
        emit({ kind: 'replied', member: opts.name, to: USER_NAME, text, summary });
      }
      if (worked && !isLead && !abort.signal.aborted) {
        await sendIdle();
        emit({ kind: 'idle', member: opts.name });
      }
      await pause(pollMs);
    }
    emit({ kind: 'exit', member: opts.name, reason: 'stopped' });
    return 'stopped';
  })();

  return {
    name: opts.name,
    seed,
    done,
    stop: () => {
      abort.abort();
      return done;
    },
  };
}
