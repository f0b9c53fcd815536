// An inbox that does not parse: Claude treats it as empty and overwrites it on its next write.
// Teamdeck must report it, refuse to rewrite it, and keep its bytes.
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { message, writeTeam } from '../../../test/helpers/teams.js';
import { useTempDirs } from '../../../test/helpers/tmp.js';
import { readInbox } from '../claude/inbox-read.js';
import { AdmissionError, appendToInbox, userInboxEntry } from '../claude/inbox-writer.js';
import { readTeam } from '../claude/team-reader.js';

const tempDir = useTempDirs();
const TS = '2026-02-17T15:30:00.000Z';
const VALID = JSON.stringify([message('team-lead', 'hello', TS)], null, 2);

const CASES: Array<[string, Buffer, RegExp]> = [
  ['truncated JSON', Buffer.from(VALID.slice(0, VALID.length - 9)), /not valid JSON/],
  ['a JSON object instead of an array', Buffer.from(JSON.stringify({ messages: [message('team-lead', 'hello', TS)] }, null, 2)), /a JSON object instead of an array/],
  [
    'invalid UTF-8',
    Buffer.concat([Buffer.from('[{"from":"team-lead","text":"caf'), Buffer.from([0xc3, 0x28, 0xff, 0xfe]), Buffer.from(`","timestamp":"${TS}","read":false}]`)]),
    /not valid UTF-8/,
  ],
];

async function corruptTeam(bytes: Buffer) {
  const root = await tempDir();
  await writeTeam(root, 'my-team', {
    config: { name: 'my-team', members: [{ name: 'team-lead', agentType: 'team-lead' }, { name: 'researcher' }] },
    inboxes: { 'team-lead': [message('researcher', 'fine here', TS)], researcher: bytes },
  });
  return { root, path: join(root, 'my-team', 'inboxes', 'researcher.json') };
}

describe.each(CASES)('an inbox holding %s', (_label, bytes, reason) => {
  it('is read as corrupt, with a reason and its bytes', async () => {
    const { path } = await corruptTeam(bytes);
    const r = await readInbox(path, 'my-team', 'researcher', { retries: 1, retryDelayMs: 5 });
    expect(r.kind).toBe('corrupt');
    if (r.kind !== 'corrupt') return;
    expect(r.reason).toMatch(reason);
    expect(r.bytes.equals(bytes)).toBe(true);
    expect(r.size).toBe(bytes.length);
  });

  it('is reported by the team reader as a problem naming the file, without hiding the rest of the team', async () => {
    const { root } = await corruptTeam(bytes);
    const snap = await readTeam(root, 'my-team', { retries: 0 });
    expect(snap.summary.problems).toEqual([{ kind: 'inbox', file: 'my-team/inboxes/researcher.json', message: expect.stringMatching(reason) }]);
    expect(snap.summary.problems[0]!.message).toMatch(/^unreadable: /);
    expect(snap.corrupt.get('researcher')?.bytes.equals(bytes)).toBe(true);
    expect(snap.messages.map((m) => [m.from, m.to, m.text])).toEqual([['researcher', 'team-lead', 'fine here']]);
    expect(snap.members.map((m) => m.name)).toEqual(['team-lead', 'researcher']);
  });

  it('is refused by the writer (temporary ECORRUPT) and left byte-for-byte unchanged', async () => {
    const { path } = await corruptTeam(bytes);
    let err: unknown;
    await appendToInbox(path, userInboxEntry('id-1', 'are you there?', TS)).catch((e: unknown) => (err = e));
    expect(err).toBeInstanceOf(AdmissionError);
    const e = err as AdmissionError;
    expect([e.temporary, e.code, e.preservedAt]).toEqual([true, 'ECORRUPT', undefined]);
    expect(e.message).toMatch(reason);
    expect((await readFile(path)).equals(bytes)).toBe(true);
    expect(await readdir(dirname(path))).toEqual(['researcher.json', 'team-lead.json']);
  });

  it('is kept as a byte-identical copy when a preserve folder is given', async () => {
    const { root, path } = await corruptTeam(bytes);
    const preserveDir = join(root, '..', `${root.split(/[\\/]/).pop()}-kept`);
    await mkdir(preserveDir);
    try {
      const attempt = () =>
        appendToInbox(path, userInboxEntry('id-1', 'are you there?', TS), { preserveDir, preserveLabel: 'my-team/inboxes/researcher.json' }).then(
          () => {
            throw new Error('expected a refusal');
          },
          (e: unknown) => e as AdmissionError,
        );
      const e = await attempt();
      expect(e.code).toBe('ECORRUPT');
      expect(e.preservedAt).toBeDefined();
      expect(e.preservedAt!.startsWith(preserveDir)).toBe(true);
      expect((await readFile(e.preservedAt!)).equals(bytes)).toBe(true);
      expect((await readFile(path)).equals(bytes)).toBe(true);
      // A retry keeps the same single copy.
      expect((await attempt()).preservedAt).toBe(e.preservedAt);
      expect(await readdir(preserveDir)).toHaveLength(1);
    } finally {
      const { rm } = await import('node:fs/promises');
      await rm(preserveDir, { recursive: true, force: true });
    }
  });
});

describe('after Claude rewrites a corrupt inbox', () => {
  it('the writer admits messages again', async () => {
    const { path } = await corruptTeam(CASES[0]![1]);
    await expect(appendToInbox(path, userInboxEntry('id-1', 'x', TS))).rejects.toMatchObject({ code: 'ECORRUPT' });
    await writeFile(path, '[]');
    expect(await appendToInbox(path, userInboxEntry('id-1', 'x', TS))).toMatchObject({ duplicate: false });
  });
});
