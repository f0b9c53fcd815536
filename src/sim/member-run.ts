// What running one simulated member takes and tells: its options, the events it reports, and the
// handle that stops it. Shared by both eras' members (legacy-member.ts, teammate.ts) and runMember.
import type { ConsumeMode } from './claude-inbox.js';
import { simTeamPaths, type SimEra } from './claude-paths.js';
import type { Ledger, Provenance } from './provenance.js';
import type { PromptState } from './transcript.js';

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

/** An abort signal of the member's own that follows the caller's (if it gave one). */
export function ownAbort(signal: AbortSignal | undefined): AbortController {
  const abort = new AbortController();
  if (signal) {
    if (signal.aborted) abort.abort();
    else signal.addEventListener('abort', () => abort.abort(), { once: true });
  }
  return abort;
}

/**
 * What every simulated member starts with: a way to report its events (a listener's failure
 * never kills the member), its abort signal, its team's paths and its own inbox.
 */
export function memberStart(opts: RunMemberOptions) {
  const emit = (e: MemberEvent) => {
    try {
      opts.onEvent?.(e);
    } catch {
      // a listener's failure must not kill the member
    }
  };
  const paths = simTeamPaths(opts.teamsDir, opts.team);
  return { emit, abort: ownAbort(opts.signal), paths, own: paths.inbox(opts.name) };
}

/** The handle of a member whose run is `done`; stop() aborts it and waits for its end. */
export function memberHandle(name: string, seed: number, done: Promise<MemberExit>, abort: AbortController): MemberHandle {
  return {
    name,
    seed,
    done,
    stop: () => {
      abort.abort();
      return done;
    },
  };
}
