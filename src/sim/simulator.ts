// A Claude-compatible Agent Team on disk: a config.json written the way Claude writes it, and
// members that poll their own inbox, "work", answer the user in inboxes/user.json, go idle and
// approve shutdown requests. Every inbox write goes through claude-inbox.ts (Claude's own
// algorithm), never through the core, so the app is exercised against "the other side".
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { randomBytes, randomUUID } from 'node:crypto';
import { basename, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { claudeAppend, claudeConsume, claudeLock, type ClaudeMessage, type ConsumeMode } from './claude-inbox.js';
import { createRng, randomSeed, type Rng } from './prng.js';
import { inboxFileStem, teamDirName } from '../main/core/claude/paths.js';

export const LEAD_NAME = 'team-lead';
export const USER_NAME = 'user';

/** Claude hands teammates colours from this list, in this order. */
export const MEMBER_COLORS = ['blue', 'green', 'yellow', 'purple', 'orange', 'pink', 'cyan', 'red'] as const;
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
  /** The team name; its folder is teamDirName(name), as Claude derives it. */
  team: string;
  description?: string;
  members?: (string | SimMemberSpec)[];
  cwd?: string;
  /** ms since epoch, for createdAt and joinedAt. */
  now?: () => number;
  leadSessionId?: string;
}

export interface SimTeam {
  /** The folder name under the teams root. */
  id: string;
  name: string;
  dir: string;
  configPath: string;
  inboxesDir: string;
  config: Record<string, unknown>;
}

export function simTeamPaths(teamsDir: string, team: string) {
  const id = teamDirName(team);
  const dir = join(teamsDir, id);
  return {
    id,
    dir,
    configPath: join(dir, 'config.json'),
    inboxesDir: join(dir, 'inboxes'),
    inbox: (member: string) => join(dir, 'inboxes', `${inboxFileStem(member)}.json`),
  };
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

/** Writes a fresh team: config.json with the lead and the members, and an empty inboxes/ folder. */
export async function createTeam(opts: CreateTeamOptions): Promise<SimTeam> {
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
  return { id: p.id, name: opts.team, dir: p.dir, configPath: p.configPath, inboxesDir: p.inboxesDir, config };
}

/** Adds members missing from an existing config, as Claude does when it spawns a teammate. Returns the names added. */
export async function addMembers(
  teamsDir: string,
  team: string,
  members: (string | SimMemberSpec)[],
  opts: { now?: () => number; cwd?: string } = {},
): Promise<string[]> {
  const p = simTeamPaths(teamsDir, team);
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
  | { kind: 'consumed'; member: string; messages: { from: string; text: string; timestamp: string }[] }
  | { kind: 'work'; member: string; from: string; ms: number }
  | { kind: 'replied'; member: string; to: string; text: string; summary: string }
  | { kind: 'no-reply'; member: string; from: string }
  | { kind: 'idle'; member: string }
  | { kind: 'shutdown'; member: string; requestId: string }
  | { kind: 'error'; member: string; message: string }
  | { kind: 'exit'; member: string; reason: MemberExit };

export type MemberExit = 'shutdown' | 'stopped';

export interface RunMemberOptions {
  teamsDir: string;
  /** The team name or folder name. */
  team: string;
  name: string;
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
}

export interface MemberHandle {
  name: string;
  seed: number;
  /** Resolves when the member has exited, after its shutdown approval or stop(). */
  done: Promise<MemberExit>;
  stop(): Promise<MemberExit>;
}

const DETAILS = [
  '',
  ' All tests pass.',
  ' Notes are in the task file.',
  ' Two edge cases left for review.',
  ' Nothing else changed.',
  ' Ready for the next step.',
] as const;

function firstWords(text: string, n: number): string {
  const words = text.trim().split(/\s+/).filter(Boolean);
  const head = words.slice(0, n).join(' ');
  return words.length > n ? `${head}…` : head;
}

/** A plain text that parses as a JSON object with a string `type`: a protocol frame. */
function frameOf(text: string): Record<string, unknown> | undefined {
  const t = text.trim();
  if (!t.startsWith('{')) return undefined;
  try {
    const v: unknown = JSON.parse(t);
    if (v && typeof v === 'object' && !Array.isArray(v) && typeof (v as Record<string, unknown>).type === 'string') {
      return v as Record<string, unknown>;
    }
  } catch {
    // not JSON: an ordinary message
  }
  return undefined;
}

function memberConfigEntry(config: Record<string, unknown> | undefined, name: string): Record<string, unknown> | undefined {
  const list = Array.isArray(config?.members) ? (config.members as unknown[]) : [];
  return list.find((m): m is Record<string, unknown> => !!m && typeof m === 'object' && (m as Record<string, unknown>).name === name);
}

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/**
 * Runs one member as Claude's inbox poller: between turns it takes its unread messages,
 * "works" on each, answers the user, then reports idle to the lead. A shutdown_request is
 * approved and ends the member.
 */
export function runMember(opts: RunMemberOptions): MemberHandle {
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
        const head = firstWords(String(msg.text), 8);
        const text = `Done: ${head}${/[.!?…]$/.test(head) ? '' : '.'}${detail}`;
        const summary = `Done: ${firstWords(String(msg.text), 4)}`;
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
