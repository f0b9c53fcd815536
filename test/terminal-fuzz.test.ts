// Hostile input for the hosted terminal's calls. The size limit on terminalInput: exactly
// MAX_TERMINAL_INPUT characters pass validation, one more is refused with a message naming the
// limit, and a 10 MB string is refused at once (validation stops at the length). The escape
// sequences a terminal legitimately receives (bracketed paste, ^C, an OSC 52 clipboard write)
// pass validation, but only next to a well-formed terminal id; almost-ids never do.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { performance } from 'node:perf_hooks';
import { MAX_TERMINAL_INPUT, validateCall } from '../src/shared/contract-schema.js';
import { ApiHandlers } from '../src/main/core/api-handlers.js';
import { SettingsStore } from '../src/main/core/settings.js';
import { TeamService } from '../src/main/core/team-service.js';
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
