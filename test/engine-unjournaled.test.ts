// Journal writes that fail where no caller waits for them, caused for real: the engine runs in
// a process with a file-size limit (`ulimit -f`), so a record bigger than the limit fails to be
// written (EFBIG) while everything small goes on as usual. Nobody is there to be told by an
// exception (the background reading, a read the watcher asked for, an answer arriving on
// Teamdeck's messaging socket): the failure must reach the user as a problem, in the engine's
// problems() and as a 'problem' event.
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { procStartOf } from '../src/engine/claude/lifecycle.js';
import { sendPeerMessage, socketPathOf } from '../src/engine/claude/peer-socket.js';
import type { TeamProblem } from '../src/shared/types.js';
import { has, spawnHelper, until, type Proc } from './helpers/engine-proc.js';
import type { SentLine } from './helpers/engine-runner.js';
import { tempTeams, writeTeam, type TempTeams } from './helpers/team-fixture.js';

const isWindows = process.platform === 'win32';
/** The engine's file-size limit: 256 blocks of 512 bytes (POSIX sh counts `ulimit -f` so), 128 KiB. */
const LIMIT_BLOCKS = 256;
/** A text whose journal record is over the limit (600 KB), where every other file the engine writes stays far below it. */
const BIG = 'a long answer. '.repeat(40_000);
/** The engine, through a shell that lowers its file-size limit first. */
const LIMITED = ['sh', '-c', `ulimit -f ${LIMIT_BLOCKS} && exec "$@"`, 'sh'];

let t: TempTeams;
const procs: Proc[] = [];
beforeEach(async () => {
  t = await tempTeams('teamdeck-unjournaled-');
  await mkdir(t.stateDir, { recursive: true });
});
afterEach(async () => {
  for (const p of procs.splice(0)) p.kill();
  await t.cleanup();
});

function engine(opts: Record<string, unknown> = {}): Proc {
  const p = spawnHelper('engine-runner.ts', [JSON.stringify({ teamsRoot: t.root, stateDir: t.stateDir, ...opts })], LIMITED);
  procs.push(p);
  return p;
}

const problemLine = (match: (p: TeamProblem) => boolean) => (l: unknown) => has('problem')(l) && match((l as { problem: TeamProblem }).problem);

