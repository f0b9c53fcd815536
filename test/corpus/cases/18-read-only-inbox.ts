import { execFileSync, spawnSync } from 'node:child_process';
import { chmod, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { REPO_ROOT } from '../../helpers/tmp.js';
import { TS, corp, inboxPath, message } from '../build.js';
import type { CaseContext, CaseEnv, CorpusCase, Expectation } from '../types.js';

type Mode = 'immutable' | 'unprivileged' | 'setpriv';

/**
 * How to make an inbox read-only here. Root ignores file modes, so as root the file is made
 * immutable; without that, the send runs in an unprivileged child; as a normal user a
 * read-only inboxes folder is enough. TEAMDECK_CORPUS_READONLY forces a mode.
 */
function pickMode(): Mode | { skip: string } {
  const forced = process.env.TEAMDECK_CORPUS_READONLY;
  if (forced === 'immutable' || forced === 'unprivileged' || forced === 'setpriv') return forced;
  if (process.getuid?.() !== 0) return process.platform === 'win32' ? { skip: 'no read-only folders on Windows' } : 'unprivileged';
  const dir = mkdtempSync(join(tmpdir(), 'teamdeck-chattr-'));
  try {
    const f = join(dir, 'probe');
    writeFileSync(f, '');
    execFileSync('chattr', ['+i', f], { stdio: 'ignore' });
    execFileSync('chattr', ['-i', f], { stdio: 'ignore' });
    return 'immutable';
  } catch {
    // no chattr, or the file system / capabilities do not allow it
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  if (spawnSync('setpriv', ['--version'], { stdio: 'ignore' }).status === 0) return 'setpriv';
  return { skip: 'running as root, and neither chattr +i nor setpriv is available, so no inbox can be made read-only' };
}

const picked = pickMode();
const mode: Mode | undefined = typeof picked === 'string' ? picked : undefined;
const SEND = { team: 'corp', to: 'researcher', text: 'into the read-only inbox' };

async function until(cond: () => Promise<boolean>, what: string, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await cond())) {
    if (Date.now() > end) throw new Error(`timed out waiting until ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

async function makeWritable(env: CaseEnv): Promise<void> {
  if (mode === 'immutable') execFileSync('chattr', ['-i', inboxPath(env, 'corp', 'researcher')], { stdio: 'ignore' });
  if (mode === 'unprivileged') await chmod(join(env.root, 'corp', 'inboxes'), 0o755);
}

async function lateDelivery(ctx: CaseContext): Promise<string> {
  await makeWritable(ctx);
  const sent = async () => (await ctx.svc.thread('corp', 'researcher')).find((m) => m.text === SEND.text)?.status;
  await until(async () => (await sent()) === 'accepted', 'the queued message is delivered');
  return 'once writable again, the queued message was delivered by the retry loop (accepted)';
}

/** The setpriv fallback: the same send, by an unprivileged process, to root-owned files. */
async function unprivilegedSend(ctx: CaseContext): Promise<string> {
  const childState = join(ctx.stateDir, 'unprivileged');
  await mkdir(childState);
  await chmod(childState, 0o777);
  await chmod(ctx.base, 0o755);
  const home = await mkdtemp(join(childState, 'home-'));
  await chmod(home, 0o777);
  const r = spawnSync(
    'setpriv',
    ['--reuid=65534', '--regid=65534', '--clear-groups', '--', process.execPath, join(REPO_ROOT, 'bin', 'run-ts.mjs'), join(REPO_ROOT, 'test', 'corpus', 'read-only-child.ts'), ctx.root, childState, SEND.team, SEND.to, SEND.text],
    { cwd: REPO_ROOT, encoding: 'utf8', env: { PATH: process.env.PATH, HOME: home, TMPDIR: home }, timeout: 30_000 },
  );
  await rm(home, { recursive: true, force: true });
  const line = r.stdout.trim().split('\n').at(-1) ?? '';
  expect(line, `child stderr: ${r.stderr}`).not.toBe('');
  const out = JSON.parse(line) as { status?: string; reason?: string; error?: string };
  expect(out).toMatchObject({ status: 'queued', reason: expect.stringMatching(/EACCES|EPERM/) });
  return `unprivileged sender: queued (${out.reason})`;
}

const EXPECT: Record<Mode, Expectation[]> = {
  immutable: [
    { readInbox: 'corp/inboxes/researcher.json', kind: 'ok', messages: 1 },
    { send: SEND, queued: /^cannot write inbox: EPERM$/ },
  ],
  unprivileged: [
    { readInbox: 'corp/inboxes/researcher.json', kind: 'ok', messages: 1 },
    { send: SEND, queued: /^cannot lock inbox: EACCES$/ },
  ],
  setpriv: [{ readInbox: 'corp/inboxes/researcher.json', kind: 'ok', messages: 1 }],
};

export const corpusCase: CorpusCase = {
  name: `a read-only inbox${mode ? ` (${mode === 'immutable' ? 'chattr +i' : mode === 'setpriv' ? 'unprivileged child via setpriv' : 'read-only folder, unprivileged user'})` : ''}`,
  expected: 'reading works; a send answers queued ("cannot write inbox: EPERM" / EACCES), nothing is changed, and the retry delivers it once the inbox is writable again',
  ...(typeof picked === 'string' ? {} : { skip: picked.skip }),
  setup: async (env) => {
    await corp(env, { inboxes: { researcher: [message('team-lead', 'already here', TS)] } });
    if (mode === 'immutable') execFileSync('chattr', ['+i', inboxPath(env, 'corp', 'researcher')], { stdio: 'ignore' });
    if (mode === 'unprivileged') await chmod(join(env.root, 'corp', 'inboxes'), 0o555);
  },
  expect: mode ? EXPECT[mode] : [],
  after: (ctx) => (mode === 'setpriv' ? unprivilegedSend(ctx) : lateDelivery(ctx)),
  teardown: async (env) => {
    await makeWritable(env).catch(() => {});
  },
  appends: mode === 'setpriv' ? [] : ['corp/inboxes/researcher.json'],
  backoff: { initialMs: 50, maxMs: 200 },
};
