// Hostile input for the hosted terminal's calls. The size limit on terminalInput: exactly
// MAX_TERMINAL_INPUT characters pass validation, one more is refused with a message naming the
// limit, and a 10 MB string is refused at once (validation stops at the length). The escape
// sequences a terminal legitimately receives (bracketed paste, ^C, an OSC 52 clipboard write)
// pass validation, but only next to a well-formed terminal id; almost-ids never do.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdir, readdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Result } from '../src/shared/contract.js';
import { MAX_TERMINAL_INPUT, validateCall } from '../src/shared/contract-schema.js';
import type { TerminalInfo } from '../src/shared/types.js';
import { ApiHandlers } from '../src/engine/api/api-handlers.js';
import { SettingsStore } from '../src/engine/service/settings.js';
import { TeamService } from '../src/engine/service/team-service.js';
import { createTerminalHost } from '../src/engine/terminals/host.js';
import { readLog, waitFor, writeStandIn } from '../src/engine/terminals/test-kit.js';
import { tmuxSocketName } from '../src/engine/terminals/tmux-client.js';
import { rng } from './helpers/engine-proc.js';
import { tempTeams, type TempTeams } from './helpers/team-fixture.js';

const ID = 't-0123456789ab';
const TEN_MB = 10 * 1024 * 1024;

/** Keys and sequences a terminal receives from a pane: all of them are the user's to send. */
const SEQUENCES: Record<string, string> = {
  'bracketed paste': '\u001b[200~line one\nline two\u001b[201~',
  'ctrl-c': '\u0003',
  'ctrl-d': '\u0004',
  'ctrl-@ (NUL)': '\u0000',
  'OSC 52 clipboard write': '\u001b]52;c;aGVsbG8=\u0007',
  'OSC 52 with ST': '\u001b]52;c;aGVsbG8=\u001b\\',
  'DCS query': '\u001bP+q544e\u001b\\',
  'arrow up': '\u001b[A',
  'alt-enter': '\u001b\r',
  'lone surrogate': '\ud800',
  'all C0 and DEL': Array.from({ length: 32 }, (_, i) => String.fromCharCode(i)).join('') + '\u007f',
  'C1 controls': '\u009b31m\u0090x\u009c',
};

/** Ids that are nearly Teamdeck's (`t-` and 12 lowercase hex digits), or paths. */
const BAD_IDS = [
  '../x',
  't-',
  't-0123456789abc',
  't-0123456789a',
  't-0123456789AB',
  'T-0123456789ab',
  't-0123456789ag',
  `${ID}\n`,
  `${ID}\u0000`,
  ` ${ID}`,
  `${ID}.json`,
  `${ID}/../../x`,
  `../terminals/${ID}`,
  '',
  't-' + 'a'.repeat(TEN_MB),
];

/** A result's outcome without its value or message (which may be large). */
const fail = (r: Result<unknown>) => (r.ok ? { ok: true } : { ok: false, code: r.error.code });

function timed<T>(fn: () => T): { value: T; ms: number } {
  const start = performance.now();
  const value = fn();
  return { value, ms: performance.now() - start };
}

async function timedAsync<T>(fn: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const start = performance.now();
  const value = await fn();
  return { value, ms: performance.now() - start };
}

