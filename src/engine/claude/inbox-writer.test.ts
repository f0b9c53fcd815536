import { existsSync, statSync, watch } from 'node:fs';
import { copyFile, lstat, mkdir, readdir, readFile, stat, symlink, utimes, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { childrenPerTest, type TsChild } from '../../../test/helpers/child.js';
import { CAPTURED_DIR, REPO_ROOT, useTempDirs } from '../../../test/helpers/tmp.js';
import { claudeConsume } from '../../sim/claude-inbox.js';
import { AdmissionError, appendToArrayText, appendToInbox, claudeLockOptions, ensureInbox, modifyInbox, userInboxEntry, type InboxEntry } from './inbox-writer.js';

const tempDir = useTempDirs();
const TS = '2026-02-17T15:30:00.000Z';
const HOLD_LOCK = join(REPO_ROOT, 'test', 'helpers', 'hold-lock.ts');

/** An inbox path inside an existing team folder (the writer never makes the team folder itself). */
async function inboxIn(dir: string, owner = 'researcher'): Promise<string> {
  await mkdir(join(dir, 'my-team'), { recursive: true });
  return join(dir, 'my-team', 'inboxes', `${owner}.json`);
}
async function entriesOf(path: string): Promise<Record<string, unknown>[]> {
  return JSON.parse(await readFile(path, 'utf8')) as Record<string, unknown>[];
}
async function rejection(p: Promise<unknown>): Promise<AdmissionError> {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(AdmissionError);
    return e as AdmissionError;
  }
  throw new Error('expected the write to be refused');
}

describe('userInboxEntry', () => {
  it('has the documented shape and field order', () => {
    const e = userInboxEntry('id-1', 'Please rerun the tests', TS, 'Rerun');
    expect(e).toEqual({ from: 'user', text: 'Please rerun the tests', summary: 'Rerun', timestamp: TS, read: false, type: 'message', msgV: 1, msg_id: 'id-1', messageId: 'id-1' });
    expect(Object.keys(e)).toEqual(['from', 'text', 'summary', 'timestamp', 'read', 'type', 'msgV', 'msg_id', 'messageId']);
  });

  it('leaves summary out when there is none', () => {
    expect(Object.keys(userInboxEntry('id-1', 'hi', TS))).toEqual(['from', 'text', 'timestamp', 'read', 'type', 'msgV', 'msg_id', 'messageId']);
    expect('summary' in userInboxEntry('id-1', 'hi', TS, '')).toBe(false);
  });
});

describe('claudeLockOptions', () => {
  it('uses proper-lockfile exactly as Claude does on inboxes', () => {
    expect(claudeLockOptions('/t/inboxes/a.json')).toEqual({
      lockfilePath: '/t/inboxes/a.json.lock',
      stale: 10_000,
      retries: { retries: 10, minTimeout: 5, maxTimeout: 100 },
      realpath: false,
    });
  });
});

describe('ensureInbox (Claude steps 1-2)', () => {
  it('creates the inboxes folder and the file as [] exactly', async () => {
    const path = await inboxIn(await tempDir());
    await ensureInbox(path);
    expect(await readFile(path, 'utf8')).toBe('[]');
  });

  it('never creates the team folder: a team Claude removed stays removed (ENOENT, nothing made)', async () => {
    const dir = await tempDir();
    const path = join(dir, 'gone-team', 'inboxes', 'researcher.json');
    await expect(ensureInbox(path)).rejects.toMatchObject({ code: 'ENOENT' });
    expect(await readdir(dir)).toEqual([]);
    await expect(appendToInbox(path, userInboxEntry('id-1', 'hello', TS))).rejects.toMatchObject({ code: 'ENOENT' });
    expect(await readdir(dir)).toEqual([]);
  });

  it('never truncates an existing inbox (exclusive create; EEXIST is fine)', async () => {
    const path = await inboxIn(await tempDir());
    await mkdir(dirname(path), { recursive: true });
    const content = JSON.stringify([{ from: 'a', text: 'keep me', timestamp: TS, read: false }], null, 2);
    await writeFile(path, content);
    await ensureInbox(path);
    expect(await readFile(path, 'utf8')).toBe(content);
  });

  it('survives many concurrent creators', async () => {
    const path = await inboxIn(await tempDir());
    await Promise.all(Array.from({ length: 20 }, () => ensureInbox(path)));
    expect(await readFile(path, 'utf8')).toBe('[]');
  });

  it('refuses to write through a symbolic link, permanently', async () => {
    const dir = await tempDir();
    const path = await inboxIn(dir);
    await mkdir(dirname(path), { recursive: true });
    await writeFile(join(dir, 'elsewhere.json'), '[]');
    await symlink(join(dir, 'elsewhere.json'), path);
    const e = await rejection(ensureInbox(path));
    expect([e.temporary, e.code]).toEqual([false, 'ELOOP']);
  });
});

