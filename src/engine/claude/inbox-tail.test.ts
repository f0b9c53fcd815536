import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { claudeAppend, claudeConsume, type ClaudeMessage } from '../../sim/claude-inbox.js';
import { readInbox } from './inbox-read.js';
import { appendManyToInbox, userInboxEntry } from './inbox-writer.js';
import { appendedEntries, arrayHeadLength, InboxReader } from './inbox-tail.js';

let dir: string;
let inbox: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'teamdeck-tail-'));
  await mkdir(join(dir, 'inboxes'));
  inbox = join(dir, 'inboxes', 'team-lead.json');
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const msg = (i: number, extra: Partial<ClaudeMessage> = {}): ClaudeMessage => ({
  from: i % 2 ? 'researcher' : 'tester',
  text: i % 3 ? `report ${i}: all tests pass` : JSON.stringify({ type: 'idle_notification', from: 'tester', timestamp: new Date(1_767_000_000_000 + i).toISOString() }),
  timestamp: new Date(1_767_000_000_000 + i * 1000).toISOString(),
  read: false,
  ...extra,
});

async function seed(n: number): Promise<void> {
  await writeFile(inbox, JSON.stringify(Array.from({ length: n }, (_, i) => msg(i)), null, 2));
}

/** The tail reader must always agree with a full read of the same file. */
async function agree(reader: InboxReader): Promise<void> {
  const { appended, ...fast } = { appended: undefined, ...(await reader.read(inbox, 't', 'team-lead')) };
  const full = await readInbox(inbox, 't', 'team-lead');
  expect(fast).toEqual(full);
  // When only a tail was read, it says how many messages are new.
  if (appended !== undefined && full.kind === 'ok') expect(appended).toBeLessThanOrEqual(full.messages.length);
}

describe('appendedEntries', () => {
  const head = (s: string) => Buffer.from(s.slice(0, arrayHeadLength(Buffer.from(s))));
  const a = JSON.stringify([{ x: 1 }], null, 2);
  const b = JSON.stringify([{ x: 1 }, { y: 2 }, { z: 3 }], null, 2);

  it('returns just the new entries when the file grew by appends', () => {
    expect(appendedEntries(head(a), Buffer.from(b))).toEqual([{ y: 2 }, { z: 3 }]);
    expect(appendedEntries(head(a), Buffer.from(a))).toEqual([]);
  });

  it('refuses anything that is not an append to a valid array', () => {
    expect(appendedEntries(head(a), Buffer.from(b.replace('"y"', '"q"').slice(0, -3)))).toBeUndefined();
    expect(appendedEntries(head(a), Buffer.from(a.replace('1', '2')))).toBeUndefined();
    expect(appendedEntries(head(a), Buffer.from(`${a.slice(0, -2)},\n  {"y": }\n]`))).toBeUndefined();
    expect(appendedEntries(head(a), Buffer.from(`${a.slice(0, -2)} {"y": 1}\n]`))).toBeUndefined();
    expect(appendedEntries(head(a), Buffer.from(`${a} trailing`))).toBeUndefined();
    expect(appendedEntries(head('[]'), Buffer.from(b))).toBeUndefined();
  });
});

describe('InboxReader', () => {
  it('agrees with a full read through appends by Claude and by Teamdeck, prunes, read flags and a torn write', async () => {
    const reader = new InboxReader(10_000);
    await seed(200);
    await agree(reader);
    for (let i = 200; i < 205; i++) {
      await claudeAppend(inbox, msg(i));
      await agree(reader);
    }
    await appendManyToInbox(inbox, [userInboxEntry('id-1', 'please look at the cache', new Date().toISOString())], { fsync: false });
    await agree(reader);
    await claudeConsume(inbox, 'flag');
    await agree(reader);
    await claudeAppend(inbox, msg(300));
    await agree(reader);
    // An older Claude rewriting in place can be caught half-way: never half-parsed.
    const whole = await readFile(inbox, 'utf8');
    await writeFile(inbox, `${whole.slice(0, -2)},\n  {"from": "tester", "te`);
    const torn = await reader.read(inbox, 't', 'team-lead');
    expect(torn.kind).toBe('corrupt');
    await writeFile(inbox, whole);
    await agree(reader);
    await claudeConsume(inbox, 'prune');
    await agree(reader);
  });

  it('reads only the appended tail of a big inbox', async () => {
    const reader = new InboxReader(10_000);
    await seed(2_000);
    const first = await reader.read(inbox, 't', 'team-lead');
    await claudeAppend(inbox, msg(5_000));
    const second = await reader.read(inbox, 't', 'team-lead');
    if (first.kind !== 'ok' || second.kind !== 'ok') throw new Error('not read');
    expect(second.messages).toHaveLength(2_001);
    expect('appended' in second && second.appended).toBe(1);
    // The old messages are the very objects of the first read: nothing old was parsed again.
    expect(second.messages[0]).toBe(first.messages[0]);
    expect(second.messages[1_999]).toBe(first.messages[1_999]);
  });
});

describe('appendManyToInbox after someone else appended', () => {
  it('still finds an id among the appended entries, and still refuses a file that no longer parses', async () => {
    await seed(50);
    const first = userInboxEntry('id-a', 'first', new Date().toISOString());
    expect((await appendManyToInbox(inbox, [first], { fsync: false }))[0]).toEqual({ duplicate: false, count: 51 });
    // Another writer (a recovering copy of Teamdeck, say) appends an entry with an id, Claude-style.
    await claudeAppend(inbox, { ...userInboxEntry('id-b', 'second', new Date().toISOString()) });
    const again = await appendManyToInbox(inbox, [userInboxEntry('id-b', 'second', new Date().toISOString()), userInboxEntry('id-c', 'third', new Date().toISOString())], { fsync: false });
    expect(again).toEqual([
      { duplicate: true, count: 52 },
      { duplicate: false, count: 53 },
    ]);
    const texts = (JSON.parse(await readFile(inbox, 'utf8')) as { text: string }[]).map((m) => m.text);
    expect(texts.slice(-3)).toEqual(['first', 'second', 'third']);
    // A torn append is not taken for an append: the whole file is checked, and refused.
    const whole = await readFile(inbox, 'utf8');
    await writeFile(inbox, `${whole.slice(0, -2)},\n  {"from": "tester", "te`);
    await expect(appendManyToInbox(inbox, [userInboxEntry('id-d', 'fourth', new Date().toISOString())], { fsync: false })).rejects.toThrow(/unreadable/);
  });
});
