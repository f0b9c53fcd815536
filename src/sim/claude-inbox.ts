// An independent re-implementation of how Claude Code itself writes and consumes an inbox
// (docs/claude-contract.md#inbox-entries, #inbox-writes, #inbox-reads). The simulator and the
// interop tests use it as "the other side"; it deliberately shares no code with the core's writer,
// so the two are checked against each other rather than against themselves.
// claudeAppend/claudeConsume are the legacy era; claudeEntry/claudeSend/claudeTake are Claude Code
// 2.1.332.
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { randomBytes, randomUUID } from 'node:crypto';
import { dirname, join } from 'node:path';
import { inboxFileStem } from './claude-paths.js';
import lockfile from 'proper-lockfile';
import { exists } from './fs-exists.js';

export interface ClaudeMessage {
  from: string;
  text: string;
  timestamp: string;
  read: boolean;
  summary?: string;
  color?: string;
  [k: string]: unknown;
}

export type ConsumeMode = 'prune' | 'flag';

/** proper-lockfile as Claude Code uses it, on inboxes and on config.json alike. */
export function claudeLock(path: string): Promise<() => Promise<void>> {
  return lockfile.lock(path, {
    lockfilePath: `${path}.lock`,
    stale: 10_000,
    retries: { retries: 10, minTimeout: 5, maxTimeout: 100 },
    realpath: false,
  });
}

async function withClaudeLock<T>(path: string, fn: () => Promise<T>): Promise<T> {
  await mkdir(dirname(path), { recursive: true });
  try {
    await writeFile(path, '[]', { flag: 'wx' });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
  }
  const release = await claudeLock(path);
  try {
    return await fn();
  } finally {
    await release();
  }
}

/** Claude treats a file that does not parse as an empty inbox. */
async function readLikeClaude(path: string): Promise<ClaudeMessage[]> {
  try {
    const v: unknown = JSON.parse(await readFile(path, 'utf8'));
    return Array.isArray(v) ? (v as ClaudeMessage[]) : [];
  } catch {
    return [];
  }
}

/** Claude's current writer: temp file + rename, no fsync. */
async function writeLikeClaude(path: string, messages: ClaudeMessage[]): Promise<void> {
  const tmp = `${path}.tmp.${randomBytes(4).toString('hex')}`;
  await writeFile(tmp, JSON.stringify(messages, null, 2));
  await rename(tmp, path);
}

export async function claudeAppend(path: string, message: ClaudeMessage): Promise<void> {
  await withClaudeLock(path, async () => {
    const all = await readLikeClaude(path);
    all.push(message);
    await writeLikeClaude(path, all);
  });
}

/** Takes the unread messages; prune removes every read message, flag marks them read in place. */
export async function claudeConsume(path: string, mode: ConsumeMode): Promise<ClaudeMessage[]> {
  return withClaudeLock(path, async () => {
    const all = await readLikeClaude(path);
    const unread = all.filter((m) => !m.read);
    if (unread.length === 0 && (mode === 'flag' || all.length === 0)) return [];
    const next = mode === 'prune' ? [] : all.map((m) => ({ ...m, read: true }));
    await writeLikeClaude(path, next);
    return unread;
  });
}

// ---------------------------------------------------------------------------------------------
// Current era (2.1.332): strict entries with an id, a writer that never recreates a deleted
// team, and a reader that prunes what it took and deletes what fails the schema.

/** A message as Claude 2.1.332 writes it, keys in its order (absent optionals omitted). */
export function claudeEntry(fields: { from: string; text: string; summary?: string; timestamp?: string; color?: string }): ClaudeMessage {
  const e: Record<string, unknown> = { from: fields.from, text: fields.text };
  if (fields.summary !== undefined) e.summary = fields.summary;
  e.timestamp = fields.timestamp ?? new Date().toISOString();
  if (fields.color !== undefined) e.color = fields.color;
  e.msgV = 1;
  e.msg_id = randomUUID();
  e.type = 'message';
  e.read = false;
  return e as ClaudeMessage;
}

/** Claude's entry schema: required strings, optional strings and boolean; `null` is never valid. */
export function isClaudeEntry(v: unknown): v is ClaudeMessage {
  if (!v || typeof v !== 'object' || Array.isArray(v)) return false;
  const e = v as Record<string, unknown>;
  for (const k of ['from', 'text', 'timestamp']) if (typeof e[k] !== 'string') return false;
  for (const k of ['type', 'color', 'summary', 'from_plugin']) if (k in e && typeof e[k] !== 'string') return false;
  if ('read' in e && typeof e.read !== 'boolean') return false;
  return true;
}

export class TeamGoneError extends Error {
  constructor(teamDir: string) {
    super(`the team's config.json is gone (${teamDir}): Claude never writes into a deleted team`);
    this.name = 'TeamGoneError';
  }
}


