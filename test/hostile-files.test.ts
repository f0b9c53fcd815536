// Hostile files beside the inboxes: every file Teamdeck reads from Claude's config dir besides
// inboxes (the lead's sessions file, the lead's and a teammate's transcripts, task files, the
// team's config.json) made huge, torn, invalid, linked outside the config dir, a link loop or
// a FIFO, one case each, through the real TeamService over real temp folders. For every case:
// the service starts and answers every call in time (no hang, no crash, no unhandled
// rejection), a secret marker written only in files OUTSIDE the config dir never appears in
// any answer (teams, rosters, activity, needs, tasks, timelines, threads, problems), nothing
// outside changes, Object.prototype stays clean, the process's RSS stays bounded, the other
// files of the team still show, and a healthy control team and the live team still take a
// send that lands in the inbox once. The run ends with one line per case.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { constants } from 'node:fs';
import { appendFile, mkdir, mkdtemp, open, readdir, readFile, readlink, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_SESSION_FILE_BYTES, readSessionFile } from '../src/engine/claude/sessions.js';
import { MAX_TASK_FILE_BYTES } from '../src/engine/claude/tasks.js';
import { readTimeline } from '../src/engine/claude/transcript-timeline.js';
import { readTeamConfig } from '../src/engine/claude/config.js';
import { TeamService } from '../src/engine/service/team-service.js';
import type { MemberActivity } from '../src/shared/types.js';
import { message, writeTeam } from './helpers/teams.js';
import { jsonl, leadTx, LIVE_SESSION, LIVE_TEAM, liveTeam, projectDir, researcherTx, rows, session, sessionFile, sessionsDir, SLUG, subagentsDir } from './corpus/live-build.js';
import type { CaseEnv } from './corpus/types.js';

/** Written only in files outside the config dir: no answer may ever hold it. */
const MARKER = 'OUTSIDE-SECRET-5c1e7a';
/** Written inside one line too long to read: no answer may hold it either. */
const LONG_LINE_MARKER = 'INSIDE-A-50-MB-LINE-9d2b';
const HUGE = 300 * 1024 * 1024;
const CALL_TIMEOUT_MS = 5_000;
/** Peak RSS growth allowed during one case: far below any huge file. */
const RSS_BOUND = 160 * 1024 * 1024;

type Kind = 'sessions' | 'lead transcript' | 'teammate transcript' | 'tasks' | 'team config';

interface Env extends CaseEnv {
  /** Claude's config dir (the teams root's parent): sessions/, projects/, tasks/, teams/. */
  configDir: string;
  /** FIFOs the case made, opened for writing at teardown so no read can stay blocked. */
  fifos: string[];
}

interface Ctx {
  env: Env;
  svc: TeamService;
}

interface HostileCase {
  kind: Kind;
  /** The hostile input, in a few words. */
  input: string;
  /** The expected outcome, in a few words (the table in docs/reliability.md#hostile-files). */
  outcome: string;
  /** Builds the hostile file after the healthy team is written, before the engine starts. */
  setup(env: Env): Promise<void>;
  /** The case's own checks against the running engine; returns what was seen, in one line. */
  check(ctx: Ctx): Promise<string>;
  /** The other files this case legitimately hides (a lead transcript not found hides the teammates'). */
  hides?: Kind[];
  /** The live team takes no send here (no usable config). */
  noLiveSend?: true;
}

// ------------------------------------------------------------------ building blocks

const taskDir = (env: Env) => join(env.configDir, 'tasks', LIVE_TEAM);
const configFile = (env: Env) => join(env.root, LIVE_TEAM, 'config.json');
const metaFile = (env: Env) => researcherTx(env).replace(/\.jsonl$/, '.meta.json');
const task = (id: string, extra: Record<string, unknown> = {}) => JSON.stringify({ id, subject: `Task ${id}`, description: '', status: 'pending', blocks: [], blockedBy: [], ...extra });
const deep = (n: number) => '['.repeat(n) + ']'.repeat(n);
const INVALID_UTF8 = Buffer.from([0xff, 0xfe, 0xc0, 0xaf, 0xed, 0xa0, 0x80]);
const BOM = '\uFEFF';

/** A file of `size` bytes made sparse (a hole, no bytes written), with `head` and `tail` written around the hole. */
async function sparse(path: string, size: number, head = '', tail = ''): Promise<void> {
  await mkdir(join(path, '..'), { recursive: true });
  const fh = await open(path, 'w');
  try {
    if (head) await fh.write(head, 0);
    await fh.truncate(size - Buffer.byteLength(tail));
    if (tail) await fh.write(tail, size - Buffer.byteLength(tail));
  } finally {
    await fh.close();
  }
}

/** One line of 50 MB (spaces around a whole row: valid JSON, far too long to read), then `after`. */
async function withLongLine(path: string, before: string, after: string): Promise<void> {
  const fh = await open(path, 'w');
  try {
    await fh.write(before);
    const chunk = Buffer.alloc(1024 * 1024, 0x20);
    for (let i = 0; i < 50; i++) await fh.write(chunk);
    await fh.write(JSON.stringify(rows.call('long', 'Bash', { command: LONG_LINE_MARKER })) + '\n' + after);
  } finally {
    await fh.close();
  }
}

async function fifo(env: Env, path: string): Promise<void> {
  await mkdir(join(path, '..'), { recursive: true });
  await rm(path, { force: true });
  execFileSync('mkfifo', [path]);
  env.fifos.push(path);
}

async function linkOutside(target: string, path: string): Promise<void> {
  await mkdir(join(path, '..'), { recursive: true });
  await rm(path, { recursive: true, force: true });
  await symlink(target, path);
}

async function loop(path: string): Promise<void> {
  await mkdir(join(path, '..'), { recursive: true });
  await rm(path, { recursive: true, force: true });
  await symlink(path, path);
}

/** Replaces a folder with a link to `target`. */
async function linkFolder(path: string, target: string): Promise<void> {
  await rm(path, { recursive: true, force: true });
  await symlink(target, path);
}

function timed<T>(p: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const t = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} hung for ${CALL_TIMEOUT_MS} ms`)), CALL_TIMEOUT_MS);
  });
  return Promise.race([p, t]).finally(() => clearTimeout(timer));
}

async function activityOf(ctx: Ctx, member: string): Promise<MemberActivity | undefined> {
  return (await timed(ctx.svc.activity(LIVE_TEAM), 'activity')).find((a) => a.member === member);
}
const timelineTexts = async (ctx: Ctx, member: string) => (await timed(ctx.svc.timeline(LIVE_TEAM, member), 'timeline')).map((i) => i.text);
const tasksOf = (ctx: Ctx) => timed(ctx.svc.tasks(LIVE_TEAM), 'tasks');
const rosterOf = async (ctx: Ctx) => (await timed(ctx.svc.roster(LIVE_TEAM), 'roster')).map((m) => m.name);
const configProblems = (ctx: Ctx) => ctx.svc.problems().filter((p) => p.file === `${LIVE_TEAM}/config.json`).map((p) => p.message);
/** Polls the transcripts a few times (each poll reads at most 8 MB of a file). */
async function refresh(ctx: Ctx, times = 1): Promise<void> {
  for (let i = 0; i < times; i++) await timed(ctx.svc.refresh(), 'refresh');
}

async function noSession(ctx: Ctx): Promise<void> {
  expect((await activityOf(ctx, 'team-lead'))?.sources ?? [], 'no status from the sessions file').not.toContain('session');
  expect(await timed(ctx.svc.needs(), 'needs')).toEqual([]);
}

async function sessionRefused(env: Env, reason: RegExp): Promise<string> {
  const r = await timed(readSessionFile(sessionFile(env)), 'readSessionFile');
  expect(r).toMatchObject({ kind: 'invalid', reason: expect.stringMatching(reason) });
  return (r as { reason: string }).reason;
}

/** The lead's transcript was not found: no timeline, nothing from a transcript in any activity. */
async function noTranscripts(ctx: Ctx): Promise<void> {
  for (const m of ['team-lead', 'researcher']) {
    expect(await timelineTexts(ctx, m), `${m}'s timeline`).toEqual([]);
    expect((await activityOf(ctx, m))?.sources ?? [], `${m}'s activity`).not.toContain('transcript');
  }
}