describe('appendToInbox: writing', () => {
  it('creates the inbox and writes one entry as 2-space pretty JSON', async () => {
    const path = await inboxIn(await tempDir());
    const entry = userInboxEntry('id-1', 'hello', TS, 'greeting');
    expect(await appendToInbox(path, entry)).toMatchObject({ duplicate: false });
    const text = await readFile(path, 'utf8');
    expect(text).toBe(JSON.stringify([entry], null, 2));
    expect(text).toMatch(/^\[\n {2}\{\n {4}"from": "user",\n {4}"text": "hello",\n {4}"summary": "greeting",\n {4}"timestamp"/);
    expect(await entriesOf(path)).toEqual([{ from: 'user', text: 'hello', summary: 'greeting', timestamp: TS, read: false, type: 'message', msgV: 1, msg_id: 'id-1', messageId: 'id-1' }]);
  });

  it('treats a blank file (an inbox caught mid-creation) as an empty inbox', async () => {
    const path = await inboxIn(await tempDir());
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, '');
    const entry = userInboxEntry('id-1', 'hello', TS);
    expect(await appendToInbox(path, entry)).toMatchObject({ duplicate: false, count: 1 });
    expect(await readFile(path, 'utf8')).toBe(JSON.stringify([entry], null, 2));
  });

  it('appends at the end, in call order', async () => {
    const path = await inboxIn(await tempDir());
    for (let i = 0; i < 5; i++) await appendToInbox(path, userInboxEntry(`id-${i}`, `m${i}`, TS));
    expect((await entriesOf(path)).map((e) => e.text)).toEqual(['m0', 'm1', 'm2', 'm3', 'm4']);
  });

  it('leaves no *.tmp.* file and no lock behind', async () => {
    const path = await inboxIn(await tempDir());
    for (let i = 0; i < 20; i++) await appendToInbox(path, userInboxEntry(`id-${i}`, `m${i}`, TS), { fsync: i % 2 === 0 });
    expect(await readdir(dirname(path))).toEqual(['researcher.json']);
  });

  it('keeps entries it does not understand, and every field of the ones it does', async () => {
    const path = await inboxIn(await tempDir());
    await mkdir(dirname(path), { recursive: true });
    const foreign = [
      42,
      'a string',
      null,
      ['nested'],
      { weird: true },
      { from: 'researcher', text: 'read already', timestamp: TS, read: true, color: 'blue', msgV: 2, futureField: { a: [1, 2] } },
      { from: 'tester', text: 'unread', timestamp: TS, read: false },
    ];
    await writeFile(path, JSON.stringify(foreign, null, 2));
    const entry = userInboxEntry('id-1', 'mine', TS);
    expect(await appendToInbox(path, entry)).toMatchObject({ duplicate: false });
    expect(await readFile(path, 'utf8')).toBe(JSON.stringify([...foreign, entry], null, 2));
  });

  it('leaves a captured Claude inbox byte-for-byte as it was, plus the new entry', async () => {
    const path = await inboxIn(await tempDir(), 'team-lead');
    await mkdir(dirname(path), { recursive: true });
    await copyFile(join(CAPTURED_DIR, 'teams-final', 'analysis-team', 'inboxes', 'team-lead.json'), path);
    const before = await readFile(path, 'utf8');
    const entry = userInboxEntry('id-1', 'Thanks all', TS);
    await appendToInbox(path, entry);
    const after = await readFile(path, 'utf8');
    expect(after.startsWith(before.slice(0, -2))).toBe(true);
    expect(after).toBe(JSON.stringify([...(JSON.parse(before) as unknown[]), entry], null, 2));
  });

  it('holds the lock directory <inbox>.json.lock while it reads and writes', async () => {
    const path = await inboxIn(await tempDir());
    const seen = await modifyInbox(path, (entries) => ({
      entries: [...entries, userInboxEntry('id-1', 'x', TS)],
      result: existsSync(`${path}.lock`) && statSync(`${path}.lock`).isDirectory(),
    }));
    expect(seen).toBe(true);
    expect(existsSync(`${path}.lock`)).toBe(false);
  });

  // inotify reports events in order; other platforms may coalesce them.
  it.runIf(process.platform === 'linux')('appendToInbox takes the lock before its temp file appears and drops it after the rename', async () => {
    const path = await inboxIn(await tempDir());
    await ensureInbox(path);
    const events: string[] = [];
    const w = watch(dirname(path), (_e, name) => name && events.push(String(name)));
    await new Promise((r) => setTimeout(r, 20));
    await appendToInbox(path, userInboxEntry('id-1', 'x', TS));
    await new Promise((r) => setTimeout(r, 50));
    w.close();
    const kind = (n: string) => (n.endsWith('.lock') ? 'lock' : n.includes('.tmp.') ? 'tmp' : n === 'researcher.json' ? 'inbox' : 'other');
    const seq = events.map(kind);
    const firstLock = seq.indexOf('lock');
    const lastLock = seq.lastIndexOf('lock');
    expect(firstLock).toBeGreaterThanOrEqual(0);
    expect(seq.indexOf('tmp')).toBeGreaterThan(firstLock);
    expect(seq.lastIndexOf('inbox')).toBeLessThan(lastLock);
    expect(seq.lastIndexOf('tmp')).toBeLessThan(lastLock);
    expect(existsSync(`${path}.lock`)).toBe(false);
  });

  it('leaves the file alone when the change returns no entries', async () => {
    const path = await inboxIn(await tempDir());
    await ensureInbox(path);
    const before = await stat(path);
    await new Promise((r) => setTimeout(r, 20));
    expect(await modifyInbox(path, () => ({ result: 'nothing' }))).toBe('nothing');
    expect((await stat(path)).mtimeMs).toBe(before.mtimeMs);
  });

  it('refuses an inbox that is a symbolic link, permanently, leaving its target alone', async () => {
    const dir = await tempDir();
    const path = await inboxIn(dir);
    await mkdir(dirname(path), { recursive: true });
    await writeFile(join(dir, 'elsewhere.json'), '[]');
    await symlink(join(dir, 'elsewhere.json'), path);
    const e = await rejection(appendToInbox(path, userInboxEntry('id-1', 'x', TS)));
    expect([e.temporary, e.code]).toEqual([false, 'ELOOP']);
    expect(await readFile(join(dir, 'elsewhere.json'), 'utf8')).toBe('[]');
  });

  it('fails as temporary when the inboxes folder cannot be created, changing nothing', async () => {
    const dir = await tempDir();
    await mkdir(join(dir, 'my-team'));
    await writeFile(join(dir, 'my-team', 'inboxes'), 'a file in the way');
    const e = await rejection(appendToInbox(await inboxIn(dir), userInboxEntry('id-1', 'x', TS)));
    expect(e.temporary).toBe(true);
    expect(await readFile(join(dir, 'my-team', 'inboxes'), 'utf8')).toBe('a file in the way');
  });
});

describe('appendToArrayText (append without re-serializing what is there)', () => {
  const e1 = userInboxEntry('id-1', 'one', TS);
  const e2 = userInboxEntry('id-2', 'two', TS, 's');

  it("produces exactly Claude's JSON.stringify(array, null, 2) for a file in Claude's format", () => {
    const old = [{ from: 'a', text: 'x', timestamp: TS, read: true, nested: { deep: [1, { k: 'v' }] } }];
    expect(appendToArrayText(Buffer.from('[]'), [e1]).toString()).toBe(JSON.stringify([e1], null, 2));
    expect(appendToArrayText(Buffer.from(JSON.stringify(old, null, 2)), [e1, e2]).toString()).toBe(JSON.stringify([...old, e1, e2], null, 2));
  });

  it.each([
    ['compact', '[1,"two",{"x":[]}]', [1, 'two', { x: [] }]],
    ['spaced empty', '[ \n ]', []],
    ['trailing whitespace', '[1]\n\n', [1]],
    ['nested-empty', '[[]]', [[]]],
    ['BOM-prefixed', '\uFEFF[1]', [1]],
  ])('keeps a %s array valid', (_label, text, before) => {
    const out = appendToArrayText(Buffer.from(text), [e1]).toString('utf8');
    expect(JSON.parse(out)).toEqual([...before, e1]);
  });

  it('refuses text that is not an array', () => {
    expect(() => appendToArrayText(Buffer.from('{"a":1}'), [e1])).toThrow();
    expect(() => appendToArrayText(Buffer.from(''), [e1])).toThrow();
  });
});

describe('appendToInbox: what Claude reads back', () => {
  it('drops a byte-order mark, so Claude (which cannot parse one) sees the messages', async () => {
    const path = await inboxIn(await tempDir());
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, '\uFEFF' + JSON.stringify([{ from: 'tester', text: 'older', timestamp: TS, read: false }], null, 2));
    await appendToInbox(path, userInboxEntry('id-1', 'mine', TS));
    expect((await readFile(path))[0]).toBe(0x5b);
    expect((await claudeConsume(path, 'prune')).map((m) => m.text)).toEqual(['older', 'mine']);
  });

  it('is consumed by Claude with every field as written', async () => {
    const path = await inboxIn(await tempDir());
    const entry = userInboxEntry('id-1', 'Please rerun the tests', TS, 'Rerun');
    await appendToInbox(path, entry);
    expect(await claudeConsume(path, 'prune')).toEqual([entry]);
    expect(await readFile(path, 'utf8')).toBe('[]');
  });
});

