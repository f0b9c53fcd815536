// The bad-input corpus: every case in test/corpus/cases/ runs through the real TeamService
// (and readInbox / readTeam) in real temp folders, and for every case we check the expected
// outcome, that nothing crashed and other teams are still served, that no byte of any file
// under the teams root was lost, and that nothing was written outside the teams root and the
// state dir (a sentinel folder sits next to both; symlinks in the corpus point into it).
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readFile, readdir, readlink, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readInbox } from '../src/engine/claude/inbox-read.js';
import { inboxFileStem } from '../src/engine/claude/paths.js';
import { readTeam } from '../src/engine/claude/team-reader.js';
import { TeamService } from '../src/engine/service/team-service.js';
import { SendRefusedError } from '../src/engine/service/service-types.js';
import { message, writeTeam } from './helpers/teams.js';
import type { CaseContext, CaseEnv, CorpusCase, Expectation } from './corpus/types.js';

const CASES_DIR = join(import.meta.dirname, 'corpus', 'cases');

/** Every `cases/<nn>-<name>.ts`, in file order, each exporting one `corpusCase`. */
async function loadCases(): Promise<Array<{ file: string; c: CorpusCase }>> {
  const files = (await readdir(CASES_DIR)).filter((f) => /^\d+-.+\.ts$/.test(f)).sort();
  const out: Array<{ file: string; c: CorpusCase }> = [];
  for (const f of files) {
    const mod = (await import(join(CASES_DIR, f))) as { corpusCase?: CorpusCase };
    if (!mod.corpusCase) throw new Error(`${f} exports no corpusCase`);
    out.push({ file: f.replace(/\.ts$/, ''), c: mod.corpusCase });
  }
  return out;
}

const CASES = await loadCases();
const SENTINEL = 'Teamdeck must never write here.\n';
const CONTROL_TEXT = 'the control team still works';

// ------------------------------------------------------------------ file snapshots

type Entry = { kind: 'file'; sha: string; size: number } | { kind: 'dir' } | { kind: 'link'; target: string } | { kind: 'other' };

const sha256 = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

/** Every path under `dir` (relative, '/'-separated), never following a symlink. */
async function snapshot(dir: string): Promise<Map<string, Entry>> {
  const out = new Map<string, Entry>();
  const walk = async (abs: string, rel: string): Promise<void> => {
    for (const d of await readdir(abs, { withFileTypes: true })) {
      const a = join(abs, d.name);
      const r = rel ? `${rel}/${d.name}` : d.name;
      if (d.isSymbolicLink()) out.set(r, { kind: 'link', target: await readlink(a) });
      else if (d.isDirectory()) {
        out.set(r, { kind: 'dir' });
        await walk(a, r);
      } else if (d.isFile()) {
        const b = await readFile(a);
        out.set(r, { kind: 'file', sha: sha256(b), size: b.length });
      } else out.set(r, { kind: 'other' });
    }
  };
  await walk(dir, '');
  return out;
}

const stripBom = (b: Buffer) => (b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf ? b.subarray(3) : b);

/** Everything before an array text's closing bracket: what an append must keep byte for byte. */
function arrayHead(b: Buffer): Buffer {
  let end = b.length - 1;
  while (end >= 0 && b[end] !== 0x5d) end--;
  let before = end - 1;
  while (before >= 0 && [0x20, 0x0a, 0x0d, 0x09].includes(b[before]!)) before--;
  return b.subarray(0, before + 1);
}

