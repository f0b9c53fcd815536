import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FRAME_TYPES } from '../../shared/types.js';
import { SAMPLE_FRAMES } from '../../../test/helpers/frames.js';
import { useTempDirs } from '../../../test/helpers/tmp.js';
import { isRawMessage, normalizeMessage, parseInboxBytes, rawMessageId, readInbox, type RawMessage } from './inbox-read.js';
import { deriveMessageId } from './message-id.js';

const TS = '2026-02-17T15:30:00.000Z';
const bytes = (v: unknown) => Buffer.from(JSON.stringify(v, null, 2));

function parsed(v: unknown) {
  const r = parseInboxBytes(bytes(v));
  if (r.kind !== 'ok') throw new Error(`expected ok, got ${JSON.stringify(r)}`);
  return r;
}

describe('parseInboxBytes', () => {
  it('reads an empty inbox', () => {
    expect(parseInboxBytes(Buffer.from('[]'))).toEqual({ kind: 'ok', entries: [], invalidEntries: 0 });
  });

  it('reads a byte-order mark and compact JSON', () => {
    const r = parseInboxBytes(Buffer.from('\uFEFF[{"from":"a","text":"t","timestamp":"x"}]'));
    expect(r).toMatchObject({ kind: 'ok', invalidEntries: 0 });
  });

  it('counts entries that are not messages, and keeps them in entries', () => {
    const entries = [42, null, 'str', [], { from: 'a', text: 't' }, { from: 1, text: 't', timestamp: TS }, { from: 'a', text: 't', timestamp: TS }];
    const r = parsed(entries);
    expect(r.invalidEntries).toBe(6);
    expect(r.entries).toEqual(entries);
  });
});

describe('normalizeMessage', () => {
  it('reads a message with every optional field missing', () => {
    const m = normalizeMessage({ from: 'researcher', text: 'hello', timestamp: TS }, 'my-team', 'team-lead');
    expect(m).toEqual({
      id: deriveMessageId('researcher', TS, 'hello'),
      team: 'my-team',
      from: 'researcher',
      to: 'team-lead',
      text: 'hello',
      timestamp: TS,
      time: Date.parse(TS),
      read: false,
    });
  });

  it('reads every documented field', () => {
    const m = normalizeMessage(
      { from: 'researcher', text: 'Found the bug in auth.ts', summary: 'Bug found', timestamp: TS, color: 'blue', read: false, type: 'message', msgV: 1, msg_id: 'abc' },
      't',
      'team-lead',
    );
    expect(m).toMatchObject({ id: 'abc', summary: 'Bug found', color: 'blue', read: false });
    expect(m.frame).toBeUndefined();
  });

  it.each([
    [true, true],
    [false, false],
    [undefined, false],
    ['true', false],
    [1, false],
  ])('reads read: %j as %j', (read, expected) => {
    expect(normalizeMessage({ from: 'a', text: 't', timestamp: TS, read }, 't', 'b').read).toBe(expected);
  });

  it('turns an unparsable timestamp into time 0 and keeps the text as written', () => {
    const m = normalizeMessage({ from: 'a', text: 't', timestamp: 'yesterday' }, 't', 'b');
    expect(m.time).toBe(0);
    expect(m.timestamp).toBe('yesterday');
  });

  it('ignores wrongly typed optional fields', () => {
    const m = normalizeMessage({ from: 'a', text: 't', timestamp: TS, summary: 5, color: { c: 1 } }, 't', 'b');
    expect(m.summary).toBeUndefined();
    expect(m.color).toBeUndefined();
  });

  it.each(FRAME_TYPES.map((t) => [t]))('types the %s frame carried in text', (type) => {
    const m = normalizeMessage({ from: 'researcher', text: JSON.stringify(SAMPLE_FRAMES[type]), timestamp: TS, read: false }, 't', 'team-lead');
    expect(m.frame?.type).toBe(type);
    expect(m.frame?.fields).toEqual(SAMPLE_FRAMES[type]);
  });
});