describe('terminalInput: the size limit', () => {
  it(`accepts exactly ${MAX_TERMINAL_INPUT} characters and refuses one more, naming the limit`, () => {
    const LIMIT = `terminalInput: argument 2: must be at most ${MAX_TERMINAL_INPUT} characters a call`;
    const verdict = (data: string) => {
      const v = validateCall('terminalInput', [ID, data]);
      return v.ok ? 'ok' : v.error.message; // never the value itself: a failure must not print 64 K characters
    };
    expect(verdict('x'.repeat(MAX_TERMINAL_INPUT))).toBe('ok');
    expect(verdict('x'.repeat(MAX_TERMINAL_INPUT + 1))).toBe(LIMIT);
    // Characters are code points (zod 4 counts them so): 65,536 astral characters are at the
    // limit although they are 131,072 UTF-16 units (and 256 KiB of UTF-8), one more is over it.
    expect(verdict('\u{1f680}'.repeat(MAX_TERMINAL_INPUT))).toBe('ok');
    expect(verdict('\u{1f680}'.repeat(MAX_TERMINAL_INPUT) + 'x')).toBe(LIMIT);
    expect(verdict('\u00e9'.repeat(MAX_TERMINAL_INPUT))).toBe('ok');
    expect(verdict('\u00e9'.repeat(MAX_TERMINAL_INPUT + 1))).toBe(LIMIT);
    // A lone surrogate counts as one character.
    expect(verdict('\ud800'.repeat(MAX_TERMINAL_INPUT))).toBe('ok');
    expect(verdict('\ud800'.repeat(MAX_TERMINAL_INPUT + 1))).toBe(LIMIT);
    expect(verdict('')).toBe('terminalInput: argument 2: must not be empty');
  });

  it('refuses a 10 MB string at once, and with a short message', () => {
    const LIMIT = `terminalInput: argument 2: must be at most ${MAX_TERMINAL_INPUT} characters a call`;
    // Plain ASCII, and astral characters (the limit counts code points, so these are scanned).
    for (const [what, data] of [
      ['10 MB of ASCII', 'x'.repeat(TEN_MB)],
      ['10 MB of astral characters', '\u{1f680}'.repeat(TEN_MB / 4)],
      ['10 M UTF-16 units of astral characters', '\u{1f680}'.repeat(TEN_MB / 2)],
    ] as const) {
      // A warm-up call, then the measured ones. The bound is a sanity bound, not a benchmark.
      validateCall('terminalInput', [ID, data]);
      const runs = Array.from({ length: 5 }, () => timed(() => validateCall('terminalInput', [ID, data])));
      for (const r of runs) {
        expect(r.value.ok ? 'ok' : r.value.error.message).toBe(LIMIT);
        expect(r.ms).toBeLessThan(1_000);
      }
      console.log(`terminalInput: ${what} refused in ${Math.max(...runs.map((r) => r.ms)).toFixed(2)} ms at most`);
    }
    // So is a 10 MB id, before its pattern is tried.
    const id = timed(() => validateCall('terminalInput', ['t-' + 'a'.repeat(TEN_MB), 'x']));
    expect(id.value.ok ? 'ok' : id.value.error.message).toMatch(/^terminalInput: argument 1: /);
    expect(id.ms).toBeLessThan(1_000);
  });
});

describe('terminalInput: control sequences', () => {
  it('accepts every sequence a pane may send, with a well-formed id', () => {
    for (const [what, data] of Object.entries(SEQUENCES)) expect(validateCall('terminalInput', [ID, data]).ok, what).toBe(true);
  });

  it('refuses every one of them with an almost-id, and names the argument', () => {
    for (const id of BAD_IDS) {
      for (const [what, data] of Object.entries(SEQUENCES)) {
        const v = validateCall('terminalInput', [id, data]);
        expect(v.ok, `${JSON.stringify(id.slice(0, 40))} ${what}`).toBe(false);
        if (!v.ok) expect(v.error.message).toMatch(/^terminalInput: argument 1: /);
      }
    }
  });

  it('refuses ids that are not strings, and extra or missing arguments', () => {
    for (const args of [[1, 'x'], [null, 'x'], [[ID], 'x'], [{ id: ID }, 'x'], [ID], [], [ID, 'x', 'y'], [ID, ['x']], [ID, 120], [ID, null]]) {
      expect(validateCall('terminalInput', args).ok, JSON.stringify(args)).toBe(false);
    }
  });
});

