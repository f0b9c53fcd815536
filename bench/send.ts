// send: the engine's `accepted` latency into a member inbox that already holds 1,000 messages,
// against two floors measured in the same run, interleaved with the sends so that all three see
// the same machine: (1) one write + fsync of a file of the inbox's size, the least any durable
// write costs; (2) the same durable steps Teamdeck takes before it answers, done bare: a journal
// line appended and fdatasync'd (`queued`) while Claude's inbox lock is taken, the inbox read
// (kept open), the message appended to its text and a temp file written and fsync'd; once both
// are done the temp file is renamed over the inbox and a second journal line written
// (`delivered`). What follows the answer (the folder's fsync, the unlock, closing the old inbox,
// the second line's fdatasync) is done after the clock stops, by both.
// burst: 1,000 concurrent sends to one target, all accepted and in order.
import { mkdtemp, readFile, rm, writeFile, open, type FileHandle } from 'node:fs/promises';
import { close, closeSync, fsync, openSync, readFileSync, renameSync, writeSync } from 'node:fs';
import { promisify } from 'node:util';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { randomBytes } from 'node:crypto';
import lockfile from 'proper-lockfile';
import { TeamService } from '../src/engine/service/team-service.js';
import { appendToArrayText, claudeLockOptions, userInboxEntry } from '../src/engine/claude/inbox-writer.js';
import { fsyncDir } from '../src/engine/files/atomic-write.js';
import { writeTeam } from '../test/helpers/team-fixture.js';
import { summarize, type Row } from './stats.js';

const TARGET_RATIO = 2;
const fsyncFd = promisify(fsync);
const closeFd = promisify(close);

function history(n: number): unknown[] {
  const out = [];
  for (let i = 0; i < n; i++) {
    out.push({ from: 'team-lead', text: `Earlier instruction number ${i}: keep going with the task and report back.`, summary: `instruction ${i}`, timestamp: new Date(1_767_000_000_000 + i * 1000).toISOString(), color: 'blue', read: true });
  }
  return out;
}

async function setup() {
  const base = await mkdtemp(join(tmpdir(), 'teamdeck-bench-'));
  const root = join(base, 'teams');
  await writeTeam(root, 'bench', ['worker'], { inboxes: { worker: history(1000) } });
  return { base, root, stateDir: join(base, 'state'), inbox: join(root, 'bench', 'inboxes', 'worker.json') };
}

/** Floor 1: one write and one fsync of `bytes` (a file beside the inbox, same size). */
async function oneFsync(path: string, bytes: Buffer): Promise<number> {
  const t0 = performance.now();
  const fh = await open(path, 'w');
  await fh.write(bytes, 0, bytes.length);
  await fh.sync();
  await fh.close();
  return performance.now() - t0;
}

/** Floor 2: Teamdeck's durable steps for one send, bare (see the header). Its time to the answer, and what follows it. */
async function sameSteps(journal: FileHandle, inbox: string, text: string, i: number): Promise<{ ms: number; after: Promise<unknown> }> {
  const id = `floor-${i}-${randomBytes(4).toString('hex')}`;
  const at = Date.now();
  const timestamp = new Date(at).toISOString();
  const t0 = performance.now();
  writeSync(journal.fd, JSON.stringify({ t: 'queued', id, to: 'worker', from: 'user', text, timestamp, at }) + '\n');
  const queued = journal.datasync();
  lockfile.lockSync(inbox, { ...claudeLockOptions(inbox), retries: 0 });
  const held = openSync(inbox, 'r');
  const out = appendToArrayText(readFileSync(held), [userInboxEntry(id, text, timestamp)]);
  const tmp = `${inbox}.tmp.${randomBytes(4).toString('hex')}`;
  const fd = openSync(tmp, 'wx');
  writeSync(fd, out);
  await fsyncFd(fd);
  closeSync(fd);
  await queued;
  renameSync(tmp, inbox);
  writeSync(journal.fd, JSON.stringify({ t: 'delivered', id, to: 'worker', at: Date.now() }) + '\n');
  const ms = performance.now() - t0;
  const after = Promise.all([fsyncDir(dirname(inbox)), lockfile.unlock(inbox, { lockfilePath: `${inbox}.lock`, realpath: false }), closeFd(held), journal.datasync()]);
  return { ms, after };
}