describe('appendToInbox: de-duplication by id', () => {
  it('does not append a message whose id is already there', async () => {
    const path = await inboxIn(await tempDir());
    const entry = userInboxEntry('id-1', 'once', TS);
    await appendToInbox(path, entry);
    const before = await readFile(path);
    expect(await appendToInbox(path, entry)).toMatchObject({ duplicate: true });
    expect(await appendToInbox(path, userInboxEntry('id-1', 'different text, same id', TS))).toMatchObject({ duplicate: true });
    expect((await readFile(path)).equals(before)).toBe(true);
    expect(await entriesOf(path)).toHaveLength(1);
  });

  it.each([
    ['msg_id', { msg_id: 'id-9' }],
    ['messageId', { messageId: 'id-9' }],
  ])('recognises an entry that carries the id only as %s', async (_label, ids) => {
    const path = await inboxIn(await tempDir());
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, JSON.stringify([{ from: 'user', text: 'x', timestamp: TS, read: true, ...ids }], null, 2));
    expect(await appendToInbox(path, userInboxEntry('id-9', 'x', TS))).toMatchObject({ duplicate: true });
    expect(await entriesOf(path)).toHaveLength(1);
  });

  it('refuses an entry without an explicit id, writing nothing', async () => {
    const path = await inboxIn(await tempDir());
    await ensureInbox(path);
    await expect(appendToInbox(path, { from: 'user', text: 'no id', timestamp: TS, read: false })).rejects.toThrow(/msg_id or messageId/);
    expect(await readFile(path, 'utf8')).toBe('[]');
  });

  it('is not blocked by an older entry without ids that has the same text', async () => {
    const path = await inboxIn(await tempDir());
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, JSON.stringify([{ from: 'user', text: 'same', timestamp: TS, read: true }], null, 2));
    expect(await appendToInbox(path, userInboxEntry('id-1', 'same', TS))).toMatchObject({ duplicate: false });
    expect(await entriesOf(path)).toHaveLength(2);
  });

  it('uses the same id as the reader when msg_id and messageId differ', async () => {
    const path = await inboxIn(await tempDir());
    const odd: InboxEntry = { from: 'user', text: 'x', timestamp: TS, read: false, msg_id: 'a', messageId: 'b' };
    await appendToInbox(path, odd);
    expect(await appendToInbox(path, odd)).toMatchObject({ duplicate: true });
    expect(await entriesOf(path)).toHaveLength(1);
  });

  it('keeps distinct messages with the same text', async () => {
    const path = await inboxIn(await tempDir());
    await appendToInbox(path, userInboxEntry('id-1', 'same', TS));
    expect(await appendToInbox(path, userInboxEntry('id-2', 'same', TS))).toMatchObject({ duplicate: false });
    expect((await entriesOf(path)).map((e) => e.msg_id)).toEqual(['id-1', 'id-2']);
  });
});