/** A legitimately appended inbox: every old entry still there, in order; whatever was added is from "user". */
function expectAppended(rel: string, before: Buffer, after: Buffer): number {
  const head = arrayHead(before);
  const oldEntries = JSON.parse(stripBom(before).toString('utf8')) as unknown[];
  const newEntries = JSON.parse(stripBom(after).toString('utf8')) as unknown[];
  expect(Array.isArray(newEntries), `${rel} is still a JSON array`).toBe(true);
  expect(newEntries.length, `${rel} lost entries`).toBeGreaterThanOrEqual(oldEntries.length);
  if (!after.subarray(0, head.length).equals(head)) {
    // Not a pure append: then every old entry must at least be there, unchanged and in order.
    oldEntries.forEach((e, i) => expect(isDeepStrictEqual(e, newEntries[i]), `${rel} entry ${i} changed`).toBe(true));
  }
  for (const e of newEntries.slice(oldEntries.length)) expect((e as Record<string, unknown>).from, `${rel}: an added entry not from "user"`).toBe('user');
  return newEntries.length - oldEntries.length;
}

// ------------------------------------------------------------------ expectations

type Ctx = CaseContext;

/** The running case's temp folder, shown as <tmp> in outcome lines. */
let tempBase = '\u0000';

const short = (s: string, n = 96) => {
  const one = JSON.stringify(s.replaceAll(tempBase, '<tmp>')).slice(1, -1);
  return one.length > n ? `${one.slice(0, n)}…` : one;
};

async function sentCount(svc: TeamService, team: string): Promise<number | undefined> {
  try {
    return (await svc.feed(team)).filter((m) => m.status !== undefined).length;
  } catch {
    return undefined;
  }
}