/**
 * Claude 2.1.332's write (docs/claude-contract.md#inbox-writes): only while config.json exists;
 * inboxes/ made without recreating the team folder; file created `wx`; locked re-read, push, temp +
 * rename; and if the team vanished meanwhile, the inbox is removed again.
 */
export async function claudeSend(teamDir: string, member: string, message: ClaudeMessage): Promise<void> {
  if (!isClaudeEntry(message)) throw new Error('refused: the message does not pass Claude\'s entry schema');
  const configPath = join(teamDir, 'config.json');
  if (!(await exists(configPath))) throw new TeamGoneError(teamDir);
  const inboxes = join(teamDir, 'inboxes');
  try {
    // Not recursive: if the team folder is gone this fails instead of making a ghost team.
    await mkdir(inboxes);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new TeamGoneError(teamDir);
    if (code !== 'EEXIST') throw e;
  }
  const path = join(inboxes, `${inboxFileStem(member)}.json`);
  try {
    await writeFile(path, '[]', { flag: 'wx' });
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new TeamGoneError(teamDir);
    if (code !== 'EEXIST') throw e;
  }
  const release = await claudeLock(path);
  try {
    const all = await readLikeClaude(path);
    all.push(message);
    const tmp = `${path}.tmp.${randomBytes(4).toString('hex')}`;
    await writeFile(tmp, JSON.stringify(all, null, 2), { flag: 'wx' });
    await rename(tmp, path);
  } finally {
    // As Claude's lockfile: a lock that cannot be removed goes stale and is taken over.
    await release().catch(() => undefined);
  }
  if (!(await exists(configPath))) {
    await rm(path, { force: true });
    throw new TeamGoneError(teamDir);
  }
}

export interface TakeResult {
  /** Valid, unread entries in file order: one turn's worth. */
  messages: ClaudeMessage[];
  /** Entries deleted because they failed the schema (a null or ill-typed field). */
  invalid: unknown[];
  /** The one entry `first` picked, taken alone: everything else was left in the file. */
  alone?: boolean;
}

/**
 * Claude 2.1.332's poll and prune (docs/claude-contract.md#inbox-entries, #inbox-reads): a look
 * without the lock; then, only if there is something to take or to clean, under the lock: keep what
 * is neither `read:true` nor in the batch, delete invalid entries, rewrite a non-array to `[]`.
 * Unparseable text reads as empty and is left for the next write. A missing file is not created. An
 * entry `first` picks (a shutdown request from the lead) jumps the queue: it is taken alone and the
 * rest stay unread, as Claude's markSingleMessageAsRead does.
 */
export async function claudeTake(path: string, first?: (m: ClaudeMessage) => boolean): Promise<TakeResult> {
  const none: TakeResult = { messages: [], invalid: [] };
  const look = await parseInbox(path);
  if (look === 'missing' || look === 'unparseable') return none;
  if (Array.isArray(look) && look.length === 0) return none;
  const release = await claudeLock(path);
  try {
    const v = await parseInbox(path);
    if (v === 'missing' || v === 'unparseable') return none;
    const tmp = `${path}.tmp.${randomBytes(4).toString('hex')}`;
    if (!Array.isArray(v)) {
      await writeFile(tmp, '[]', { flag: 'wx' });
      await rename(tmp, path);
      return none;
    }
    if (v.length === 0) return none;
    const jump = first ? v.find((e): e is ClaudeMessage => isClaudeEntry(e) && e.read !== true && first(e)) : undefined;
    if (jump) {
      await writeFile(tmp, JSON.stringify(v.filter((e) => e !== jump), null, 2), { flag: 'wx' });
      await rename(tmp, path);
      return { messages: [jump], invalid: [], alone: true };
    }
    const invalid = v.filter((e) => !isClaudeEntry(e));
    const messages = v.filter((e): e is ClaudeMessage => isClaudeEntry(e) && e.read !== true);
    // Taken entries, read:true ones and invalid ones all go: nothing is left under this lock.
    await writeFile(tmp, JSON.stringify([], null, 2), { flag: 'wx' });
    await rename(tmp, path);
    return { messages, invalid };
  } finally {
    // As Claude's lockfile: a lock that cannot be removed goes stale and is taken over.
    await release().catch(() => undefined);
  }
}

/** Valid unread entries waiting, without taking them (a look without the lock). */
export async function claudeLook(path: string): Promise<ClaudeMessage[]> {
  const v = await parseInbox(path);
  return Array.isArray(v) ? v.filter((e): e is ClaudeMessage => isClaudeEntry(e) && e.read !== true) : [];
}

/** Whether a take would find anything to take or to clean (entries of any kind, or a non-array). */
export async function claudeHasWork(path: string): Promise<boolean> {
  const v = await parseInbox(path);
  if (v === 'missing' || v === 'unparseable') return false;
  return !Array.isArray(v) || v.length > 0;
}

async function parseInbox(path: string): Promise<unknown | 'missing' | 'unparseable'> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return 'missing';
    throw e;
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return 'unparseable';
  }
}