async function taskProblem(ctx: Ctx, file: string, message: RegExp): Promise<string> {
  const board = await tasksOf(ctx);
  const p = board.problems.find((q) => q.file === `tasks/${LIVE_TEAM}/${file}`);
  expect(p?.message ?? `no problem on ${file}: ${JSON.stringify(board.problems)}`).toMatch(message);
  expect(board.tasks.map((t) => t.id), 'the good task still shows').toContain('1');
  return p!.message;
}

async function configProblem(ctx: Ctx, message: RegExp): Promise<string> {
  const p = configProblems(ctx).find((m) => message.test(m));
  expect(p, `a config problem matching ${message}; have ${JSON.stringify(configProblems(ctx))}`).toBeDefined();
  expect((await timed(ctx.svc.listTeams(), 'listTeams')).some((t) => t.id === LIVE_TEAM), 'the team is still listed').toBe(true);
  return p!;
}

const q = (s: string) => `"${s.length > 90 ? `${s.slice(0, 89)}…` : s}"`;

// ------------------------------------------------------------------ the cases

const CASES: HostileCase[] = [
  // ---------------------------------------------------------------- sessions
  {
    kind: 'sessions',
    input: 'a 300 MB sparse file',
    outcome: 'refused unread ("is N bytes; at most 65536 are read"), no session status',
    setup: (env) => sparse(sessionFile(env), HUGE, JSON.stringify(session({ status: 'waiting', waitingFor: 'permission prompt' }))),
    check: async (ctx) => {
      const why = await sessionRefused(ctx.env, new RegExp(`^is ${HUGE} bytes; at most ${MAX_SESSION_FILE_BYTES} are read$`));
      await noSession(ctx);
      return `refused ${q(why)}; no status, no needs`;
    },
  },
  {
    kind: 'sessions',
    input: 'torn in place after a good copy',
    outcome: 'the last good status kept until the file is whole again',
    setup: (env) => writeFile(sessionFile(env), JSON.stringify(session({ status: 'waiting', waitingFor: 'permission prompt' }))),
    check: async (ctx) => {
      expect(await activityOf(ctx, 'team-lead')).toMatchObject({ kind: 'waiting', sources: expect.arrayContaining(['session']) });
      const whole = JSON.stringify(session({ status: 'idle' }));
      await writeFile(sessionFile(ctx.env), whole.slice(0, whole.length >> 1));
      expect(await activityOf(ctx, 'team-lead')).toMatchObject({ kind: 'waiting', sources: expect.arrayContaining(['session']) });
      const why = await sessionRefused(ctx.env, /^not valid JSON$/);
      await writeFile(sessionFile(ctx.env), whole);
      expect((await activityOf(ctx, 'team-lead'))?.kind).not.toBe('waiting');
      return `torn: ${q(why)}, the last good copy (waiting) shown; whole again: read`;
    },
  },
  {
    kind: 'sessions',
    input: 'not JSON, with NUL bytes',
    outcome: 'not read ("not valid JSON"), no session status',
    setup: (env) => writeFile(sessionFile(env), Buffer.concat([Buffer.from('\u0000\u0000{"pid":'), Buffer.alloc(100), Buffer.from('}')])),
    check: async (ctx) => {
      const why = await sessionRefused(ctx.env, /^not valid JSON$/);
      await noSession(ctx);
      return `${q(why)}; no status`;
    },
  },
  {
    kind: 'sessions',
    input: 'JSON of the wrong types (strings for numbers, an array, null, a number)',
    outcome: 'each "not a sessions file", no session status; ill-typed optional fields dropped',
    setup: (env) => writeFile(sessionFile(env), JSON.stringify({ pid: String(process.pid), sessionId: 5, status: 42 })),
    check: async (ctx) => {
      const seen: string[] = [];
      for (const text of [JSON.stringify({ pid: String(process.pid), sessionId: 5, status: 42 }), '[{"pid":1}]', 'null', '12', '"x"', JSON.stringify({ pid: process.pid, sessionId: ['a'] })]) {
        await writeFile(sessionFile(ctx.env), text);
        seen.push(await sessionRefused(ctx.env, /^not a sessions file/));
        await noSession(ctx);
      }
      // Right pid and sessionId, every other field ill-typed: read, the odd fields dropped.
      await writeFile(sessionFile(ctx.env), JSON.stringify(session({ status: 42, waitingFor: {}, updatedAt: 'soon', version: [1], kind: null, messagingSocketPath: 7 })));
      const r = await readSessionFile(sessionFile(ctx.env));
      expect(r).toEqual({ kind: 'ok', session: { pid: process.pid, sessionId: LIVE_SESSION, statusUpdatedAt: 1_796_000_001_000 } });
      return `${seen.length} shapes ${q(seen[0]!)}; ill-typed optional fields dropped`;
    },
  },
  {
    kind: 'sessions',
    input: 'nesting 30,000 and 100,000 levels deep',
    outcome: 'no stack overflow: 30,000 levels read (the field dropped), 100,000 (200 KB) refused as too big',
    setup: (env) => writeFile(sessionFile(env), JSON.stringify(session({ status: 'idle' })).replace(/}$/, `,"nest":${deep(30_000)}}`)),
    check: async (ctx) => {
      expect(await readSessionFile(sessionFile(ctx.env))).toMatchObject({ kind: 'ok', session: { status: 'idle' } });
      expect(await activityOf(ctx, 'team-lead')).toMatchObject({ sources: expect.arrayContaining(['session']) });
      await writeFile(sessionFile(ctx.env), JSON.stringify(session({ status: 'idle' })).replace(/}$/, `,"nest":${deep(100_000)}}`));
      const why = await sessionRefused(ctx.env, /bytes; at most 65536 are read$/);
      return `30,000 levels read; 100,000 levels ${q(why)}`;
    },
  },
  {
    kind: 'sessions',
    input: 'invalid UTF-8 in a field, and a UTF-8 BOM',
    outcome: 'invalid UTF-8 read as U+FFFD; a BOM is "not valid JSON" (Claude writes none), no status',
    setup: async (env) => {
      const [a, b] = JSON.stringify(session({ status: 'idle', version: 'v\u0001' })).split('\\u0001') as [string, string];
      await writeFile(sessionFile(env), Buffer.concat([Buffer.from(a), INVALID_UTF8, Buffer.from(b)]));
    },
    check: async (ctx) => {
      const r = await readSessionFile(sessionFile(ctx.env));
      expect(r).toMatchObject({ kind: 'ok', session: { status: 'idle', version: expect.stringContaining('\uFFFD') } });
      await writeFile(sessionFile(ctx.env), BOM + JSON.stringify(session({ status: 'waiting', waitingFor: 'permission prompt' })));
      const why = await sessionRefused(ctx.env, /^not valid JSON$/);
      // Not read: the last good copy (idle) still speaks, the waiting status is never shown.
      expect((await activityOf(ctx, 'team-lead'))?.kind).not.toBe('waiting');
      expect(await timed(ctx.svc.needs(), 'needs')).toEqual([]);
      return `invalid UTF-8: read with U+FFFD; BOM: ${q(why)}, the last good copy kept`;
    },
  },
  {
    kind: 'sessions',
    input: '__proto__ and constructor keys',
    outcome: 'read by its own fields only; Object.prototype untouched',
    setup: (env) => writeFile(sessionFile(env), JSON.stringify(session({ status: 'idle' })).replace(/^{/, '{"__proto__":{"status":"waiting","polluted":1},"constructor":{"prototype":{"polluted":1}},')),
    check: async (ctx) => {
      const r = await readSessionFile(sessionFile(ctx.env));
      expect(r).toMatchObject({ kind: 'ok', session: { status: 'idle' } });
      expect(Object.getPrototypeOf((r as { session: object }).session)).toBe(Object.prototype);
      expect(await activityOf(ctx, 'team-lead')).toMatchObject({ sources: expect.arrayContaining(['session']) });
      return 'read as idle; prototype keys ignored';
    },
  },
  {
    kind: 'sessions',
    input: 'a symlink to a file outside ~/.claude',
    outcome: 'refused ("is a symbolic link; not followed"), marker never shown',
    setup: (env) => linkOutside(join(env.outside, 'session.json'), sessionFile(env)),
    check: async (ctx) => {
      const why = await sessionRefused(ctx.env, /^is a symbolic link; not followed$/);
      await noSession(ctx);
      return `refused ${q(why)}`;
    },
  },
  {
    kind: 'sessions',
    input: 'the sessions folder a symlink to a folder outside',
    outcome: 'not followed, marker never shown',
    setup: (env) => linkFolder(sessionsDir(env), join(env.outside, 'sessions')),
    check: async (ctx) => {
      await noSession(ctx);
      return 'folder not followed: no status';
    },
  },
  {
    kind: 'sessions',
    input: 'a symlink loop',
    outcome: 'refused ("is a symbolic link; not followed")',
    setup: (env) => loop(sessionFile(env)),
    check: async (ctx) => {
      const why = await sessionRefused(ctx.env, /^is a symbolic link; not followed$/);
      await noSession(ctx);
      return `refused ${q(why)}`;
    },
  },
  {
    kind: 'sessions',
    input: 'a FIFO',
    outcome: 'refused at once ("is not a file"), nothing hangs',
    setup: (env) => fifo(env, sessionFile(env)),
    check: async (ctx) => {
      const why = await sessionRefused(ctx.env, /^is not a file$/);
      await noSession(ctx);
      return `refused ${q(why)}, no hang`;
    },
  },

  // ---------------------------------------------------------------- lead transcript
  {
    kind: 'lead transcript',
    input: 'a 300 MB sparse file (good rows, a hole, a row at the end)',
    outcome: 'only the last 16 MB read for the timeline: the end row shown, memory bounded',
    setup: (env) => sparse(leadTx(env), HUGE, jsonl([rows.prompt('Start the team.'), rows.end('lead: ok')]), '\n' + jsonl([rows.end('after the hole')])),
    check: async (ctx) => {
      await refresh(ctx, 3);
      expect(await timelineTexts(ctx, 'team-lead')).toEqual(['after the hole']);
      expect((await readTimeline(leadTx(ctx.env), 10)).cut).toBe(true);
      return 'timeline: the end row only (cut); 3 polls, 8 MB each';
    },
  },
  {
    kind: 'lead transcript',
    input: 'one 50 MB line, then a good row',
    outcome: 'the whole line skipped (nothing of it shown), the row after it read',
    setup: (env) => withLongLine(leadTx(env), jsonl([rows.prompt('Start the team.'), rows.end('lead: ok')]), jsonl([rows.prompt('after the long line')])),
    check: async (ctx) => {
      await refresh(ctx, 9);
      expect(await timelineTexts(ctx, 'team-lead')).toEqual(['after the long line']);
      expect(JSON.stringify(await activityOf(ctx, 'team-lead'))).not.toContain(LONG_LINE_MARKER);
      return 'line skipped whole, the next row read';
    },
  },
  {
    kind: 'lead transcript',
    input: 'a torn last line',
    outcome: 'earlier rows shown; the row counts once its line is whole',
    setup: (env) => writeFile(leadTx(env), jsonl([rows.prompt('Start the team.'), rows.end('lead: ok')]) + JSON.stringify(rows.prompt('second prompt')).slice(0, 30)),
    check: async (ctx) => {
      expect(await timelineTexts(ctx, 'team-lead')).toEqual(['Start the team.', 'lead: ok']);
      await appendFile(leadTx(ctx.env), JSON.stringify(rows.prompt('second prompt')).slice(30) + '\n');
      await refresh(ctx);
      expect(await timelineTexts(ctx, 'team-lead')).toEqual(['Start the team.', 'lead: ok', 'second prompt']);
      return 'torn: 2 rows shown; whole: 3';
    },
  },
  {
    kind: 'lead transcript',
    input: 'invalid lines (not JSON, NUL bytes, invalid UTF-8, a BOM, non-objects, wrong types, 100,000-deep nesting)',
    outcome: 'every bad line skipped, the good rows shown',
    setup: (env) =>
      writeFile(
        leadTx(env),
        Buffer.concat([
          Buffer.from(BOM + JSON.stringify(rows.prompt('after a BOM')) + '\n'),
          Buffer.from(jsonl([rows.prompt('Start the team.')])),
          Buffer.from('{not json}\n\u0000\u0000\u0000\n[1,2,3]\nnull\n"a string"\n42\n'),
          Buffer.from('{"type":"user","message":{"content":"bad '),
          INVALID_UTF8,
          Buffer.from('"}}\n'),
          Buffer.from(jsonl([{ type: 'assistant', message: 5 }, { type: 'user', message: { content: {} } }, { type: 'assistant', message: { content: [null, 5, { type: 'tool_use', id: 5, name: {} }], stop_reason: 'end_turn' }, timestamp: 123, uuid: {} }])),
          Buffer.from(`{"type":"user","message":{"content":${deep(100_000)}}}\n`),
          Buffer.from(jsonl([rows.end('lead: ok')])),
        ]),
      ),
    check: async (ctx) => {
      const texts = await timelineTexts(ctx, 'team-lead');
      expect(texts).toEqual(['Start the team.', 'bad \uFFFD\uFFFD\uFFFD\uFFFD\uFFFD\uFFFD\uFFFD', 'lead: ok']);
      return `${texts.length} good rows shown (the BOM line skipped too); invalid UTF-8 as U+FFFD`;
    },
  },
  {
    kind: 'lead transcript',
    input: 'rows with __proto__ and constructor keys',
    outcome: 'read by their own fields; Object.prototype untouched',
    setup: (env) => writeFile(leadTx(env), jsonl([rows.prompt('Start the team.')]) + `{"__proto__":{"type":"assistant","polluted":1},"constructor":{"prototype":{"polluted":1}},"type":"user","message":{"content":"proto row","__proto__":{"content":"x"}},"timestamp":"2026-12-01T10:00:05.000Z"}\n`),
    check: async (ctx) => {
      expect(await timelineTexts(ctx, 'team-lead')).toEqual(['Start the team.', 'proto row']);
      return 'the row read as a prompt; prototype keys ignored';
    },
  },
  {
    kind: 'lead transcript',
    input: 'a symlink to a file outside ~/.claude',
    outcome: 'not followed: no transcript found, marker never shown',
    hides: ['teammate transcript'],
    setup: (env) => linkOutside(join(env.outside, 'transcript.jsonl'), leadTx(env)),
    check: async (ctx) => {
      await refresh(ctx);
      await noTranscripts(ctx);
      expect(await readTimeline(leadTx(ctx.env), 10)).toEqual({ items: [], cut: false });
      return 'not followed: empty timelines, no transcript activity';
    },
  },
  {
    kind: 'lead transcript',
    input: 'its project folder a symlink to a folder outside',
    outcome: 'not followed, marker never shown',
    hides: ['teammate transcript'],
    setup: (env) => linkFolder(projectDir(env), join(env.outside, 'project')),
    check: async (ctx) => {
      await refresh(ctx);
      await noTranscripts(ctx);
      return 'folder not followed: empty timelines';
    },
  },
  {
    kind: 'lead transcript',
    input: 'the projects folder a symlink to a folder outside',
    outcome: 'not followed, marker never shown',
    hides: ['teammate transcript'],
    setup: (env) => linkFolder(join(env.configDir, 'projects'), join(env.outside, 'projects')),
    check: async (ctx) => {
      await refresh(ctx);
      await noTranscripts(ctx);
      return 'folder not followed: empty timelines';
    },
  },
  {
    kind: 'lead transcript',
    input: 'a symlink loop',
    outcome: 'not followed: no transcript found',
    hides: ['teammate transcript'],
    setup: (env) => loop(leadTx(env)),
    check: async (ctx) => {
      await refresh(ctx);
      await noTranscripts(ctx);
      return 'not followed: empty timelines';
    },
  },
  {
    kind: 'lead transcript',
    input: 'a FIFO',
    outcome: 'not a file: no transcript found, nothing hangs',
    hides: ['teammate transcript'],
    setup: (env) => fifo(env, leadTx(env)),
    check: async (ctx) => {
      await refresh(ctx);
      await noTranscripts(ctx);
      expect(await timed(readTimeline(leadTx(ctx.env), 10), 'readTimeline')).toEqual({ items: [], cut: false });
      return 'not read, no hang';
    },
  },

  // ---------------------------------------------------------------- teammate transcript
  {
    kind: 'teammate transcript',
    input: 'a 300 MB sparse file (good rows, a hole, a row at the end)',
    outcome: 'only the last 16 MB read for the timeline: the end row shown, memory bounded',
    setup: (env) => sparse(researcherTx(env), HUGE, jsonl([rows.prompt('go'), rows.call('t1', 'Bash', { command: 'npm test' })]), '\n' + jsonl([rows.call('t2', 'Bash', { command: 'npm run lint' })])),
    check: async (ctx) => {
      await refresh(ctx, 3);
      expect(await timelineTexts(ctx, 'researcher')).toEqual(['npm run lint']);
      return 'timeline: the end row only; 3 polls, 8 MB each';
    },
  },
  {
    kind: 'teammate transcript',
    input: 'one 50 MB line, then a good row',
    outcome: 'the whole line skipped (nothing of it shown), the row after it read',
    setup: (env) => withLongLine(researcherTx(env), jsonl([rows.prompt('go'), rows.call('t1', 'Bash', { command: 'npm test' })]), jsonl([rows.result('t1', 'tests pass')])),
    check: async (ctx) => {
      await refresh(ctx, 9);
      expect(await timelineTexts(ctx, 'researcher')).toEqual(['tests pass']);
      const a = await activityOf(ctx, 'researcher');
      expect(JSON.stringify(a)).not.toContain(LONG_LINE_MARKER);
      expect(a?.tool, 'the call the result after the line answered is no longer in flight').toBeUndefined();
      return 'line skipped whole, the result after it read (npm test done)';
    },
  },
  {
    kind: 'teammate transcript',
    input: 'a torn last line',
    outcome: 'earlier rows shown; the row counts once its line is whole',
    setup: (env) => writeFile(researcherTx(env), jsonl([rows.prompt('go'), rows.call('t1', 'Bash', { command: 'npm test' })]) + JSON.stringify(rows.result('t1', 'tests pass')).slice(0, 40)),
    check: async (ctx) => {
      expect(await activityOf(ctx, 'researcher')).toMatchObject({ kind: 'working', tool: { name: 'Bash', summary: 'npm test' } });
      expect(await timelineTexts(ctx, 'researcher')).toEqual(['go', 'npm test']);
      await appendFile(researcherTx(ctx.env), JSON.stringify(rows.result('t1', 'tests pass')).slice(40) + '\n');
      await refresh(ctx);
      expect(await timelineTexts(ctx, 'researcher')).toEqual(['go', 'npm test', 'tests pass']);
      expect((await activityOf(ctx, 'researcher'))?.tool).toBeUndefined();
      return 'torn: working on npm test; whole: the result read';
    },
  },
  {
    kind: 'teammate transcript',
    input: 'invalid lines (not JSON, NUL bytes, invalid UTF-8, a BOM, non-objects, wrong types, 100,000-deep nesting)',
    outcome: 'every bad line skipped, the good rows shown',
    setup: (env) =>
      writeFile(
        researcherTx(env),
        Buffer.concat([
          Buffer.from(BOM + '{"type":"user"}\n{not json}\n\u0000\u0000\n[1]\nnull\n'),
          Buffer.from(jsonl([rows.prompt('go')])),
          Buffer.from(jsonl([{ type: 'assistant', message: { content: 'x' } }, { type: 'assistant', message: { content: [{ type: 'tool_use', id: ['x'], name: 5, input: null }] } }, { type: 'user', message: { content: [{ type: 'tool_result', tool_use_id: 5 }] } }])),
          Buffer.from(`{"type":"assistant","message":{"content":[{"type":"tool_use","id":"t0","name":"Bash","input":${deep(100_000)}}]}}\n`),
          Buffer.from('{"type":"assistant","message":{"content":[{"type":"tool_use","id":"t1","name":"Bash","input":{"command":"npm '),
          INVALID_UTF8,
          Buffer.from('"}}]}}\n'),
        ]),
      ),
    check: async (ctx) => {
      const texts = await timelineTexts(ctx, 'researcher');
      expect(texts).toEqual(['go', '', 'npm \uFFFD\uFFFD\uFFFD\uFFFD\uFFFD\uFFFD\uFFFD']);
      expect(await activityOf(ctx, 'researcher')).toMatchObject({ kind: 'working', tool: { name: 'Bash' } });
      return 'bad lines skipped; a 100,000-deep tool input shown as a call with no summary; invalid UTF-8 as U+FFFD';
    },
  },
  {
    kind: 'teammate transcript',
    input: 'rows with __proto__ and constructor keys',
    outcome: 'read by their own fields; Object.prototype untouched',
    setup: (env) => writeFile(researcherTx(env), `{"__proto__":{"type":"user","polluted":1},"constructor":{"prototype":{"polluted":1}},"type":"assistant","message":{"content":[{"type":"tool_use","id":"t1","name":"Bash","input":{"__proto__":{"command":"rm -rf /"},"command":"npm test"}}]},"timestamp":"2026-12-01T10:00:01.000Z"}\n`),
    check: async (ctx) => {
      expect(await timelineTexts(ctx, 'researcher')).toEqual(['npm test']);
      expect(await activityOf(ctx, 'researcher')).toMatchObject({ kind: 'working', tool: { name: 'Bash', summary: 'npm test' } });
      return 'working on Bash npm test; prototype keys ignored';
    },
  },
  {
    kind: 'teammate transcript',
    input: 'a symlink to a file outside ~/.claude',
    outcome: 'not followed, marker never shown',
    setup: (env) => linkOutside(join(env.outside, 'transcript.jsonl'), researcherTx(env)),
    check: async (ctx) => {
      await refresh(ctx);
      expect(await timelineTexts(ctx, 'researcher')).toEqual([]);
      expect((await activityOf(ctx, 'researcher'))?.sources ?? []).not.toContain('transcript');
      return 'not followed: empty timeline, no transcript activity';
    },
  },
  {
    kind: 'teammate transcript',
    input: 'its subagents folder a symlink to a folder outside',
    outcome: 'not followed, marker never shown',
    setup: (env) => linkFolder(subagentsDir(env), join(env.outside, 'session', 'subagents')),
    check: async (ctx) => {
      await refresh(ctx);
      expect(await timelineTexts(ctx, 'researcher')).toEqual([]);
      return 'folder not followed: empty timeline';
    },
  },
  {
    kind: 'teammate transcript',
    input: "the lead session's folder (above subagents) a symlink to a folder outside",
    outcome: 'not followed, marker never shown',
    setup: (env) => linkFolder(join(projectDir(env), LIVE_SESSION), join(env.outside, 'session')),
    check: async (ctx) => {
      await refresh(ctx);
      expect(await timelineTexts(ctx, 'researcher')).toEqual([]);
      expect((await activityOf(ctx, 'researcher'))?.sources ?? []).not.toContain('transcript');
      return 'folder not followed: empty timeline, no transcript activity';
    },
  },
  {
    kind: 'teammate transcript',
    input: 'its .meta.json a symlink to a file outside (naming another member)',
    outcome: 'not followed: the member named from the file name, marker never shown',
    setup: (env) => linkOutside(join(env.outside, 'meta.json'), metaFile(env)),
    check: async (ctx) => {
      expect(await rosterOf(ctx)).toEqual(['team-lead', 'researcher']);
      expect(await timelineTexts(ctx, 'researcher')).toEqual(['run the tests', 'npm test']);
      return 'meta not followed: researcher named from its file name';
    },
  },
  {
    kind: 'teammate transcript',
    input: 'a symlink loop',
    outcome: 'not followed',
    setup: (env) => loop(researcherTx(env)),
    check: async (ctx) => {
      await refresh(ctx);
      expect(await timelineTexts(ctx, 'researcher')).toEqual([]);
      return 'not followed: empty timeline';
    },
  },
  {
    kind: 'teammate transcript',
    input: 'a FIFO',
    outcome: 'not a file: not read, nothing hangs',
    setup: (env) => fifo(env, researcherTx(env)),
    check: async (ctx) => {
      await refresh(ctx);
      expect(await timelineTexts(ctx, 'researcher')).toEqual([]);
      expect(await timed(readTimeline(researcherTx(ctx.env), 10), 'readTimeline')).toEqual({ items: [], cut: false });
      return 'not read, no hang';
    },
  },

  // ---------------------------------------------------------------- tasks
  {
    kind: 'tasks',
    input: 'a 300 MB sparse task file',
    outcome: 'refused unread ("is N bytes; at most 1048576 are read"), the other tasks shown',
    setup: (env) => sparse(join(taskDir(env), '2.json'), HUGE, task('2')),
    check: async (ctx) => `problem ${q(await taskProblem(ctx, '2.json', new RegExp(`^is ${HUGE} bytes; at most ${MAX_TASK_FILE_BYTES} are read$`)))}`,
  },
  {
    kind: 'tasks',
    input: 'a torn task file',
    outcome: 'problem "not valid JSON", the other tasks shown',
    setup: (env) => writeFile(join(taskDir(env), '2.json'), task('2').slice(0, 25)),
    check: async (ctx) => `problem ${q(await taskProblem(ctx, '2.json', /^not valid JSON$/))}`,
  },
  {
    kind: 'tasks',
    input: 'not JSON, with NUL bytes',
    outcome: 'problem "not valid JSON"',
    setup: (env) => writeFile(join(taskDir(env), '2.json'), '\u0000{"id":"2"\u0000}'),
    check: async (ctx) => `problem ${q(await taskProblem(ctx, '2.json', /^not valid JSON$/))}`,
  },
  {
    kind: 'tasks',
    input: 'JSON of the wrong types (an object id, a number subject, an unknown status, a string for blocks, an array, null)',
    outcome: 'a "not a task: <field>" problem for each',
    setup: async (env) => {
      const bad = [task('2', { id: {} }), task('3', { subject: 5 }), task('4', { status: 'finished' }), task('5', { blocks: 'x' }), '[{"id":"6"}]', 'null'];
      for (const [i, t] of bad.entries()) await writeFile(join(taskDir(env), `${i + 2}.json`), t);
    },
    check: async (ctx) => {
      const board = await tasksOf(ctx);
      expect(board.tasks.map((t) => t.id)).toEqual(['1']);
      expect(board.problems.map((p) => [p.file.split('/').pop(), p.message.split(':').slice(0, 2).join(':')])).toEqual([
        ['2.json', 'not a task: id'],
        ['3.json', 'not a task: subject'],
        ['4.json', 'not a task: status'],
        ['5.json', 'not a task: blocks'],
        ['6.json', 'not a task: the file'],
        ['7.json', 'not a task: the file'],
      ]);
      return `6 problems (${board.problems.map((p) => p.message.split(':')[1]!.trim()).join(', ')}); task 1 shown`;
    },
  },
  {
    kind: 'tasks',
    input: 'nesting 100,000 levels deep (in metadata, and as the whole file)',
    outcome: 'no stack overflow: the task shown without its metadata; a nest alone is "not a task"',
    setup: async (env) => {
      await writeFile(join(taskDir(env), '2.json'), task('2').replace(/}$/, `,"metadata":${deep(100_000)}}`));
      await writeFile(join(taskDir(env), '3.json'), deep(100_000));
    },
    check: async (ctx) => {
      const board = await tasksOf(ctx);
      expect(board.tasks.map((t) => t.id)).toEqual(['1', '2']);
      const p = await taskProblem(ctx, '3.json', /^not a task: the file/);
      return `task 2 shown; the nest alone ${q(p)}`;
    },
  },
  {
    kind: 'tasks',
    input: 'invalid UTF-8 in a subject, and a UTF-8 BOM',
    outcome: 'tolerant: both shown, invalid bytes as U+FFFD',
    setup: async (env) => {
      await writeFile(join(taskDir(env), '2.json'), Buffer.concat([Buffer.from('{"id":"2","subject":"bad '), INVALID_UTF8, Buffer.from('","status":"pending"}')]));
      await writeFile(join(taskDir(env), '3.json'), BOM + task('3'));
    },
    check: async (ctx) => {
      const board = await tasksOf(ctx);
      expect(board.problems).toEqual([]);
      expect(board.tasks.map((t) => [t.id, t.subject])).toEqual([['1', 'Write the report'], ['2', 'bad \uFFFD\uFFFD\uFFFD\uFFFD\uFFFD\uFFFD\uFFFD'], ['3', 'Task 3']]);
      return '3 tasks shown, no problem';
    },
  },
  {
    kind: 'tasks',
    input: '__proto__ and constructor keys',
    outcome: 'read by its own fields; Object.prototype untouched',
    setup: (env) => writeFile(join(taskDir(env), '2.json'), task('2').replace(/^{/, '{"__proto__":{"status":"completed","owner":"x","polluted":1},"constructor":{"prototype":{"polluted":1}},')),
    check: async (ctx) => {
      const t = (await tasksOf(ctx)).tasks.find((x) => x.id === '2');
      expect(t).toEqual({ id: '2', subject: 'Task 2', description: '', status: 'pending', blocks: [], blockedBy: [] });
      expect(Object.getPrototypeOf(t)).toBe(Object.prototype);
      return 'task 2 shown as pending; prototype keys ignored';
    },
  },
  {
    kind: 'tasks',
    input: 'a symlink to a file outside ~/.claude',
    outcome: 'refused ("is a symbolic link; not followed"), marker never shown',
    setup: (env) => linkOutside(join(env.outside, 'task.json'), join(taskDir(env), '2.json')),
    check: async (ctx) => `problem ${q(await taskProblem(ctx, '2.json', /^is a symbolic link; not followed$/))}`,
  },
  {
    kind: 'tasks',
    input: 'the task list folder a symlink to a folder outside',
    outcome: 'refused ("tasks/<team> is a symbolic link; not followed"), no board, marker never shown',
    hides: ['tasks'],
    setup: (env) => linkFolder(taskDir(env), join(env.outside, 'tasks', LIVE_TEAM)),
    check: async (ctx) => {
      const board = await tasksOf(ctx);
      expect(board).toMatchObject({ exists: false, tasks: [], problems: [{ file: `tasks/${LIVE_TEAM}`, message: 'is a symbolic link; not followed' }] });
      return `problem on tasks/${LIVE_TEAM} ${q(board.problems[0]!.message)}; no board`;
    },
  },
  {
    kind: 'tasks',
    input: 'the tasks folder a symlink to a folder outside',
    outcome: 'refused ("tasks is a symbolic link; not followed"), no board',
    hides: ['tasks'],
    setup: (env) => linkFolder(join(env.configDir, 'tasks'), join(env.outside, 'tasks')),
    check: async (ctx) => {
      const board = await tasksOf(ctx);
      expect(board).toMatchObject({ exists: false, tasks: [], problems: [{ file: 'tasks', message: 'is a symbolic link; not followed' }] });
      return `problem on tasks ${q(board.problems[0]!.message)}; no board`;
    },
  },
  {
    kind: 'tasks',
    input: 'a symlink loop',
    outcome: 'refused ("is a symbolic link; not followed")',
    setup: (env) => loop(join(taskDir(env), '2.json')),
    check: async (ctx) => `problem ${q(await taskProblem(ctx, '2.json', /^is a symbolic link; not followed$/))}`,
  },
  {
    kind: 'tasks',
    input: 'a FIFO',
    outcome: 'refused at once ("is not a file"), nothing hangs',
    setup: (env) => fifo(env, join(taskDir(env), '2.json')),
    check: async (ctx) => `problem ${q(await taskProblem(ctx, '2.json', /^is not a file$/))}, no hang`,
  },

  // ---------------------------------------------------------------- team config
  {
    kind: 'team config',
    input: 'a 300 MB sparse config.json',
    outcome: 'refused unread ("config.json is N bytes; at most 8388608 are read"), the team still listed, memory bounded',
    noLiveSend: true,
    setup: (env) => sparse(configFile(env), HUGE, '{"name":'),
    check: async (ctx) => {
      const p = await configProblem(ctx, new RegExp(`^config.json is ${HUGE} bytes; at most \\d+ are read$`));
      return `problem ${q(p)}`;
    },
  },
  {
    kind: 'team config',
    input: 'a torn config.json at start',
    outcome: 'problem "not valid JSON"; the team listed from its inboxes',
    noLiveSend: true,
    setup: async (env) => {
      const text = await readFile(configFile(env), 'utf8');
      await writeFile(configFile(env), text.slice(0, text.length >> 1));
    },
    check: async (ctx) => {
      const p = await configProblem(ctx, /^config.json is not valid JSON/);
      expect(await rosterOf(ctx)).toEqual(['team-lead']);
      return `problem ${q(p)}; roster from the inboxes`;
    },
  },
  {
    kind: 'team config',
    input: 'torn in place after a good copy',
    outcome: 'the last good config kept (the roster whole), with a problem',
    setup: async () => {},
    check: async (ctx) => {
      const text = await readFile(configFile(ctx.env), 'utf8');
      await writeFile(configFile(ctx.env), text.slice(0, text.length >> 1));
      await refresh(ctx);
      const p = await configProblem(ctx, /^config.json is not valid JSON/);
      expect(await rosterOf(ctx)).toEqual(['team-lead', 'researcher']);
      await writeFile(configFile(ctx.env), text);
      await refresh(ctx);
      expect(configProblems(ctx)).toEqual([]);
      return `problem ${q(p)}; the roster kept; whole again: no problem`;
    },
  },
  {
    kind: 'team config',
    input: 'not JSON, with NUL bytes',
    outcome: 'problem "not valid JSON"',
    noLiveSend: true,
    setup: (env) => writeFile(configFile(env), '\u0000\u0000{"name":\u0000}'),
    check: async (ctx) => `problem ${q(await configProblem(ctx, /^config.json is not valid JSON/))}`,
  },
  {
    kind: 'team config',
    input: 'JSON of the wrong types (an array, null, members an object, odd members, leadProcess a string)',
    outcome: 'not a team config, or the odd members skipped with a problem each',
    noLiveSend: true,
    setup: async () => {},
    check: async (ctx) => {
      const seen: string[] = [];
      for (const text of ['[]', 'null', '"team"', '{"members":{"0":{"name":"x"}}}', '{"name":5}', '{"createdAt":"today"}']) {
        await writeFile(configFile(ctx.env), text);
        const r = await readTeamConfig(configFile(ctx.env), 1);
        expect(r, text).toMatchObject({ kind: 'invalid', message: expect.stringMatching(/^config.json is not a team config/) });
        seen.push(text);
      }
      await writeFile(configFile(ctx.env), JSON.stringify({ name: LIVE_TEAM, leadProcess: 'pid 7', members: [null, 5, 'x', { name: 7 }, { name: 'researcher', joinedAt: 'soon', isActive: 'yes' }, { name: 'writer' }] }));
      await refresh(ctx);
      const p = await configProblem(ctx, /^members\[0\]/);
      expect(p.split('; ')).toHaveLength(5);
      // researcher, skipped from the config, still shows from its transcript.
      expect(await rosterOf(ctx)).toEqual(['team-lead', 'writer', 'researcher']);
      return `${seen.length} shapes "not a team config"; odd members skipped (${p.split('; ').length} named), writer shown`;
    },
  },
  {
    kind: 'team config',
    input: 'nesting 100,000 levels deep (as the whole file, and as a member)',
    outcome: 'no stack overflow: "not a team config"; a nested member skipped',
    noLiveSend: true,
    setup: (env) => writeFile(configFile(env), deep(100_000)),
    check: async (ctx) => {
      const p = await configProblem(ctx, /^config.json is not a team config/);
      await writeFile(configFile(ctx.env), JSON.stringify({ name: LIVE_TEAM, members: [{ name: 'writer' }] }).replace('[{', `[${deep(100_000)},{`));
      await refresh(ctx);
      const m = await configProblem(ctx, /^members\[0\]: entry/);
      expect(await rosterOf(ctx)).toEqual(['team-lead', 'writer']);
      return `whole file ${q(p)}; member ${q(m)}`;
    },
  },
  {
    kind: 'team config',
    input: 'invalid UTF-8 in the description, and a UTF-8 BOM',
    outcome: 'tolerant: read, invalid bytes as U+FFFD, no problem',
    setup: async (env) => {
      const text = (await readFile(configFile(env), 'utf8')).replace(/^{/, '{"description":"bad \u0001",');
      const [a, b] = text.split('\u0001') as [string, string];
      await writeFile(configFile(env), Buffer.concat([Buffer.from(BOM + a), INVALID_UTF8, Buffer.from(b)]));
    },
    check: async (ctx) => {
      expect(configProblems(ctx)).toEqual([]);
      const t = (await ctx.svc.listTeams()).find((x) => x.id === LIVE_TEAM);
      expect(t?.description).toBe('bad \uFFFD\uFFFD\uFFFD\uFFFD\uFFFD\uFFFD\uFFFD');
      expect(await rosterOf(ctx)).toEqual(['team-lead', 'researcher']);
      return 'read; description with U+FFFD; no problem';
    },
  },
  {
    kind: 'team config',
    input: '__proto__ and constructor keys, members named "__proto__" and "constructor"',
    outcome: 'read by its own fields; the odd names are members like any other and take a send; Object.prototype untouched',
    setup: async (env) => {
      const cfg = JSON.parse(await readFile(configFile(env), 'utf8')) as { members: Array<Record<string, unknown>> };
      cfg.members.push({ name: '__proto__' }, { name: 'constructor' });
      const text = JSON.stringify(cfg).replace(/^{/, '{"__proto__":{"members":"x","name":"polluted","polluted":1},"constructor":{"prototype":{"polluted":1}},');
      await writeFile(configFile(env), text);
    },
    check: async (ctx) => {
      expect(configProblems(ctx)).toEqual([]);
      expect(await rosterOf(ctx)).toEqual(['team-lead', 'researcher', '__proto__', 'constructor']);
      for (const to of ['__proto__', 'constructor']) {
        const r = await timed(ctx.svc.send({ team: LIVE_TEAM, to, text: `hello ${to}` }), 'send');
        expect(r.status).toBe('accepted');
        const inbox = JSON.parse(await readFile(join(ctx.env.root, LIVE_TEAM, 'inboxes', `${to}.json`), 'utf8')) as Array<{ msg_id?: string }>;
        expect(inbox.filter((e) => e.msg_id === r.id)).toHaveLength(1);
      }
      return 'roster of 4; "__proto__" and "constructor" each took a send';
    },
  },
  {
    kind: 'team config',
    input: 'a symlink to a file outside ~/.claude',
    outcome: 'refused ("config.json is a symbolic link; not followed"), marker never shown',
    noLiveSend: true,
    setup: (env) => linkOutside(join(env.outside, 'config.json'), configFile(env)),
    check: async (ctx) => {
      const p = await configProblem(ctx, /^config.json is a symbolic link; not followed$/);
      expect(await rosterOf(ctx)).toEqual(['team-lead']);
      return `problem ${q(p)}`;
    },
  },
  {
    kind: 'team config',
    input: 'the team folder a symlink to a folder outside',
    outcome: 'not a team: not listed, marker never shown',
    noLiveSend: true,
    setup: (env) => linkFolder(join(env.root, LIVE_TEAM), join(env.outside, 'team')),
    check: async (ctx) => {
      expect((await ctx.svc.listTeams()).map((t) => t.id)).toEqual(['control']);
      return 'not listed';
    },
  },
  {
    kind: 'team config',
    input: 'a symlink loop',
    outcome: 'refused ("config.json is a symbolic link; not followed")',
    noLiveSend: true,
    setup: (env) => loop(configFile(env)),
    check: async (ctx) => `problem ${q(await configProblem(ctx, /^config.json is a symbolic link; not followed$/))}`,
  },
  {
    kind: 'team config',
    input: 'a FIFO',
    outcome: 'refused at once ("config.json is not a file"), nothing hangs',
    noLiveSend: true,
    setup: (env) => fifo(env, configFile(env)),
    check: async (ctx) => `problem ${q(await configProblem(ctx, /^config.json is not a file$/))}, no hang`,
  },
];

// ------------------------------------------------------------------ the healthy team and the world outside

/** The live team as Claude leaves it: config, sessions file, both transcripts, a task. */
async function healthyTeam(env: Env): Promise<void> {
  await liveTeam(env, { leadTranscript: true });
  await mkdir(sessionsDir(env), { recursive: true });
  await writeFile(sessionFile(env), JSON.stringify(session({ status: 'busy' })));
  await mkdir(subagentsDir(env), { recursive: true });
  await writeFile(researcherTx(env), jsonl([rows.prompt('<teammate-message teammate_id="team-lead">\nrun the tests\n</teammate-message>'), rows.call('t1', 'Bash', { command: 'npm test' })]));
  await writeFile(metaFile(env), JSON.stringify({ agentType: 'general-purpose', name: 'researcher', teamName: LIVE_TEAM }));
  await mkdir(taskDir(env), { recursive: true });
  await writeFile(join(taskDir(env), '1.json'), task('1', { subject: 'Write the report', owner: 'researcher' }));
}

/** Everything outside the config dir a link may point at: each file holds the marker. */
async function secretsOutside(env: Env): Promise<void> {
  const o = env.outside;
  const secretSession = JSON.stringify(session({ status: 'waiting', waitingFor: MARKER, version: MARKER }));
  const secretTx = jsonl([rows.prompt(MARKER), rows.call('s1', 'Bash', { command: MARKER }), rows.end(MARKER)]);
  const secretConfig = JSON.stringify({ name: MARKER, description: MARKER, leadSessionId: LIVE_SESSION, members: [{ name: 'team-lead', agentType: 'team-lead' }, { name: MARKER }] });
  const files: Record<string, string> = {
    'session.json': secretSession,
    [`sessions/${process.pid}.json`]: secretSession,
    'transcript.jsonl': secretTx,
    [`project/${LIVE_SESSION}.jsonl`]: secretTx,
    [`project/${LIVE_SESSION}/subagents/agent-aresearcher-0123456789abcdef.jsonl`]: secretTx,
    [`projects/${SLUG}/${LIVE_SESSION}.jsonl`]: secretTx,
    [`session/subagents/agent-aresearcher-0123456789abcdef.jsonl`]: secretTx,
    [`session/subagents/agent-a${MARKER}-0123456789abcdef.jsonl`]: secretTx,
    'meta.json': JSON.stringify({ name: MARKER, teamName: LIVE_TEAM }),
    'task.json': task('2', { subject: MARKER, description: MARKER }),
    [`tasks/${LIVE_TEAM}/1.json`]: task('1', { subject: MARKER }),
    [`tasks/${LIVE_TEAM}/9.json`]: task('9', { subject: MARKER }),
    'config.json': secretConfig,
    'team/config.json': secretConfig,
    'team/inboxes/team-lead.json': JSON.stringify([message(MARKER, MARKER, '2026-12-01T10:00:00.000Z')]),
  };
  for (const [rel, text] of Object.entries(files)) {
    await mkdir(join(o, rel, '..'), { recursive: true });
    await writeFile(join(o, rel), text);
  }
}

type Entry = { kind: 'file'; sha: string } | { kind: 'dir' } | { kind: 'link'; target: string } | { kind: 'other' };

async function snapshot(dir: string, out = new Map<string, Entry>(), rel = ''): Promise<Map<string, Entry>> {
  for (const d of await readdir(dir, { withFileTypes: true })) {
    const a = join(dir, d.name);
    const r = rel ? `${rel}/${d.name}` : d.name;
    if (d.isSymbolicLink()) out.set(r, { kind: 'link', target: await readlink(a) });
    else if (d.isDirectory()) {
      out.set(r, { kind: 'dir' });
      await snapshot(a, out, r);
    } else if (d.isFile()) out.set(r, { kind: 'file', sha: createHash('sha256').update(await readFile(a)).digest('hex') });
    else out.set(r, { kind: 'other' });
  }
  return out;
}

/** Every answer the engine gives about every team, as one text. */
async function everything(svc: TeamService): Promise<string> {
  const out: unknown[] = [];
  const teams = await timed(svc.listTeams(), 'listTeams');
  out.push(teams, await timed(svc.needs(), 'needs'), svc.problems());
  for (const t of teams) {
    const roster = await timed(svc.roster(t.id), 'roster');
    out.push(roster, await timed(svc.activity(t.id), 'activity'), await timed(svc.tasks(t.id), 'tasks'), await timed(svc.feed(t.id), 'feed'));
    for (const m of roster) out.push(await timed(svc.thread(t.id, m.name), 'thread'), await timed(svc.timeline(t.id, m.name), 'timeline'));
  }
  return JSON.stringify(out);
}

/** Opens each FIFO for writing and closes it, so a read blocked on one returns. */
async function unblock(fifos: string[]): Promise<void> {
  // A non-blocking open for writing fails (ENXIO) while nobody has the FIFO open for reading.
  for (let i = 0, opened = fifos.length > 0; i < 30 && opened; i++) {
    opened = false;
    for (const f of fifos) {
      const fh = await open(f, constants.O_WRONLY | constants.O_NONBLOCK).catch(() => undefined);
      if (fh) opened = true;
      await fh?.close();
    }
    await new Promise((r) => setTimeout(r, 10));
  }
}

// ------------------------------------------------------------------ the runner

const rejections: unknown[] = [];
const onRejection = (r: unknown) => rejections.push(r);
const results: string[] = [];
const PROTO_KEYS = Object.getOwnPropertyNames(Object.prototype).sort();
const KINDS: Kind[] = ['sessions', 'lead transcript', 'teammate transcript', 'tasks', 'team config'];

/** What the healthy team shows of each kind of file; a case must leave the kinds it does not hide. */
async function stillShown(ctx: Ctx, c: HostileCase): Promise<void> {
  const keep = (k: Kind) => k !== c.kind && !c.hides?.includes(k);
  if (c.kind === 'team config' && c.noLiveSend) return; // without a config the team has no session, transcripts nor task list name
  if (keep('team config')) expect(await rosterOf(ctx)).toEqual(['team-lead', 'researcher']);
  if (keep('sessions')) expect((await activityOf(ctx, 'team-lead'))?.sources, 'the sessions file still reads').toContain('session');
  if (keep('lead transcript')) expect(await timelineTexts(ctx, 'team-lead'), 'the lead transcript still reads').toEqual(['Start the team.', 'lead: ok']);
  if (keep('teammate transcript')) {
    expect(await activityOf(ctx, 'researcher'), 'the teammate transcript still reads').toMatchObject({ kind: 'working', tool: { name: 'Bash', summary: 'npm test' } });
  }
  if (keep('tasks')) expect((await tasksOf(ctx)).tasks.map((t) => t.id), 'the good task still shows').toContain('1');
}

async function sendsDeliver(ctx: Ctx, c: HostileCase): Promise<void> {
  const targets: Array<[string, string]> = [['control', 'helper']];
  if (!c.noLiveSend && (await ctx.svc.listTeams()).some((t) => t.id === LIVE_TEAM)) targets.push([LIVE_TEAM, 'researcher']);
  for (const [team, to] of targets) {
    const r = await timed(ctx.svc.send({ team, to, text: `still delivers to ${to}` }), 'send');
    expect(r.status, `${team}/${to} accepts a send`).toBe('accepted');
    const inbox = JSON.parse(await readFile(join(ctx.env.root, team, 'inboxes', `${to}.json`), 'utf8')) as Array<{ msg_id?: string; from?: string }>;
    expect(inbox.filter((e) => e.msg_id === r.id), `${team}/${to}'s inbox holds the send once`).toHaveLength(1);
  }
  expect((await timed(ctx.svc.roster('control'), 'roster')).map((m) => m.name)).toEqual(['team-lead', 'helper']);
}

async function runCase(c: HostileCase): Promise<string> {
  const base = await mkdtemp(join(tmpdir(), 'teamdeck-hostile-'));
  const configDir = join(base, 'claude');
  const env: Env = { base: configDir, configDir, root: join(configDir, 'teams'), stateDir: join(base, 'state'), outside: join(base, 'outside'), fifos: [] };
  let svc: TeamService | undefined;
  let peak = process.memoryUsage.rss();
  const rss0 = peak;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 5);
  try {
    await mkdir(env.root, { recursive: true });
    await mkdir(env.stateDir);
    await mkdir(env.outside);
    await secretsOutside(env);
    await writeTeam(env.root, 'control', {
      config: { name: 'control', members: [{ name: 'team-lead', agentType: 'team-lead' }, { name: 'helper' }] },
      inboxes: { helper: [message('team-lead', 'carry on', '2025-06-01T11:00:00.000Z')], user: [] },
    });
    await healthyTeam(env);
    await c.setup(env);
    const outsideBefore = await snapshot(env.outside);
    const rejectionsBefore = rejections.length;

    svc = new TeamService({ teamsRoot: env.root, stateDir: env.stateDir, watch: false, backoff: { initialMs: 50, maxMs: 1_000 } });
    await timed(svc.start(), 'start');
    const ctx: Ctx = { env, svc };
    const seen = await c.check(ctx);
    await stillShown(ctx, c);
    const shown = await everything(svc);
    expect(shown.includes(MARKER), 'the marker from outside shows in an answer').toBe(false);
    expect(shown.includes(LONG_LINE_MARKER), 'part of a line too long to read shows in an answer').toBe(false);
    await sendsDeliver(ctx, c);
    await unblock(env.fifos);
    await timed(svc.stop(), 'stop');
    svc = undefined;

    await new Promise((r) => setTimeout(r, 10));
    expect(rejections.slice(rejectionsBefore), 'unhandled rejections').toEqual([]);
    expect(await snapshot(env.outside), 'something outside changed').toEqual(outsideBefore);
    expect(Object.getOwnPropertyNames(Object.prototype).sort(), 'Object.prototype gained a key').toEqual(PROTO_KEYS);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    const grew = peak - rss0;
    expect(grew, `RSS grew ${Math.round(grew / 1048576)} MB during the case`).toBeLessThan(RSS_BOUND);
    return `${seen} [RSS +${Math.max(0, Math.round(grew / 1048576))} MB]`;
  } finally {
    clearInterval(sampler);
    await unblock(env.fifos);
    await svc?.stop().catch(() => {});
    await rm(base, { recursive: true, force: true });
  }
}

const title = (c: HostileCase) => `${c.kind} · ${c.input} · ${c.outcome}`;

describe('hostile files beside the inboxes (sessions, transcripts, tasks, team config)', () => {
  beforeAll(() => {
    process.on('unhandledRejection', onRejection);
  });
  afterAll(() => {
    process.off('unhandledRejection', onRejection);
    console.log(['hostile files, case by case:', ...results].join('\n'));
  });

  it('covers huge, torn, invalid, linked outside, a link loop and a FIFO for every kind of file', () => {
    for (const k of KINDS) {
      const inputs = CASES.filter((c) => c.kind === k).map((c) => c.input).join(' | ');
      for (const word of ['300 MB', 'torn', 'not JSON|invalid lines|wrong types', 'outside', 'loop', 'FIFO']) expect(inputs, `${k} has a case for ${word}`).toMatch(new RegExp(word));
    }
    expect(new Set(CASES.map(title)).size).toBe(CASES.length);
  });

  for (const c of CASES) {
    it(title(c), async () => {
      const t0 = Date.now();
      try {
        results.push(`${c.kind} · ${c.input} -> ${await runCase(c)} [${Date.now() - t0} ms]`);
      } catch (e) {
        results.push(`${c.kind} · ${c.input} -> FAILED: ${(e as Error).message.split('\n')[0]!.slice(0, 200)}`);
        throw e;
      }
    }, 30_000);
  }
});