describe.skipIf(isWindows)('a journal write that fails with no caller to tell (EFBIG under a file-size limit)', () => {
  it('a team the background reading could not read is reported', async () => {
    const at = new Date().toISOString();
    await writeTeam(t.root, 'alpha', ['ann'], { inboxes: { 'team-lead': [{ from: 'ann', text: BIG, timestamp: at, read: false }] } });
    const e = engine({ openInBackground: true });
    await e.waitFor(has('ready'));
    const problem = await e.waitFor<{ problem: TeamProblem }>(problemLine((p) => p.kind === 'journal' && /background/.test(p.message)), 15_000);
    expect(problem.problem.message).toMatch(/EFBIG/);
    const { problems } = await e.ask<{ problems: TeamProblem[] }>({ cmd: 'problems' }, has('problems'));
    expect(problems).toContainEqual(problem.problem);
    await e.ask({ cmd: 'stop' }, has('stopped'));
  });

  it('an inbox the watcher had read, whose messages the journal did not take, is reported', async () => {
    await writeTeam(t.root, 'gamma', ['ann'], { inboxes: { 'team-lead': [] } });
    const e = engine({ watch: true });
    await e.waitFor(has('ready'));
    await writeFile(join(t.root, 'gamma', 'inboxes', 'team-lead.json'), JSON.stringify([{ from: 'ann', text: BIG, timestamp: new Date().toISOString(), read: false }]));
    const problem = await e.waitFor<{ problem: TeamProblem }>(problemLine((p) => p.kind === 'journal' && p.message.includes('gamma/inboxes/team-lead.json')), 15_000);
    expect(problem.problem.message).toMatch(/EFBIG/);
    const { problems } = await e.ask<{ problems: TeamProblem[] }>({ cmd: 'problems' }, has('problems'));
    expect(problems).toContainEqual(problem.problem);
    await e.ask({ cmd: 'stop' }, has('stopped'));
  });

  describe("an answer on Teamdeck's messaging socket", () => {
    const TEAM = 'beta';
    let socks: string;
    let lead: Server | undefined;
    beforeEach(async () => {
      // Short: a unix socket's path has at most 103 bytes.
      socks = await mkdtemp(join(tmpdir(), 'tdua-'));
    });
    afterEach(async () => {
      await new Promise<void>((r) => (lead ? lead.close(() => r()) : r()));
      lead = undefined;
      await rm(socks, { recursive: true, force: true });
    });

    /** A current-era team whose lead (this process) listens on its messaging socket; the lines it gets. */
    async function liveLead(): Promise<{ socketPath: string; got: unknown[] }> {
      const socketPath = join(socks, `${process.pid}.sock`);
      const got: unknown[] = [];
      lead = createServer({ allowHalfOpen: true }, (s: Socket) => {
        let buf = '';
        s.setEncoding('utf8');
        s.on('data', (d) => (buf += d));
        s.on('end', () => {
          for (const l of buf.split('\n').filter(Boolean)) got.push(JSON.parse(l));
          s.end();
        });
      });
      await new Promise<void>((r) => lead!.listen(socketPath, r));
      const sessionId = '6a1e0c52-0000-4000-8000-000000000001';
      await writeTeam(t.root, TEAM, ['ann'], { inboxes: { ann: [], 'team-lead': [] } });
      const configPath = join(t.root, TEAM, 'config.json');
      const cfg = JSON.parse(await readFile(configPath, 'utf8'));
      cfg.leadSessionId = sessionId;
      cfg.leadProcess = { pid: process.pid, claimedAt: Date.now(), procStart: procStartOf(process.pid) };
      await writeFile(configPath, JSON.stringify(cfg, null, 2));
      await mkdir(join(t.base, 'sessions'), { recursive: true });
      await writeFile(
        join(t.base, 'sessions', `${process.pid}.json`),
        JSON.stringify({ pid: process.pid, sessionId, cwd: '/tmp', startedAt: Date.now(), version: '2.1.332', peerProtocol: 1, kind: 'interactive', messagingSocketPath: socketPath, name: 'proj-e0', status: 'idle' }),
      );
      return { socketPath, got };
    }

    it('that cannot be journaled is reported as a problem of the team', async () => {
      const { socketPath, got } = await liveLead();
      const e = engine();
      await e.waitFor(has('ready'));
      const sent = await e.ask<{ sent: SentLine }>({ cmd: 'send', team: TEAM, to: 'team-lead', text: 'Please answer.', tag: 'q', channel: 'socket' }, has('sent'));
      expect(sent.sent.status, JSON.stringify(sent.sent)).toBe('accepted');
      // Teamdeck's address is in the message the lead got: the lead answers there, as Claude does.
      await until(() => got.some((l) => (l as { type?: string }).type === 'user'), 10_000, 'the message at the lead');
      const asked = got.find((l) => (l as { type?: string }).type === 'user') as { from: string };
      const teamdeck = socketPathOf(asked.from)!;
      await sendPeerMessage({ socketPath: teamdeck, from: `uds:${socketPath}`, msgId: 'answer-1', text: BIG, fromName: 'proj-e0' });
      const problem = await e.waitFor<{ problem: TeamProblem }>(problemLine((p) => p.file === `journal/${TEAM}`), 15_000);
      expect(problem.problem).toMatchObject({ kind: 'journal' });
      expect(problem.problem.message).toMatch(/team-lead's answer/);
      expect(problem.problem.message).toMatch(/EFBIG/);
      const { problems } = await e.ask<{ problems: TeamProblem[] }>({ cmd: 'problems' }, has('problems'));
      expect(problems).toContainEqual(problem.problem);
      await e.ask({ cmd: 'stop' }, has('stopped'));
    });
  });
});