describe('appendToInbox: the lock', () => {
  const spawn = childrenPerTest();
  function holdLock(path: string, appendText?: string): TsChild {
    return spawn(HOLD_LOCK, appendText ? [path, appendText] : [path]);
  }

  it('waits for a lock held by another process, then writes after it (no lost update)', async () => {
    const path = await inboxIn(await tempDir());
    await ensureInbox(path);
    const holder = holdLock(path, 'from the holder');
    await holder.waitForLine(/^locked$/);
    let settled = false;
    // A longer retry budget than Claude's keeps this test about waiting, not about timing on a
    // loaded machine; the next test holds Claude's own budget.
    const lockOptions = { retries: { retries: 100, minTimeout: 5, maxTimeout: 100 } };
    const append = appendToInbox(path, userInboxEntry('id-1', 'mine', TS), { lockOptions }).finally(() => (settled = true));
    await new Promise((r) => setTimeout(r, 120));
    expect(settled).toBe(false);
    expect(await readFile(path, 'utf8')).toBe('[]');
    holder.send('release');
    expect(await append).toMatchObject({ duplicate: false });
    expect((await entriesOf(path)).map((e) => e.text)).toEqual(['from the holder', 'mine']);
    expect(await holder.exited).toBe(0);
  });

  it('gives up after Claude\'s retries with a temporary ELOCKED error, touching nothing', async () => {
    const path = await inboxIn(await tempDir());
    await ensureInbox(path);
    const holder = holdLock(path);
    await holder.waitForLine(/^locked$/);
    const started = Date.now();
    const e = await rejection(appendToInbox(path, userInboxEntry('id-1', 'mine', TS)));
    expect(Date.now() - started).toBeGreaterThanOrEqual(400);
    expect([e.temporary, e.code]).toEqual([true, 'ELOCKED']);
    expect(await readFile(path, 'utf8')).toBe('[]');
    expect((await lstat(`${path}.lock`)).isDirectory()).toBe(true);
    holder.send('release');
    expect(await holder.exited).toBe(0);
    expect(await appendToInbox(path, userInboxEntry('id-1', 'mine', TS))).toMatchObject({ duplicate: false });
  });

  it.each([
    ['fresh', 0],
    ['8 s old', 8_000],
  ])('never deletes a %s foreign lock directory', async (_label, ageMs) => {
    const path = await inboxIn(await tempDir());
    await ensureInbox(path);
    await mkdir(`${path}.lock`);
    const t = new Date(Date.now() - ageMs);
    await utimes(`${path}.lock`, t, t);
    const before = await stat(`${path}.lock`);
    const e = await rejection(appendToInbox(path, userInboxEntry('id-1', 'mine', TS)));
    expect([e.temporary, e.code]).toEqual([true, 'ELOCKED']);
    const after = await stat(`${path}.lock`);
    expect([after.ino, after.mtimeMs]).toEqual([before.ino, before.mtimeMs]);
    expect(await readFile(path, 'utf8')).toBe('[]');
  });

  it('takes over a stale lock directory (mtime older than 10 s), as proper-lockfile does', async () => {
    const path = await inboxIn(await tempDir());
    await ensureInbox(path);
    await mkdir(`${path}.lock`);
    const t = new Date(Date.now() - 15_000);
    await utimes(`${path}.lock`, t, t);
    expect(await appendToInbox(path, userInboxEntry('id-1', 'mine', TS))).toMatchObject({ duplicate: false });
    expect(existsSync(`${path}.lock`)).toBe(false);
  });

  it.each([
    ['fresh', 0],
    ['stale', 60_000],
  ])('never deletes a %s foreign lock *file* (an O_EXCL lock of another tool)', async (_label, ageMs) => {
    const path = await inboxIn(await tempDir());
    await ensureInbox(path);
    await writeFile(`${path}.lock`, '12345', { flag: 'wx' });
    const t = new Date(Date.now() - ageMs);
    await utimes(`${path}.lock`, t, t);
    const e = await rejection(appendToInbox(path, userInboxEntry('id-1', 'mine', TS)));
    expect(e.temporary).toBe(true);
    expect(await readFile(`${path}.lock`, 'utf8')).toBe('12345');
    expect(await readFile(path, 'utf8')).toBe('[]');
  });
});