async function runExpectation(ctx: Ctx, x: Expectation): Promise<string> {
  const { svc, root } = ctx;
  if ('readTeam' in x) {
    const snap = await readTeam(root, x.readTeam, { retries: 1, retryDelayMs: 5 });
    if (x.none) {
      expect(snap.summary.problems).toEqual([]);
      return 'readTeam: no problem';
    }
    const p = snap.summary.problems.find((q) => x.problem!.test(q.message));
    expect(p, `readTeam problem matching ${x.problem}; have ${JSON.stringify(snap.summary.problems)}`).toBeDefined();
    return `readTeam problem "${short(p!.message, 60)}"`;
  }
  if ('problem' in x) {
    const all = svc.problems();
    const p = all.find((q) => q.file === x.problem.file && (!x.problem.kind || q.kind === x.problem.kind) && x.problem.message.test(q.message));
    expect(p, `a problem on ${x.problem.file} matching ${x.problem.message}; have ${JSON.stringify(all)}`).toBeDefined();
    return `problem "${short(p!.message)}"`;
  }
  if ('noProblem' in x) {
    expect(svc.problems().filter((q) => q.file === x.noProblem)).toEqual([]);
    return `no problem on ${x.noProblem}`;
  }
  if ('send' in x) {
    const req = x.send;
    if ('refused' in x) {
      const before = await sentCount(svc, req.team);
      const err = await svc.send(req).then(
        (r) => expect.fail(`expected a refusal, got ${JSON.stringify(r)}`),
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(SendRefusedError);
      expect((err as Error).message).toMatch(x.refused);
      if (before !== undefined) expect(await sentCount(svc, req.team), 'a refused message was journaled').toBe(before);
      return `refused "${short((err as Error).message)}"`;
    }
    const r = await svc.send(req);
    if ('queued' in x) {
      expect(r, `expected queued, got ${JSON.stringify(r)}`).toMatchObject({ status: 'queued' });
      expect(r.reason).toMatch(x.queued);
      const t = (await svc.feed(req.team)).find((m) => m.id === r.id);
      expect(t?.status, 'a queued message is journaled and shown as queued').toBe('queued');
      return `queued "${short(r.reason ?? '')}"`;
    }
    expect(r, `expected accepted, got ${JSON.stringify(r)}`).toMatchObject({ status: 'accepted' });
    const rel = x.inbox ?? `${req.team}/inboxes/${inboxFileStem(req.to)}.json`;
    const entries = JSON.parse(stripBom(await readFile(join(root, rel))).toString('utf8')) as Array<Record<string, unknown>>;
    const mine = entries.filter((e) => !!e && typeof e === 'object' && e.msg_id === r.id);
    expect(mine, `${rel} holds the message once`).toHaveLength(1);
    expect(mine[0]).toMatchObject({ from: 'user', text: req.text, read: false });
    return `accepted into ${short(rel)}`;
  }
  if ('thread' in x) {
    const m = await svc.thread(x.thread.team, x.thread.member);
    expect(m.map((t) => t.text)).toHaveLength(x.texts.length);
    x.texts.forEach((want, i) => (typeof want === 'string' ? expect(m[i]!.text).toBe(want) : expect(m[i]!.text).toMatch(want)));
    x.check?.(m);
    return `thread reads ${m.length} message${m.length === 1 ? '' : 's'}`;
  }
  if ('roster' in x) {
    expect((await svc.roster(x.roster)).map((m) => m.name)).toEqual(x.names);
    return `roster of ${x.names.length}`;
  }
  if ('listed' in x) {
    expect((await svc.listTeams()).some((t) => t.id === x.listed)).toBe(x.present);
    return x.present ? `${short(x.listed)} listed` : `${short(x.listed)} not listed`;
  }
  if ('readInbox' in x) {
    const r = await readInbox(join(root, x.readInbox), x.readInbox.split('/')[0]!, 'owner', { retries: 1, retryDelayMs: 5 });
    expect(r.kind).toBe(x.kind);
    if (x.reason) expect('reason' in r ? r.reason : '').toMatch(x.reason);
    if (r.kind === 'ok' && x.messages !== undefined) expect(r.messages).toHaveLength(x.messages);
    if (r.kind === 'ok' && x.invalid !== undefined) expect(r.invalidEntries).toBe(x.invalid);
    return `readInbox ${r.kind}${'reason' in r ? ` "${short(r.reason, 60)}"` : r.kind === 'ok' ? ` (${r.messages.length} messages)` : ''}`;
  }
  throw new Error(`unknown expectation ${JSON.stringify(x)}`);
}

/** Joins outcome parts, folding repeats ("refused ... x208"). */
function outcomeLine(parts: string[]): string {
  const out: Array<[string, number]> = [];
  for (const p of parts) {
    const last = out.at(-1);
    if (last && last[0] === p) last[1]++;
    else out.push([p, 1]);
  }
  const folded = new Map<string, number>();
  for (const [p, n] of out) folded.set(p, (folded.get(p) ?? 0) + n);
  return [...folded].map(([p, n]) => (n > 1 ? `${p} x${n}` : p)).join('; ');
}

// ------------------------------------------------------------------ one case

const rejections: unknown[] = [];
const onRejection = (r: unknown) => rejections.push(r);
const results: string[] = [];

async function runCase(c: CorpusCase): Promise<string> {
  const base = await mkdtemp(join(tmpdir(), 'teamdeck-corpus-'));
  const env: CaseEnv = { base, root: join(base, 'teams'), stateDir: join(base, 'state'), outside: join(base, 'outside') };
  tempBase = base;
  let svc: TeamService | undefined;
  try {
    await mkdir(env.root);
    await mkdir(env.stateDir);
    await mkdir(env.outside);
    await writeFile(join(env.outside, 'sentinel.txt'), SENTINEL);
    // A healthy team next to every bad input: it must keep working throughout.
    await writeTeam(env.root, 'control', {
      config: { name: 'control', members: [{ name: 'team-lead', agentType: 'team-lead' }, { name: 'helper' }] },
      inboxes: { helper: [message('team-lead', 'carry on', '2025-06-01T11:00:00.000Z')], user: [message('helper', 'a reply to the user', '2025-06-01T11:00:01.000Z')] },
    });
    await c.setup(env);

    const baseListing = (await readdir(base)).sort();
    const outsideBefore = await snapshot(env.outside);
    const rootBefore = await snapshot(env.root);
    const appendable = ['control/inboxes/helper.json', ...(c.appends ?? [])];
    const oldBytes = new Map<string, Buffer>();
    for (const rel of appendable) if (rootBefore.get(rel)?.kind === 'file') oldBytes.set(rel, await readFile(join(env.root, rel)));
    const rejectionsBefore = rejections.length;

    svc = new TeamService({ teamsRoot: env.root, stateDir: env.stateDir, watch: false, backoff: c.backoff ?? { initialMs: 50, maxMs: 1_000 } });
    await svc.start();
    const ctx: Ctx = { ...env, svc };
    const parts: string[] = [];
    for (const x of c.expect) parts.push(await runExpectation(ctx, x));
    const note = await c.after?.(ctx);
    if (note) parts.push(note);

    // The service keeps serving the other team.
    expect((await svc.listTeams()).some((t) => t.id === 'control'), 'the control team is listed').toBe(true);
    const ok = await svc.send({ team: 'control', to: 'helper', text: CONTROL_TEXT });
    expect(ok.status, 'the control team accepts a send').toBe('accepted');
    expect((await svc.thread('control', 'helper')).map((m) => m.text)).toEqual(['a reply to the user', CONTROL_TEXT]);
    await svc.stop();
    svc = undefined;
    await c.afterStop?.(env);

    // No crash: nothing rejected unhandled while the case ran.
    await new Promise((r) => setTimeout(r, 10));
    expect(rejections.slice(rejectionsBefore), 'unhandled rejections').toEqual([]);

    // Nothing written outside the teams root and the state dir.
    expect((await readdir(base)).sort(), 'the parent folder gained or lost an entry').toEqual(baseListing);
    expect(await snapshot(env.outside), 'the sentinel folder changed').toEqual(outsideBefore);

    // No byte of any file under the teams root lost.
    const rootAfter = await snapshot(env.root);
    let appended = 0;
    for (const [rel, was] of rootBefore) {
      const now = rootAfter.get(rel);
      if (c.mayRemove?.includes(rel) && now === undefined) continue;
      if (was.kind === 'file' && now?.kind === 'file' && oldBytes.has(rel) && now.sha !== was.sha) {
        appended += expectAppended(rel, oldBytes.get(rel)!, await readFile(join(env.root, rel)));
        continue;
      }
      expect(now, `${rel} changed or vanished`).toEqual(was);
    }
    for (const rel of rootAfter.keys()) {
      if (rootBefore.has(rel)) continue;
      expect(rel, 'a temp file or lock was left behind').not.toMatch(/\.tmp\.|\.lock(\/|$)/);
    }
    expect(appended, 'the control send was appended to its inbox').toBeGreaterThanOrEqual(1);
    return outcomeLine(parts);
  } finally {
    await svc?.stop().catch(() => {});
    await c.teardown?.(env).catch(() => {});
    await rm(base, { recursive: true, force: true });
  }
}

describe('bad-input corpus', () => {
  beforeAll(() => {
    process.on('unhandledRejection', onRejection);
  });
  afterAll(() => {
    process.off('unhandledRejection', onRejection);
    console.log(['bad-input corpus, case by case:', ...results].join('\n'));
  });

  it('has one case per file, each with a unique name and number, each listed in the README', async () => {
    expect(CASES.length).toBeGreaterThanOrEqual(25);
    expect(new Set(CASES.map(({ c }) => c.name)).size).toBe(CASES.length);
    expect(new Set(CASES.map(({ file }) => file.split('-')[0])).size).toBe(CASES.length);
    const readme = await readFile(join(import.meta.dirname, 'corpus', 'README.md'), 'utf8');
    for (const { file } of CASES) expect(readme, `README lists ${file}`).toContain(`\`${file}\``);
  });

  for (const { c } of CASES) {
    if (c.skip) {
      it.skip(`${c.name} (skipped: ${c.skip})`, () => {});
      results.push(`${c.name} -> SKIPPED: ${c.skip}`);
      continue;
    }
    it(c.name, async () => {
      const started = Date.now();
      try {
        const outcome = await runCase(c);
        results.push(`${c.name} -> ${outcome} [${Date.now() - started} ms]`);
      } catch (e) {
        results.push(`${c.name} -> FAILED: ${short((e as Error).message, 200)}`);
        throw e;
      }
    });
  }
});
