// Each spec gets its own teams root and state dir in a fresh temp folder, its own browser host
// process (`serve --port 0 --json`, waited on through its "ready" line), and its own simulated
// members; all are stopped and removed afterwards. Waits are on explicit signals, never sleeps.
import { test as base, expect, type Page } from '@playwright/test';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { claudeAppend, type ClaudeMessage } from '../src/sim/claude-inbox.js';
import { createTeam, runMember, simTeamPaths, type MemberHandle, type RunMemberOptions, type SimMemberSpec } from '../src/sim/simulator.js';

export const REPO = join(import.meta.dirname, '..');
const RUN_TS = join(REPO, 'bin', 'run-ts.mjs');
const HOST_MAIN = join(REPO, 'e2e', 'helpers', 'host-main.ts');

export interface Line {
  proc: ChildProcess;
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<string>;
  send(line: string): void;
  stop(): Promise<void>;
}

/** A TypeScript helper in its own Node process, with its stdout read line by line. */
export function spawnTs(file: string, args: string[], env: NodeJS.ProcessEnv = process.env): Line {
  const proc = spawn(process.execPath, [RUN_TS, file, ...args], { cwd: REPO, env, stdio: ['pipe', 'pipe', 'pipe'] });
  const lines: string[] = [];
  const waiters: { pattern: RegExp; resolve: (l: string) => void }[] = [];
  let stderr = '';
  proc.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  createInterface({ input: proc.stdout! }).on('line', (line) => {
    lines.push(line);
    for (const w of [...waiters]) {
      if (w.pattern.test(line)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(line);
      }
    }
  });
  const exited = new Promise<void>((r) => proc.once('exit', () => r()));
  return {
    proc,
    send: (line) => void proc.stdin!.write(line + '\n'),
    waitFor: (pattern, timeoutMs = 30_000) => {
      const seen = lines.find((l) => pattern.test(l));
      if (seen) return Promise.resolve(seen);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`${file}: no line matching ${pattern} in ${timeoutMs} ms; stderr: ${stderr}`)), timeoutMs);
        waiters.push({
          pattern,
          resolve: (l) => {
            clearTimeout(timer);
            resolve(l);
          },
        });
        void exited.then(() => {
          clearTimeout(timer);
          reject(new Error(`${file} exited before printing ${pattern}; stderr: ${stderr}`));
        });
      });
    },
    stop: async () => {
      if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGTERM');
      await exited;
    },
  };
}

export interface Deck {
  base: string;
  teamsDir: string;
  stateDir: string;
  /** Starts the host on this spec's folders; resolves once it has printed its ready line. */
  start(): Promise<{ url: string; port: number }>;
  /** Starts the host if needed, opens the app and waits until its first snapshot is shown. */
  open(page: Page): Promise<void>;
  /** A Claude-compatible team, written the way Claude writes it. */
  createTeam(team: string, members: (string | SimMemberSpec)[], opts?: { now?: () => number }): Promise<void>;
  /** Appends a message to an inbox with Claude's own algorithm (lock, read, push, rename). */
  append(team: string, owner: string, message: ClaudeMessage): Promise<void>;
  inbox(team: string, owner: string): string;
  /** Runs a simulated member in this process; stopped when the spec ends. */
  member(opts: Omit<RunMemberOptions, 'teamsDir'>): MemberHandle;
  /** Holds the proper-lockfile lock of an inbox from another process until release() is called. */
  holdLock(team: string, owner: string): Promise<{ release(): Promise<void> }>;
  /** Problems the page reported: CSP violations and uncaught errors. */
  pageProblems: string[];
}

export const test = base.extend<{ deck: Deck }>({
  deck: async ({}, use) => {
    const base = await mkdtemp(join(tmpdir(), 'teamdeck-e2e-'));
    const teamsDir = join(base, 'teams');
    const stateDir = join(base, 'state');
    await mkdir(teamsDir, { recursive: true });
    const children: Line[] = [];
    const members: MemberHandle[] = [];
    let host: { url: string; port: number } | undefined;
    const pageProblems: string[] = [];
    const deck: Deck = {
      base,
      teamsDir,
      stateDir,
      pageProblems,
      start: async () => {
        if (host) return host;
        const env = { ...process.env, TEAMDECK_TEAMS_DIR: undefined, CLAUDE_CONFIG_DIR: undefined, TEAMDECK_STATE_DIR: undefined };
        const child = spawnTs(HOST_MAIN, ['--port', '0', '--json', '--teams-dir', teamsDir, '--state-dir', stateDir], env);
        children.push(child);
        const ready = JSON.parse(await child.waitFor(/"event":"ready"/)) as { url: string; port: number };
        host = { url: ready.url, port: ready.port };
        return host;
      },
      open: async (page) => {
        const { url } = await deck.start();
        page.on('console', (msg) => {
          // Violations only: a policy the page itself declares in a meta tag may log notices too.
          if (msg.type() === 'error' && /Refused to|violates the following Content Security Policy/i.test(msg.text())) pageProblems.push(msg.text());
        });
        page.on('pageerror', (err) => pageProblems.push(`pageerror: ${err.message}`));
        await page.goto(url);
        await expect(page.getByTestId('app')).toHaveAttribute('data-phase', 'ready');
      },
      createTeam: async (team, list, opts) => {
        // Legacy era on purpose: these specs expect answers in inboxes/user.json.
        await createTeam({ teamsDir, team, era: 'legacy', members: list, now: opts?.now, cwd: base });
      },
      append: (team, owner, message) => claudeAppend(simTeamPaths(teamsDir, team).inbox(owner), message),
      inbox: (team, owner) => simTeamPaths(teamsDir, team).inbox(owner),
      member: (opts) => {
        const h = runMember({ era: 'legacy', ...opts, teamsDir });
        members.push(h);
        return h;
      },
      holdLock: async (team, owner) => {
        const path = simTeamPaths(teamsDir, team).inbox(owner);
        const child = spawnTs(join(REPO, 'e2e', 'helpers', 'hold-lock.ts'), [path]);
        children.push(child);
        await child.waitFor(/^locked$/);
        return {
          release: async () => {
            child.send('release');
            await child.waitFor(/^released$/);
          },
        };
      },
    };
    await use(deck);
    await Promise.all(members.map((m) => m.stop()));
    await Promise.all(children.map((c) => c.stop()));
    await rm(base, { recursive: true, force: true });
  },
});

export { expect };

export const iso = (ms: number) => new Date(ms).toISOString();

/** The user's own message row in the open thread, found by its text. */
export function sentRow(page: Page, text: string) {
  return page.locator('[data-testid^="msg-"][data-status]', { hasText: text });
}
