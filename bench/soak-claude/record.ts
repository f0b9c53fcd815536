// What the soak did and saw happen, as the account reads it: every send and its answer, each
// team's life and how it ended, each member shutdown, each engine kill with what the journal
// held at that instant, each foreign lock spell, and the journal folds. All times are Date.now()
// on this machine, the same clock as the engine's journal and the stand-in's request log.

export type EndKind = 'exit' | 'sigterm' | 'sigkill';
export type Channel = 'inbox' | 'terminal';

/** Why a send was made: the steady stream, or one of the provocations around a crash or an end. */
export type Purpose = 'stream' | 'shutdown' | 'after-write' | 'held' | 'after-end' | 'after-shutdown' | 'to-gone';

export interface SendRecord {
  seq: number;
  team: string;
  to: string;
  channel: Channel;
  /** `cli`: a `teamdeck send` process; `socket`: a call on the engine's socket (to land within milliseconds). */
  via: 'cli' | 'socket';
  purpose: Purpose;
  /** Sent without waiting for the one before it to the same target (its order is Teamdeck's pick). */
  unordered?: boolean;
  text: string;
  startedAt: number;
  endedAt?: number;
  /** The command's exit code (cli). */
  code?: number | null;
  /** The answer, when there was one. */
  id?: string;
  status?: 'accepted' | 'queued' | 'undeliverable';
  /** The refusal or the failure, in Teamdeck's words. */
  error?: string;
}

export interface Shutdown {
  member: string;
  requestedAt: number;
  /** When the member's shutdown_approved was first seen in the lead's inbox. */
  approvedAt?: number;
}

export interface TeamLife {
  team: string;
  pid: number;
  terminal: string;
  launchedAt: number;
  teammates: string[];
  /** The team folder's inode when it was made: a folder of that name with another inode was made again. */
  folderIno?: number;
  shutdowns: Shutdown[];
  end?: {
    kind: EndKind;
    /** The kind asked for (an /exit that was not taken becomes a SIGTERM). */
    requested: EndKind;
    at: number;
    /** Whether the engine was down while the lead ended (the next engine finds out at start). */
    engineDown: boolean;
    leadGoneAt?: number;
    folderGoneAt?: number;
    /** When `teamdeck teams` first showed the team ended. */
    shownEndedAt?: number;
    /** When a folder of the team's name was found again after Claude removed it (or with another inode). */
    folderBackAt?: number;
  };
}

export interface KillRecord {
  n: number;
  at: number;
  why: 'random' | 'mid-send' | 'after-write' | 'before-end';
  /** Seqs the journal held as not yet delivered (nor undeliverable) right after the kill. */
  pending: number[];
  /** Terminal messages among them whose typing had begun (an `attempt` record). */
  attempted: number[];
  /** Inbox lock folders left behind (none of them the soak's own). */
  staleLocks: string[];
}

export interface LockSpell {
  team: string;
  member: string;
  from: number;
  to?: number;
  why: 'spell' | 'held' | 'after-shutdown';
}

export interface Folds {
  ok: number;
  failed: number;
  tornTails: number;
  failures: string[];
}

export interface Happened {
  seed: number;
  seconds: number;
  startedAt: number;
  streamEndedAt: number;
  sends: SendRecord[];
  lives: TeamLife[];
  kills: KillRecord[];
  spells: LockSpell[];
  folds: Folds;
  /** Things that went wrong in the soak itself (not verdicts on Teamdeck). */
  notes: string[];
}
