// `teamdeck sim` and `teamdeck demo` in real child processes over real temp dirs: the era flag,
// its refusals, and what each era leaves on disk.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { claudeAppend, claudeEntry, claudeSend, type ClaudeMessage } from '../../sim/claude-inbox.js';

const BIN = fileURLToPath(new URL('../../../bin/teamdeck.mjs', import.meta.url));

let dir: string;
let teams: string;
const children: ChildProcess[] = [];
const extra: string[] = [];

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'teamdeck-simcli-'));
  teams = join(dir, 'teams');
  await mkdir(teams);
});
afterEach(async () => {
  for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  for (const d of [dir, ...extra.splice(0)]) await rm(d, { recursive: true, force: true });
});

function env(): NodeJS.ProcessEnv {
  const e: NodeJS.ProcessEnv = { ...process.env, HOME: dir };
  delete e.TEAMDECK_TEAMS_DIR;
  delete e.TEAMDECK_STATE_DIR;
  delete e.CLAUDE_CONFIG_DIR;
  return e;
}

function run(args: string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], { env: env(), cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

function start(args: string[]) {
  const child = spawn(process.execPath, [BIN, ...args], { env: env(), cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  const lines: Record<string, unknown>[] = [];
  let buf = '';
  let err = '';
  child.stdout!.setEncoding('utf8').on('data', (c: string) => {
    buf += c;
    const parts = buf.split('\n');
    buf = parts.pop() ?? '';
    for (const p of parts) {
      try {
        lines.push(JSON.parse(p) as Record<string, unknown>);
      } catch {
        // not a JSON line
      }
    }
  });
  child.stderr!.setEncoding('utf8').on('data', (c: string) => (err += c));
  const closed = new Promise<number | null>((r) => child.on('close', (code) => r(code)));
  const line = async (pred: (l: Record<string, unknown>) => boolean, timeoutMs = 20_000) => {
    const end = Date.now() + timeoutMs;
    for (;;) {
      const hit = lines.find(pred);
      if (hit) return hit;
      if (Date.now() > end || child.exitCode !== null) throw new Error(`no matching line; stdout: ${JSON.stringify(lines)} stderr: ${err}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  };
  return {
    child,
    line,
    stop: () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGINT');
      return closed;
    },
  };
}

const gone = (p: string) => stat(p).then(
  () => false,
  () => true,
);

describe('flags', () => {
  it('refuses what the era cannot do, before writing anything', async () => {
    const named = await run(['sim', '--teams-dir', teams, '--team', 'gamma']);
    expect(named.code).toBe(2);
    expect(named.stderr).toContain('--era legacy');
    expect((await run(['sim', '--teams-dir', teams, '--mode', 'flag'])).code).toBe(2);
    expect((await run(['sim', '--teams-dir', teams, '--era', 'legacy'])).stderr).toContain('--team is required');
    expect((await run(['sim', '--teams-dir', teams, '--era', 'legacy', '--team', 'g', '--lead-exit-after', '5'])).code).toBe(2);
    expect((await run(['sim', '--teams-dir', teams, '--era', 'modern'])).stderr).toContain('--era must be current or legacy');
    // A real Claude configuration (here: the child's HOME) is never written into.
    const real = await run(['demo', '--teams-dir', join(dir, '.claude', 'teams')]);
    expect(real.code).toBe(2);
    expect(real.stderr).toContain('real Claude configuration');
    expect(await readdir(teams)).toEqual([]);
    expect(await gone(join(dir, '.claude'))).toBe(true);
  });
});

describe('teamdeck sim', () => {
  it('current era by default: this process is the lead; an answer is an idle_notification result; Ctrl-C deletes the team', async () => {
    const s = start(['sim', '--json', '--teams-dir', teams, '--members', 'a', '--poll-ms', '20', '--work-ms', '1,3', '--seed', '4']);
    const h = await s.line((l) => l.kind === 'simulating');
    expect(h).toMatchObject({ era: 'current', created: true, members: ['a'], mode: 'prune', seed: 4, pid: s.child.pid, configDir: dir });
    expect(h.team).toMatch(/^session-[0-9a-f]{8}$/);
    await s.line((l) => l.kind === 'idle' && l.member === 'a');
    await claudeSend(h.teamDir as string, 'a', claudeEntry({ from: 'teamdeck', text: 'Write the changelog' }));
    expect(await s.line((l) => l.kind === 'replied' && String(l.text).includes('Write the changelog'))).toMatchObject({ member: 'a', to: 'team-lead' });
    await expect(stat(join(h.teamDir as string, 'inboxes', 'user.json'))).rejects.toThrow();
    expect(await s.stop()).toBe(0);
    expect(await readdir(teams)).toEqual([]);
    expect(await gone(join(dir, 'sessions', `${s.child.pid}.json`))).toBe(true);
  });

  it('--era legacy: the named team of old, answers in user.json', async () => {
    const s = start(['sim', '--json', '--era', 'legacy', '--teams-dir', teams, '--team', 'gamma', '--members', 'a', '--poll-ms', '20', '--work-ms', '1,3']);
    expect(await s.line((l) => l.kind === 'simulating')).toMatchObject({ era: 'legacy', team: 'gamma', mode: 'prune' });
    const inbox = (m: string) => join(teams, 'gamma', 'inboxes', `${m}.json`);
    await claudeAppend(inbox('a'), { from: 'user', text: 'Write the changelog', timestamp: new Date().toISOString(), read: false });
    await s.line((l) => l.kind === 'replied' && l.to === 'user');
    const replies = JSON.parse(await readFile(inbox('user'), 'utf8')) as ClaudeMessage[];
    expect(replies.map((r) => r.from)).toEqual(['a']);
    expect(await s.stop()).toBe(0);
    expect(await readdir(teams)).toEqual(['gamma']);
  });
});

describe('teamdeck demo', () => {
  it('current era by default, in a temporary folder of its own; stopping it ends the lead and its team', async () => {
    const d = start(['demo', '--json', '--poll-ms', '50']);
    const h = await d.line((l) => l.kind === 'demo');
    const root = h.teamsDir as string;
    extra.push(dirname(root));
    expect(root.startsWith(tmpdir())).toBe(true);
    expect(h).toMatchObject({ era: 'current', created: true, members: ['researcher', 'implementer'], mode: 'prune', configDir: dirname(root) });
    expect(await readdir(root)).toEqual([h.team]);
    expect(await d.stop()).toBe(0);
    expect(await readdir(root)).toEqual([]);
  });

  it('--era legacy: the team "demo", flag mode, files left in place', async () => {
    const d = start(['demo', '--json', '--era', 'legacy', '--teams-dir', teams, '--poll-ms', '50']);
    expect(await d.line((l) => l.kind === 'demo')).toMatchObject({ era: 'legacy', team: 'demo', teamsDir: teams, created: true, mode: 'flag' });
    expect(await d.stop()).toBe(0);
    expect(await readdir(join(teams, 'demo', 'inboxes'))).toContain('user.json');
  });
});