export async function benchSend(iterations = 200): Promise<Row[]> {
  const env = await setup();
  try {
    const original = await readFile(env.inbox);
    const text = (i: number) => `message ${i} `.padEnd(60, 'x');
    const withOne = appendToArrayText(original, [userInboxEntry('x'.repeat(36), text(0), new Date().toISOString())]);
    const floorFile = join(dirname(env.inbox), 'floor.bin');
    const journal = await open(join(env.base, 'floor-journal.jsonl'), 'a');
    const svc = new TeamService({ teamsRoot: env.root, stateDir: env.stateDir, watch: false, maxPendingPerTarget: 1_000_000 });
    await svc.start();
    // The inbox keeps 1,000 messages: after each write a consumer prunes the new one (as Claude would).
    const trim = async () => writeFile(env.inbox, original);
    const engine: number[] = [];
    const floor1: number[] = [];
    const floor2: number[] = [];
    const warm = 20;
    for (let i = 0; i < warm + iterations; i++) {
      const t0 = performance.now();
      const r = await svc.send({ team: 'bench', to: 'worker', text: text(i) });
      const ms = performance.now() - t0;
      if (r.status !== 'accepted') throw new Error(`send ${i} was ${r.status}`);
      await trim();
      const f1 = await oneFsync(floorFile, withOne);
      const f2 = await sameSteps(journal, env.inbox, text(i), i);
      await f2.after;
      await trim();
      if (i < warm) continue;
      engine.push(ms);
      floor1.push(f1);
      floor2.push(f2.ms);
    }
    await svc.stop();
    await journal.close();
    const e = summarize(engine);
    const f1 = summarize(floor1);
    const f2 = summarize(floor2);
    const ratio = e.median / f1.median;
    const kb = `${(withOne.length / 1024).toFixed(0)} KB`;
    return [
      {
        scenario: 'send',
        figure: 'Send into a 1,000-message inbox: accepted',
        unit: 'ms',
        median: e.median,
        p99: e.p99,
        compare: `floor: one write+fsync (${kb})`,
        compareValue: f1.median,
        ratio,
        target: `p50 <= ${TARGET_RATIO}x one-fsync floor`,
        met: ratio <= TARGET_RATIO,
        note: `${iterations} sends, each followed by both floors; Teamdeck's answer waits for the journal's queued record and the inbox's temp file to be fsync'd (alongside each other), Claude's lock and the rename; this floor is one file's write and fsync`,
      },
      {
        scenario: 'send',
        figure: 'same sends',
        unit: 'ms',
        median: e.median,
        p99: e.p99,
        compare: 'floor: the same durable steps',
        compareValue: f2.median,
        ratio: e.median / f2.median,
        note: 'journal append+fdatasync alongside lock, read, temp write+fsync; rename, journal append; then (not timed) folder fsync, unlock, close, fdatasync',
      },
      { scenario: 'send', figure: 'floor: one write+fsync, same size', unit: 'ms', median: f1.median, p99: f1.p99 },
      { scenario: 'send', figure: 'floor: the same durable steps', unit: 'ms', median: f2.median, p99: f2.p99 },
    ];
  } finally {
    await rm(env.base, { recursive: true, force: true });
  }
}

export async function benchBurst(n = 1000): Promise<Row[]> {
  const env = await setup();
  try {
    await writeFile(env.inbox, '[]');
    const svc = new TeamService({ teamsRoot: env.root, stateDir: env.stateDir, watch: false, maxPendingPerTarget: n + 1 });
    await svc.start();
    const t0 = performance.now();
    const results = await Promise.all(Array.from({ length: n }, (_, i) => svc.send({ team: 'bench', to: 'worker', text: `burst ${i}` })));
    const ms = performance.now() - t0;
    await svc.stop();
    const accepted = results.filter((r) => r.status === 'accepted').length;
    const texts = (JSON.parse(await readFile(env.inbox, 'utf8')) as Array<{ text: string }>).map((m) => m.text);
    const inOrder = texts.length === n && texts.every((t, i) => t === `burst ${i}`);
    const rate = (n / ms) * 1000;
    return [
      { scenario: 'burst', figure: `${n} sends to one target`, unit: 'msg/s', median: rate, compare: 'target', compareValue: 300, ratio: rate / 300, target: '>= 300 msg/s, all accepted, in order', met: rate >= 300 && accepted === n && inOrder, note: `${accepted}/${n} accepted, ${inOrder ? 'in order' : 'ORDER BROKEN'}` },
    ];
  } finally {
    await rm(env.base, { recursive: true, force: true });
  }
}