describe('sizes and ids for the other terminal calls', () => {
  const SIZES: Array<[unknown, unknown, boolean]> = [
    [80, 24, true],
    [2, 1, true],
    [1_000, 500, true],
    [1, 24, false],
    [80, 0, false],
    [1_001, 24, false],
    [80, 501, false],
    [-80, 24, false],
    [80, -0, false],
    [80.5, 24, false],
    [NaN, 24, false],
    [80, NaN, false],
    [Infinity, 24, false],
    [80, -Infinity, false],
    [2 ** 31, 24, false],
    [Number.MAX_SAFE_INTEGER + 2, 24, false],
    [1e308, 1e308, false],
    ['80', '24', false],
    [80n, 24, false],
    [null, null, false],
    [[80], [24], false],
    [{ valueOf: () => 80 }, 24, false],
  ];
  it('attach and resize take whole columns and rows in range only', () => {
    for (const name of ['attachTerminal', 'resizeTerminal'] as const) {
      for (const [cols, rows, ok] of SIZES) {
        const v = validateCall(name, [ID, cols, rows]);
        expect(v.ok, `${name} ${String(cols)}x${String(rows)}`).toBe(ok);
        if (!v.ok) expect(v.error.message).toMatch(new RegExp(`^${name}: argument [23]: `));
      }
      for (const id of BAD_IDS) expect(validateCall(name, [id, 80, 24]).ok).toBe(false);
      expect(validateCall(name, [ID, 80]).ok).toBe(false);
      expect(validateCall(name, [ID, 80, 24, 1]).ok).toBe(false);
    }
  });

  it('detach and close take one well-formed id', () => {
    for (const name of ['detachTerminal', 'closeTerminal'] as const) {
      expect(validateCall(name, [ID]).ok).toBe(true);
      for (const id of BAD_IDS) expect(validateCall(name, [id])).toMatchObject({ ok: false, error: { code: 'invalid' } });
      expect(validateCall(name, []).ok).toBe(false);
      expect(validateCall(name, [ID, ID]).ok).toBe(false);
    }
  });
});

describe('through dispatch, on an engine that hosts no terminals', () => {
  let t: TempTeams;
  let handlers: ApiHandlers;
  beforeAll(async () => {
    t = await tempTeams('teamdeck-termfuzz-');
    const settings = await SettingsStore.open(t.stateDir);
    handlers = await ApiHandlers.create({ stateDir: t.stateDir, settings, teamsDirFlag: t.root, env: {}, createService: (o) => new TeamService({ ...o, watch: false }) });
  });
  afterAll(async () => {
    await handlers?.close();
    await t?.cleanup();
  });

  it('refuses a 10 MB paste fast as invalid, and a well-formed call in words', async () => {
    const huge = 'x'.repeat(TEN_MB);
    await handlers.dispatch('terminalInput', [ID, huge]);
    const r = await timedAsync(() => handlers.dispatch('terminalInput', [ID, huge]));
    expect(r.value).toEqual({ ok: false, error: { code: 'invalid', message: `terminalInput: argument 2: must be at most ${MAX_TERMINAL_INPUT} characters a call` } });
    expect(r.ms).toBeLessThan(1_000);
    console.log(`dispatch of a 10 MB terminalInput refused in ${r.ms.toFixed(3)} ms`);
    for (const data of Object.values(SEQUENCES)) {
      expect(await handlers.dispatch('terminalInput', [ID, data])).toEqual({ ok: false, error: { code: 'refused', message: 'this Teamdeck process does not host terminals' } });
      expect(await handlers.dispatch('terminalInput', ['../x', data])).toMatchObject({ ok: false, error: { code: 'invalid' } });
    }
    expect(await handlers.dispatch('getTerminals', [])).toEqual({ ok: true, value: [] });
    expect(await handlers.dispatch('launchTeam', [{ cwd: t.base }])).toEqual({ ok: false, error: { code: 'refused', message: 'this Teamdeck process does not host terminals' } });
  });
});

// ------------------------------------------------------------------------------------ a real host
//
// ApiHandlers over a real TeamService with a real terminal host (tmux here), `claude` being a
// stand-in that writes down every byte it reads. Launches with bad requests start nothing and
// write no record; then one lead runs, and the terminal calls are fuzzed on it and on ids that
// are not there. Every answer is a clean Result, the engine keeps answering, the stand-in keeps
// running and reads what was typed, and a running terminal cannot be closed.

const FUZZ_SEED = Number(process.env.FUZZ_SEED ?? 1);
const FUZZ_RUNS = Number(process.env.FUZZ_RUNS ?? 1000);