describe('message identity: msg_id, messageId, or derived', () => {
  const base: RawMessage = { from: 'researcher', text: 'hello', timestamp: TS, read: false };

  it('uses msg_id when it is the only id', () => {
    expect(rawMessageId({ ...base, msg_id: 'm-1' })).toBe('m-1');
  });
  it('uses messageId when it is the only id', () => {
    expect(rawMessageId({ ...base, messageId: 'm-2' })).toBe('m-2');
  });
  it('agrees when both carry the same id (as Teamdeck writes them)', () => {
    expect(rawMessageId({ ...base, msg_id: 'm-3', messageId: 'm-3' })).toBe('m-3');
  });
  it('derives the id from from|timestamp|text when neither is there', () => {
    expect(rawMessageId(base)).toBe(deriveMessageId('researcher', TS, 'hello'));
  });
  it('derives the same id as every earlier version (the journals hold these ids)', () => {
    expect(deriveMessageId('researcher', '2026-01-01T00:00:00.000Z', 'h\u00e9llo \u2713')).toBe('h-4fb53a57a9e0b75efc12e02f9b645cf5');
  });
  it('ignores empty or non-string ids', () => {
    expect(rawMessageId({ ...base, msg_id: '', messageId: 7 })).toBe(deriveMessageId('researcher', TS, 'hello'));
  });
  it('keeps the derived id stable when Claude marks the message read or re-serializes it', () => {
    const again = JSON.parse(JSON.stringify({ ...base, read: true, summary: 's', color: 'blue' }, null, 2)) as RawMessage;
    expect(rawMessageId(again)).toBe(rawMessageId(base));
  });
  it('gives the same id across two reads of the same file', () => {
    const file = bytes([base, { ...base, text: 'other' }, { ...base, msg_id: 'x' }]);
    const ids = () => {
      const r = parseInboxBytes(file);
      if (r.kind !== 'ok') throw new Error('not ok');
      return r.entries.filter(isRawMessage).map(rawMessageId);
    };
    expect(ids()).toEqual(ids());
    expect(new Set(ids()).size).toBe(3);
  });
});

describe('readInbox', () => {
  const tempDir = useTempDirs();

  it('reports a missing inbox as missing', async () => {
    expect(await readInbox(join(await tempDir(), 'nobody.json'), 't', 'nobody')).toEqual({ kind: 'missing' });
  });

  it('reads messages, addressed to the inbox owner, with size and mtime', async () => {
    const dir = await tempDir();
    const path = join(dir, 'team-lead.json');
    const content = bytes([
      { from: 'researcher', text: 'one', timestamp: TS, read: true },
      { from: 'tester', text: JSON.stringify(SAMPLE_FRAMES.idle_notification), timestamp: TS, read: false, msg_id: 'id-2' },
      { unknown: 'entry' },
    ]);
    await writeFile(path, content);
    const r = await readInbox(path, 'my-team', 'team-lead');
    expect(r.kind).toBe('ok');
    if (r.kind !== 'ok') return;
    expect(r.size).toBe(content.length);
    expect(r.mtimeMs).toBeGreaterThan(0);
    expect(r.invalidEntries).toBe(1);
    expect(r.entries).toHaveLength(3);
    expect(r.messages.map((m) => [m.from, m.to, m.team, m.read, m.frame?.type ?? null, m.id])).toEqual([
      ['researcher', 'team-lead', 'my-team', true, null, deriveMessageId('researcher', TS, 'one')],
      ['tester', 'team-lead', 'my-team', false, 'idle_notification', 'id-2'],
    ]);
  });

  it('types every frame type of the format, including both shutdown approvals', async () => {
    const dir = await tempDir();
    const path = join(dir, 'team-lead.json');
    const entries = FRAME_TYPES.map((t, i) => ({ from: 'researcher', text: JSON.stringify(SAMPLE_FRAMES[t]), timestamp: `2026-02-17T15:30:${String(i).padStart(2, '0')}.000Z`, read: false }));
    await writeFile(path, bytes(entries));
    const r = await readInbox(path, 't', 'team-lead');
    if (r.kind !== 'ok') throw new Error(r.kind);
    expect(r.messages.map((m) => m.frame?.type)).toEqual([...FRAME_TYPES]);
  });

  it('re-reads a file caught mid-write instead of calling it corrupt', async () => {
    const dir = await tempDir();
    const path = join(dir, 'a.json');
    const full = bytes([{ from: 'b', text: 'x', timestamp: TS, read: false }]);
    await writeFile(path, full.subarray(0, 20));
    expect((await readInbox(path, 't', 'a', { retries: 0 })).kind).toBe('corrupt');
    const reading = readInbox(path, 't', 'a', { retries: 5, retryDelayMs: 60 });
    setTimeout(() => void writeFile(path, full), 20);
    const r = await reading;
    expect(r.kind).toBe('ok');
    if (r.kind === 'ok') expect(r.messages).toHaveLength(1);
  });

  it('refuses to follow a symbolic link', async () => {
    const dir = await tempDir();
    await writeFile(join(dir, 'real.json'), '[]');
    await symlink(join(dir, 'real.json'), join(dir, 'a.json'));
    expect(await readInbox(join(dir, 'a.json'), 't', 'a')).toMatchObject({ kind: 'error', code: 'ELOOP' });
  });

  it('reports a folder where the inbox should be', async () => {
    const dir = await tempDir();
    await mkdir(join(dir, 'a.json'));
    expect(await readInbox(join(dir, 'a.json'), 't', 'a')).toMatchObject({ kind: 'error', code: 'EISDIR' });
  });
});
