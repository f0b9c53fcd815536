import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { expect } from 'vitest';
import { readInbox } from '../../../src/engine/claude/inbox-read.js';
import { TS, TS2, corp, message } from '../build.js';
import type { CorpusCase } from '../types.js';

const TARGET_BYTES = 50_000_000;
const FILLER = 'lorem ipsum dolor sit amet, '.repeat(72); // ~2 KB a message

const entry = (i: number) =>
  message('team-lead', `task ${i}: ${FILLER}`, `2025-06-01T12:00:${String(i % 60).padStart(2, '0')}.${String(i % 1000).padStart(3, '0')}Z`, {
    read: true,
    ...(i % 2 ? { msg_id: `m-${i}` } : {}),
  });

/** A 50 MB inbox of a member that never pruned: ~23,000 messages in Claude's pretty format. */
function hugeInbox(): { text: string; count: number } {
  // Each entry sits in the array indented by two more spaces per line than on its own.
  const sample = JSON.stringify(entry(99_999), null, 2);
  const per = Buffer.byteLength(sample) + 2 * sample.split('\n').length + 2;
  const n = Math.ceil((TARGET_BYTES / per) * 1.03); // the sample has an id half the entries lack
  const entries: unknown[] = [message('user', 'the first thing I ever sent', TS)];
  for (let i = 0; i < n; i++) entries.push(entry(i));
  entries.push(message('user', 'the last thing I sent before', TS2));
  return { text: JSON.stringify(entries, null, 2), count: entries.length };
}

let count = 0;
/** What a pure append keeps: the old text up to (not including) its closing bracket. */
let head = { length: 0, sha: '' };
const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

export const corpusCase: CorpusCase = {
  name: 'a 50 MB inbox',
  expected: 'read in full with problem "inbox is 50.x MB; Claude\'s delivery slows down"; a send is accepted and every old byte is kept',
  setup: async (env) => {
    const big = hugeInbox();
    expect(Buffer.byteLength(big.text)).toBeGreaterThanOrEqual(TARGET_BYTES);
    count = big.count;
    const bytes = Buffer.from(big.text);
    const cut = bytes.lastIndexOf(0x5d); // "]": pretty JSON ends "}\n]", nothing after the bracket
    head = { length: cut - 1, sha: sha(bytes.subarray(0, cut - 1)) };
    await corp(env, { inboxes: { researcher: big.text } });
  },
  expect: [
    { problem: { file: 'corp/inboxes/researcher.json', kind: 'inbox', message: /^inbox is 5\d\.\d MB; Claude's delivery slows down/ } },
    { thread: { team: 'corp', member: 'researcher' }, texts: ['the first thing I ever sent', 'the last thing I sent before'] },
    { send: { team: 'corp', to: 'researcher', text: 'one more, into the big inbox' }, accepted: true },
    { thread: { team: 'corp', member: 'researcher' }, texts: ['the first thing I ever sent', 'the last thing I sent before', 'one more, into the big inbox'] },
  ],
  after: async (ctx) => {
    const path = `${ctx.root}/corp/inboxes/researcher.json`;
    expect(sha((await readFile(path)).subarray(0, head.length)), 'the old entries are kept byte for byte').toBe(head.sha);
    const r = await readInbox(path, 'corp', 'researcher');
    expect(r.kind).toBe('ok');
    if (r.kind === 'ok') expect(r.messages).toHaveLength(count + 1);
    return `the first ${(head.length / 1e6).toFixed(1)} MB are byte-identical, ${count + 1} messages read back`;
  },
  appends: ['corp/inboxes/researcher.json'],
};