describe('over a real terminal host, with a stand-in lead', () => {
  const R = rng(FUZZ_SEED);
  const int = (n: number) => Math.floor(R() * n);
  const pick = <T>(a: readonly T[]): T => a[int(a.length)]!;
  let t: TempTeams;
  let handlers: ApiHandlers;
  let settings: SettingsStore;
  let claude: string;
  let logPath: string;
  let env: NodeJS.ProcessEnv;
  const recordsDir = () => join(t.stateDir, 'terminals');
  const records = async () => (await readdir(recordsDir()).catch(() => [] as string[])).filter((f) => f.endsWith('.json')).sort();
  const starts = async () => (await readLog(logPath)).filter((e) => e.type === 'start');
  const tmux = (args: string[]) =>
    new Promise<string>((resolve, reject) =>
      execFile('tmux', ['-L', tmuxSocketName(t.stateDir), ...args], { env, timeout: 5_000 }, (err, stdout, stderr) => (err ? reject(new Error(`${err.message} ${stderr}`)) : resolve(stdout))),
    );
  const sessions = () => tmux(['list-sessions', '-F', '#{session_name}']).then((s) => s.split('\n').filter(Boolean), () => [] as string[]);
  const alive = (pid: number) => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };

  beforeAll(async () => {
    t = await tempTeams('teamdeck-termfuzz-');
    claude = await writeStandIn(t.base);
    logPath = join(t.base, 'stand-in.log');
    // TMUX_TMPDIR keeps this test's tmux server's socket inside its folder.
    env = { ...process.env, TMUX_TMPDIR: t.base, STANDIN_LOG: logPath };
    settings = await SettingsStore.open(t.stateDir);
    handlers = await ApiHandlers.create({
      stateDir: t.stateDir,
      settings,
      teamsDirFlag: t.root,
      env: {},
      createService: (o) => new TeamService({ ...o, watch: false }),
      terminalHost: ({ stateDir, claudePath }) => (o) => createTerminalHost({ stateDir, claudePath, env, ...o }),
    });
  }, 30_000);

  afterAll(async () => {
    await handlers?.close();
    // The host never ends a lead that runs in tmux (it is meant to outlive Teamdeck): end the
    // server this test started, and wait for its leads to be gone before removing the folder.
    if (t) {
      const pids = (await starts()).map((e) => e.pid);
      await tmux(['kill-server']).catch(() => {});
      await waitFor(() => pids.every((pid) => !alive(pid)), 'the stand-in leads to end', 5_000).catch(() => {});
    }
    await t?.cleanup();
  });

  it('launches nothing and writes no record for a bad request, whatever is wrong with it', { timeout: 60_000 }, async () => {
    // A claude that cannot be found: the launch is unavailable, in the words a launch would fail with.
    const launch = async () => {
      const snap = await handlers.dispatch('getSnapshot', []);
      return snap.ok && (snap.value as { launch: unknown }).launch;
    };
    expect(await handlers.dispatch('setSettings', [{ claudePath: 'no-such-claude-here' }])).toMatchObject({ ok: true });
    expect(await launch()).toEqual({ available: false, backend: 'tmux', reason: 'no-such-claude-here was not found on the PATH; set the full path of claude in Settings' });
    expect(await handlers.dispatch('setSettings', [{ claudePath: claude }])).toMatchObject({ ok: true });
    expect(await launch()).toEqual({ available: true, backend: 'tmux' });
    await writeFile(join(t.base, 'a-file'), 'not a folder');
    const bad: Array<[unknown, 'invalid' | 'refused']> = [
      [{ cwd: 'relative/dir' }, 'refused'],
      [{ cwd: '.' }, 'refused'],
      [{ cwd: '..' }, 'refused'],
      [{ cwd: join(t.base, 'missing') }, 'refused'],
      [{ cwd: join(t.base, 'a-file') }, 'refused'],
      [{ cwd: '~/teamdeck-no-such-folder-here' }, 'refused'],
      [{ cwd: ' ' }, 'refused'],
      [{ cwd: `${t.base}/../${'x'.repeat(4_000)}` }, 'refused'],
      [{ cwd: t.base + '\u0000' }, 'invalid'],
      [{ cwd: t.base + '\n' }, 'invalid'],
      [{ cwd: '' }, 'invalid'],
      [{ cwd: t.base, model: '--dangerously-skip-permissions' }, 'invalid'],
      [{ cwd: t.base, model: 'sonnet --print' }, 'invalid'],
      [{ cwd: t.base, model: 'x'.repeat(101) }, 'invalid'],
      [{ cwd: t.base, permissionMode: 'yolo' }, 'invalid'],
      [{ cwd: t.base, prompt: 'x'.repeat(65_537) }, 'invalid'],
      [{ cwd: t.base, prompt: '   ' }, 'invalid'],
      [{ cwd: t.base, extra: true }, 'invalid'],
      [JSON.parse(`{"cwd":${JSON.stringify(t.base)},"__proto__":{"polluted":"yes"}}`), 'invalid'],
      [[t.base], 'invalid'],
      [t.base, 'invalid'],
      [null, 'invalid'],
    ];
    for (const [req, code] of bad) {
      const r = await handlers.dispatch('launchTeam', [req]);
      expect(fail(r), JSON.stringify(req)?.slice(0, 100)).toEqual({ ok: false, code });
      if (!r.ok) expect(r.error.message.length).toBeLessThan(600);
    }
    // A claude that is not there, not a file, or not executable: refused too.
    await writeFile(join(t.base, 'not-executable'), '#!/bin/sh\n');
    for (const claudePath of [join(t.base, 'no-claude'), t.base, join(t.base, 'not-executable'), 'no-such-claude-on-path', 'relative/claude']) {
      expect(await handlers.dispatch('setSettings', [{ claudePath }])).toMatchObject({ ok: true });
      expect(fail(await handlers.dispatch('launchTeam', [{ cwd: t.base }])), claudePath).toEqual({ ok: false, code: 'refused' });
    }
    expect(await handlers.dispatch('setSettings', [{ claudePath: claude }])).toMatchObject({ ok: true });
    expect(await records()).toEqual([]);
    expect(await starts()).toEqual([]);
    expect(await sessions()).toEqual([]);
    expect(await handlers.dispatch('getTerminals', [])).toEqual({ ok: true, value: [] });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('fuzzes the terminal calls on a running lead and on ids that are not there: clean answers, the lead runs on', { timeout: 120_000 }, async () => {
    // The prompt is one argument after `--`: nothing in it is read by a shell or as an option.
    const prompt = '--dangerously-skip-permissions $(touch pwned) `id`; rm -rf ~ \'"';
    const launched = await handlers.dispatch('launchTeam', [{ cwd: t.base, model: 'sonnet', permissionMode: 'plan', prompt }]);
    expect(launched).toMatchObject({ ok: true, value: { terminal: { state: 'running', backend: 'tmux' } } });
    const live = (launched as { value: { terminal: TerminalInfo } }).value.terminal;
    const start = await waitFor(async () => (await starts())[0], 'the stand-in to start');
    expect(start.argv).toEqual(['--model', 'sonnet', '--permission-mode', 'plan', '--', prompt]);
    expect(start.pid).toBe(live.pid);
    expect(await records()).toEqual([`${live.id}.json`]);

    const unknown = () => `t-${Array.from({ length: 12 }, () => '0123456789abcdef'[int(16)]).join('')}`;
    const size = () => pick([80, 24, 2, 1, 1_000, 500, 0, -1, 1.5, NaN, Infinity, 1_001, 2 ** 31, '80', null]);
    const data = () => pick([...Object.values(SEQUENCES), 'ls\r', 'x'.repeat(MAX_TERMINAL_INPUT + 1), 'x'.repeat(TEN_MB), '', 42]);
    const id = () => pick([live.id, live.id, unknown(), pick(BAD_IDS), live.id.toUpperCase(), `${live.id}0`]);
    const failures: string[] = [];
    const counts: Record<string, number> = {};
    let attaches = 0;
    const runs = Math.max(50, Math.round(FUZZ_RUNS / 4));
    for (let i = 0; i < runs; i++) {
      const name = pick(['attachTerminal', 'terminalInput', 'resizeTerminal', 'detachTerminal', 'closeTerminal'] as const);
      const args: unknown[] = name === 'terminalInput' ? [id(), data()] : name === 'attachTerminal' || name === 'resizeTerminal' ? [id(), size(), size()] : [id()];
      // An attach settles the pane's size (up to 1.5 s): a few real ones are enough.
      if (name === 'attachTerminal' && validateCall(name, args).ok && args[0] === live.id && ++attaches > 6) continue;
      let r: Result<unknown>;
      try {
        r = await handlers.dispatch(name, args);
      } catch (e) {
        failures.push(`${name} #${i}: threw ${(e as Error).message}`);
        continue;
      }
      const valid = validateCall(name, args).ok;
      const key = `${name} ${r.ok ? 'ok' : r.error.code}`;
      counts[key] = (counts[key] ?? 0) + 1;
      const where = `${name} #${i} ${JSON.stringify(args.map((a) => (typeof a === 'string' && a.length > 40 ? `${a.slice(0, 40)}…(${a.length})` : a)))}`;
      // A viewer leaving a terminal that is not there is nothing to do (detach is idempotent).
      const want = !valid ? 'invalid' : args[0] !== live.id ? (name === 'detachTerminal' ? 'ok' : 'not_found') : name === 'closeTerminal' ? 'refused' : 'ok';
      const got = r.ok ? 'ok' : r.error.code;
      if (got !== want) failures.push(`${where}: ${got}${r.ok ? '' : `: ${r.error.message}`}, expected ${want}`);
      if (!r.ok && (typeof r.error.message !== 'string' || r.error.message.length > 600)) failures.push(`${where}: an error message of ${r.error.message?.length} characters`);
    }
    console.log(`terminal fuzz on a real host: ${JSON.stringify(counts)}`);
    expect(failures.slice(0, 20)).toEqual([]);
    // Balance the viewers again, then type a marker: the lead reads it, so it runs and listens.
    for (let i = 0; i < attaches + 2; i++) await handlers.dispatch('detachTerminal', [live.id]);
    expect(await handlers.dispatch('terminalInput', [live.id, 'fuzz marker\r'])).toEqual({ ok: true, value: null });
    await waitFor(async () => (await readLog(logPath)).some((e) => e.type === 'turn' && e.raw?.endsWith('fuzz marker\r')), 'the stand-in to read the marker');
    expect(alive(live.pid!)).toBe(true);
    expect(await starts()).toHaveLength(1);
    expect(await sessions()).toEqual([live.id]);
    const terminals = await handlers.dispatch('getTerminals', []);
    expect(terminals.ok && (terminals.value as TerminalInfo[]).map((x) => [x.id, x.state])).toEqual([[live.id, 'running']]);
    expect(fail(await handlers.dispatch('closeTerminal', [live.id]))).toEqual({ ok: false, code: 'refused' });
    expect(await handlers.dispatch('getSnapshot', [])).toMatchObject({ ok: true });
    expect(await records()).toEqual([`${live.id}.json`]);
  });

  it('hands what a pane sends to the lead byte for byte through a viewer, and survives what tmux drops', { timeout: 60_000 }, async () => {
    const live = ((await handlers.dispatch('getTerminals', [])) as { value: TerminalInfo[] }).value[0]!;
    expect(await handlers.dispatch('attachTerminal', [live.id, 80, 24])).toMatchObject({ ok: true, value: { screen: expect.any(String) } });
    const received = async () =>
      (await readLog(logPath))
        .filter((e) => e.type === 'data')
        .map((e) => e.raw!)
        .join('');
    const exact: Record<string, string> = { ...SEQUENCES };
    // tmux reads OSC strings and C1 controls from its client itself: they never reach the lead
    // (nor does the lead see a lone surrogate, which UTF-8 turns into U+FFFD).
    for (const k of ['OSC 52 clipboard write', 'OSC 52 with ST', 'C1 controls', 'lone surrogate']) delete exact[k];
    // A paste of exactly the limit, markers included.
    const n = Object.keys(exact).length;
    exact['a paste of exactly the limit'] = 'p'.repeat(MAX_TERMINAL_INPUT - `<${n}></${n}>`.length);
    for (const [i, [what, data]] of Object.entries(exact).entries()) {
      const before = (await received()).length;
      const sent = `<${i}>${data}</${i}>`;
      expect(await handlers.dispatch('terminalInput', [live.id, sent]), what).toEqual({ ok: true, value: null });
      const got = await waitFor(async () => {
        const all = (await received()).slice(before);
        return all.includes(`</${i}>`) && all;
      }, `the lead to read ${what}`);
      const from = got.indexOf(`<${i}>`);
      expect(from >= 0 && got.slice(from, from + sent.length) === sent, `${what}: read ${JSON.stringify(got.slice(0, 120))}`).toBe(true);
    }
    for (const k of ['OSC 52 clipboard write', 'OSC 52 with ST', 'C1 controls', 'lone surrogate']) {
      expect(await handlers.dispatch('terminalInput', [live.id, SEQUENCES[k]!])).toEqual({ ok: true, value: null });
    }
    expect(await handlers.dispatch('terminalInput', [live.id, '\rsurvived\r'])).toEqual({ ok: true, value: null });
    await waitFor(async () => (await readLog(logPath)).some((e) => e.type === 'turn' && e.raw?.endsWith('survived\r')), 'the lead to read a turn after them');
    expect(alive(live.pid!)).toBe(true);
    expect(await handlers.dispatch('detachTerminal', [live.id])).toEqual({ ok: true, value: null });
  });

  it('answers an exited terminal in words, closes it then, and forgets it', { timeout: 60_000 }, async () => {
    const live = ((await handlers.dispatch('getTerminals', [])) as { value: TerminalInfo[] }).value[0]!;
    // The stand-in exits with the code it is told (as `claude` would on /exit).
    // (A paste end and an Enter first: whatever the fuzz left half-typed is a turn of its own.)
    expect(await handlers.dispatch('terminalInput', [live.id, '\u001b[201~\r'])).toEqual({ ok: true, value: null });
    expect(await handlers.dispatch('terminalInput', [live.id, 'exit 3\r'])).toEqual({ ok: true, value: null });
    await waitFor(async () => {
      const r = await handlers.dispatch('getTerminals', []);
      return r.ok && (r.value as TerminalInfo[])[0]?.state === 'exited';
    }, 'the terminal to show exited');
    expect(((await handlers.dispatch('getTerminals', [])) as { value: TerminalInfo[] }).value[0]).toMatchObject({ id: live.id, state: 'exited', exitCode: 3 });
    for (const [name, args] of [
      ['terminalInput', [live.id, 'hello\r']],
      ['resizeTerminal', [live.id, 80, 24]],
    ] as const) {
      const r = await handlers.dispatch(name, args);
      expect(fail(r), name).toEqual({ ok: false, code: 'refused' });
      if (!r.ok) expect(r.error.message).toMatch(/has exited/);
    }
    expect(await handlers.dispatch('closeTerminal', [live.id])).toEqual({ ok: true, value: null });
    expect(await records()).toEqual([]);
    for (const [name, args] of [
      ['terminalInput', [live.id, 'x']],
      ['attachTerminal', [live.id, 80, 24]],
      ['resizeTerminal', [live.id, 80, 24]],
      ['closeTerminal', [live.id]],
    ] as const) {
      expect(fail(await handlers.dispatch(name, args)), name).toEqual({ ok: false, code: 'not_found' });
    }
    expect(await handlers.dispatch('getTerminals', [])).toEqual({ ok: true, value: [] });
    expect(await handlers.dispatch('getSnapshot', [])).toMatchObject({ ok: true });
  });
});

// ------------------------------------------------------------------------------------ records on disk
//
// `<stateDir>/terminals/*.json` is read back at every start. Torn, foreign, mis-named, linked
// or hand-edited records must not stop the engine, must never touch a process they name (the
// pids below belong to a live program that is no lead), and must not make Teamdeck write
// anywhere but its own records folder.

describe('hostile terminal records on disk', () => {
  let t: TempTeams;
  let handlers: ApiHandlers | undefined;
  let sleeper: ChildProcess;
  let env: NodeJS.ProcessEnv;
  const outside = () => join(t.base, 'outside-record.json');

  beforeAll(async () => {
    t = await tempTeams('teamdeck-termrec-');
    env = { ...process.env, TMUX_TMPDIR: t.base };
    sleeper = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
    await new Promise((r) => sleeper.once('spawn', r));
  });
  afterAll(async () => {
    await handlers?.close();
    sleeper?.kill('SIGKILL');
    await new Promise<void>((r) => execFile('tmux', ['-L', tmuxSocketName(t.stateDir), 'kill-server'], { env }, () => r()));
    await t?.cleanup();
  });

  it('reads what it can, skips the rest, touches no process a record names, and writes only its own records', { timeout: 60_000 }, async () => {
    const dir = join(t.stateDir, 'terminals');
    await mkdir(dir, { recursive: true, mode: 0o700 });
    const pid = sleeper.pid!;
    const rec = (id: string, extra: Record<string, unknown> = {}) => JSON.stringify({ id, backend: 'tmux', cwd: t.base, pid, startedAt: 1_767_000_000_000, ...extra });
    const files: Record<string, string> = {
      't-aaaaaaaaaaaa.json': '{"id":"t-aaaa',
      't-bbbbbbbbbbbb.json': rec('t-cccccccccccc'),
      't-dddddddddddd.json': rec('t-dddddddddddd', { backend: 'ssh' }),
      't-eeeeeeeeeeee.json': `{"__proto__":{"polluted":"yes"},"constructor":{"prototype":{"polluted":"yes"}},${rec('t-eeeeeeeeeeee').slice(1)}`,
      't-ffffffffffff.json': rec('t-ffffffffffff', { backend: 'pty' }),
      't-111111111111.json': rec('t-111111111111', { pid: -1 }),
      't-222222222222.json': rec('t-222222222222', { pid: String(pid) }),
      't-333333333333.json': rec('t-333333333333', { cwd: 'x'.repeat(100_000), team: '../../etc', permissionMode: 'yolo' }),
      't-444444444444.json': rec('t-444444444444', { pid: 1, startedAt: Number.MAX_VALUE }),
      't-555555555555.json': '[]',
      't-666666666666.json': 'null',
      'T-AAAAAAAAAAAA.json': rec('T-AAAAAAAAAAAA'),
      'notes.json': rec('notes'),
      't-777777777777.json.bak': rec('t-777777777777'),
      '.t-888888888888.json': rec('.t-888888888888'),
    };
    for (const [name, text] of Object.entries(files)) await writeFile(join(dir, name), text);
    await mkdir(join(dir, 't-999999999999.json'));
    // A record that is a link to a file elsewhere: read, but never written through.
    await writeFile(outside(), rec('t-abcabcabcabc'));
    await symlink(outside(), join(dir, 't-abcabcabcabc.json'));

    const settings = await SettingsStore.open(t.stateDir);
    handlers = await ApiHandlers.create({
      stateDir: t.stateDir,
      settings,
      teamsDirFlag: t.root,
      env: {},
      createService: (o) => new TeamService({ ...o, watch: false }),
      terminalHost: ({ stateDir, claudePath }) => (o) => createTerminalHost({ stateDir, claudePath, env, ...o }),
    });
    const listed = await handlers.dispatch('getTerminals', []);
    expect(listed.ok).toBe(true);
    const terminals = (listed as { value: TerminalInfo[] }).value;
    // The shapes that parse are listed, every one exited (none of them runs in this Teamdeck's tmux).
    expect(terminals.map((x) => x.id).sort()).toEqual(['t-111111111111', 't-333333333333', 't-444444444444', 't-abcabcabcabc', 't-eeeeeeeeeeee', 't-ffffffffffff']);
    expect(terminals.every((x) => x.state === 'exited')).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(await handlers.dispatch('getSnapshot', [])).toMatchObject({ ok: true });
    // Calls on them answer in words; a lead that has exited takes no input.
    for (const x of terminals) {
      expect(fail(await handlers.dispatch('terminalInput', [x.id, 'x'])), x.id).toEqual({ ok: false, code: 'refused' });
      expect(fail(await handlers.dispatch('resizeTerminal', [x.id, 80, 24])), x.id).toEqual({ ok: false, code: 'refused' });
    }
    for (const id of ['t-aaaaaaaaaaaa', 't-bbbbbbbbbbbb', 't-cccccccccccc', 't-dddddddddddd', 't-222222222222', 't-999999999999']) {
      expect(fail(await handlers.dispatch('closeTerminal', [id])), id).toEqual({ ok: false, code: 'not_found' });
    }
    for (const x of terminals) expect(await handlers.dispatch('closeTerminal', [x.id]), x.id).toEqual({ ok: true, value: null });
    expect(await handlers.dispatch('getTerminals', [])).toEqual({ ok: true, value: [] });
    // The program the records named runs on; the linked file elsewhere is as it was.
    expect(sleeper.exitCode).toBeNull();
    expect(() => process.kill(pid, 0)).not.toThrow();
    expect(await readFile(outside(), 'utf8')).toBe(rec('t-abcabcabcabc'));
    // What was not a record is left as it was; what was is gone.
    const left = (await readdir(dir)).sort();
    expect(left).toEqual(['.t-888888888888.json', 'T-AAAAAAAAAAAA.json', 'notes.json', 't-222222222222.json', 't-555555555555.json', 't-666666666666.json', 't-777777777777.json.bak', 't-999999999999.json', 't-aaaaaaaaaaaa.json', 't-bbbbbbbbbbbb.json', 't-dddddddddddd.json', 'tmux.conf']);
    for (const [name, text] of Object.entries(files)) if (left.includes(name)) expect(await readFile(join(dir, name), 'utf8'), name).toBe(text);
  });
});
