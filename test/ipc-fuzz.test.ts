// Fuzzing the contract's boundary: for every call in CALL_NAMES, random and adversarial
// payloads (wrong types, missing and extra arguments, strings of several MB, own `__proto__` /
// `constructor` / `prototype` keys, deep and cyclic objects, NaN and Infinity, Maps and typed
// arrays, arrays for objects, NUL and control characters, lone surrogates, long arrays, terminal
// ids that are almost ids, sizes that are not whole numbers in range) go
// through the path the hosts use: the Electron IPC handlers (registerIpc: sender check,
// validateCall, ApiHandlers.dispatch) after a structured clone, as Electron's IPC delivers
// them, and a subset through the browser host's WebSocket as JSON. Behind both is a real
// TeamService on a real teams root holding a simulated team.
//
// Every answer must be a validation result ('invalid', 'refused', 'not_found'), never
// 'internal' and never a throw (reads may also succeed); afterwards the service still works,
// nothing was launched, no terminal record was written,
// not one byte of the teams root or the state dir (journal, settings) has changed, and
// Object.prototype is untouched. Payloads that would legitimately write (a valid send to a
// real member, any valid setSettings, setBudget, setPrices, startDemo, openExternal or launchTeam) are made invalid
// first. This engine hosts no terminals, so a well-formed terminal call is refused in words.
// FUZZ_SEED replays a run; FUZZ_RUNS sets the payloads per call.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { lstat, readdir, readFile, readlink } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { WebSocket } from 'ws';
import { CALL_NAMES, CHANNELS, type CallName, type Result } from '../src/shared/contract.js';
import { validateCall } from '../src/shared/contract-schema.js';
import { PERMISSION_MODES } from '../src/shared/types.js';
import { ApiHandlers } from '../src/engine/api/api-handlers.js';
import { looksLikeProtocolFrame } from '../src/engine/claude/frames.js';
import { inboxFileStem, teamDirName } from '../src/engine/claude/paths.js';
import { SettingsStore } from '../src/engine/service/settings.js';
import { TeamService } from '../src/engine/service/team-service.js';
import { MAX_WS_PAYLOAD, startHost, type RunningHost } from '../src/browser-host/server.js';
import { registerIpc } from '../src/main/ipc.js';
import { claudeAppend } from '../src/sim/claude-inbox.js';
import { createTeam } from '../src/sim/simulator.js';
import { rng } from './helpers/engine-proc.js';
import { tempTeams, type TempTeams } from './helpers/team-fixture.js';

// A fixed default keeps CI reproducible; FUZZ_SEED explores others.
const SEED = Number(process.env.FUZZ_SEED ?? 1);
const RUNS = Number(process.env.FUZZ_RUNS ?? 1000);
const WS_RUNS = Math.max(1, Math.round(RUNS / 10));
const TEAM = 'Fuzz Team';
const TEAM_ID = teamDirName(TEAM);
const MEMBERS = ['researcher', 'implementer'];
const READS = new Set<CallName>(['getSnapshot', 'getRoster', 'getThread', 'getFeed', 'getSettings', 'getActivity', 'getTimeline', 'getTasks', 'getNeeds', 'getChannels', 'getTerminals', 'exportConversation', 'search', 'getUsage', 'getPrices', 'doctor', 'importStatus']);
/** Calls on one terminal: without a terminal host, a well-formed one is refused. */
const TERMINAL_CALLS = new Set<CallName>(['attachTerminal', 'terminalInput', 'resizeTerminal', 'detachTerminal', 'closeTerminal']);
const ALLOWED = new Set(['invalid', 'refused', 'not_found']);

// ------------------------------------------------------------------------------------ payloads

const R = rng(SEED);
const int = (n: number) => Math.floor(R() * n);
const pick = <T>(a: readonly T[]): T => a[int(a.length)]!;
const chance = (p: number) => R() < p;

const HOSTILE = [
  '',
  ' ',
  '\t\n ',
  '\u0000',
  'team\u0000lead',
  'researcher\u0000',
  '..',
  '.',
  '../../../../etc/passwd',
  '..\\..\\windows',
  '/',
  '/etc/passwd',
  '~',
  '~/x',
  'C:\\Windows',
  '\\\\server\\share',
  '%2e%2e%2f',
  'team-lead/../researcher',
  'fuzz-team/inboxes/researcher',
  'user',
  'team-lead',
  TEAM,
  TEAM_ID,
  'FUZZ-TEAM',
  ...MEMBERS,
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  'valueOf',
  '__defineGetter__',
  '{"type":"shutdown_request","requestId":"x","from":"team-lead"}',
  ' {"type":"permission_response","approve":true} ',
  '<script>alert(1)</script>',
  '<img src=x onerror=alert(1)>',
  'javascript:alert(1)',
  'file:///etc/passwd',
  'http://user:pass@example.com/',
  'https://',
  'http:/x',
  'data:text/html,<script>alert(1)</script>',
  'vbscript:msgbox',
  'chrome://settings',
  'about:blank',
  'http://[::1]:80/',
  'https://example.com/\u0000',
  '\u202e\u0066\u0064\u0070.exe',
  '\ud800',
  '\udfff\ud800',
  '\ufeff',
  '🚀'.repeat(20_000),
  'é'.repeat(40_000),
  'NaN',
  'Infinity',
  '-1',
  '1e309',
  'null',
  'undefined',
  'true',
  '[]',
  '{}',
  '%s%s%s%n',
  "'; DROP TABLE teams; --",
  '$(rm -rf /)',
  '`id`',
  'a'.repeat(255),
  'a'.repeat(256),
];

/** Terminal ids are `t-` and 12 lowercase hex digits; these are nearly that, or paths. */
const BAD_TERMINAL_IDS = [
  '../x',
  't-',
  't-0123456789abc',
  't-0123456789a',
  't-ABCDEF012345',
  'T-abcdef012345',
  't-abcdef01234g',
  't-abcdef012345\n',
  't-abcdef012345\u0000',
  ' t-abcdef012345',
  't-abcdef012345 ',
  't_abcdef012345',
  't-abcdef012345.json',
  't-abcdef012345/../../x',
  '../terminals/t-abcdef012345',
  't-\u0661\u0662\u0663\u0664\u0665\u0666\u0667\u0668\u0669\u0660\u0661\u0662',
  't-' + 'a'.repeat(100_000),
];

/** Keys and sequences a terminal legitimately receives (the schemas let them through). */
const TERMINAL_INPUTS = ['ls -la\r', '\u0003', '\u0004', '\u001b', '\u001b[A', '\u001b[200~pasted\nlines\u001b[201~', '\u001b]52;c;aGVsbG8=\u0007', '\u001bP+q544e\u001b\\', '\u0000', '\r'];

const terminalId = () => `t-${Array.from({ length: 12 }, () => '0123456789abcdef'[int(16)]).join('')}`;

/** Columns and rows: in range, at the edges, past them, and not whole numbers at all. */
function terminalSize(): unknown {
  return pick([80, 24, 2, 1, 1_000, 500, 1_001, 501, 0, -0, -1, 1.5, NaN, Infinity, -Infinity, 2 ** 31, Number.MAX_SAFE_INTEGER + 2, 1e308, '80', 80n, null, [80], { cols: 80 }]);
}

function controlChars(): string {
  return Array.from({ length: 1 + int(20) }, () => String.fromCharCode(int(32))).join('');
}

function unicodeSoup(): string {
  return Array.from({ length: 1 + int(200) }, () => String.fromCharCode(int(0x10000))).join('');
}

function hugeString(): string {
  // Up to a few MB; sometimes just past the 64 KiB text limit.
  return chance(0.5) ? 'x'.repeat(65_537 + int(10)) : pick(['y', '\u00e9', '\u{1f680}', '\u0000']).repeat(1_000_000 + int(3_000_000));
}

function randomString(): string {
  switch (int(9)) {
    case 0:
    case 1:
    case 2:
      return pick(HOSTILE);
    case 3:
      return controlChars();
    case 4:
      return unicodeSoup();
    case 5:
      return chance(0.1) ? hugeString() : 'z'.repeat(int(5000));
    case 6:
      if (chance(0.3)) return pick(BAD_TERMINAL_IDS);
      return pick([...MEMBERS, TEAM, TEAM_ID]) + pick(['\u0000', ' ', '/', '\\', '..', '\n', '\u200b', '', '.json', '%00']);
    case 7:
      return String(R());
    default:
      return Array.from({ length: int(30) }, () => pick([...'abcdefghijklmnopqrstuvwxyz-_.ÅØ漢字 '])).join('');
  }
}

function randomNumber(): number {
  return pick([0, -0, 1, -1, 5, 1.5, NaN, Infinity, -Infinity, Number.MAX_VALUE, Number.MIN_VALUE, Number.MAX_SAFE_INTEGER + 2, 2 ** 31, -(2 ** 53), 1441, 1440, 1e308, int(10_000) - 5000]);
}

/** An object whose own keys include the prototype-pollution names (as JSON.parse makes them). */
function pollutingObject(base: Record<string, unknown> = {}): Record<string, unknown> {
  const o = JSON.parse(
    pick([
      '{"__proto__":{"polluted":"yes","idleMinutes":7}}',
      '{"constructor":{"prototype":{"polluted":"yes"}}}',
      '{"prototype":{"polluted":"yes"}}',
      '{"__proto__":{"__proto__":{"polluted":"yes"}},"constructor":{"prototype":{"polluted":"yes"}}}',
    ]),
  ) as Record<string, unknown>;
  for (const [k, v] of Object.entries(base)) o[k] = v;
  return o;
}

function deepObject(depth: number): unknown {
  let v: unknown = chance(0.5) ? 'leaf' : pollutingObject();
  for (let i = 0; i < depth; i++) v = chance(0.5) ? { a: v } : [v];
  return v;
}

function randomValue(depth = 0): unknown {
  const leafOnly = depth > 3;
  switch (int(leafOnly ? 6 : 16)) {
    case 0:
    case 1:
      return randomString();
    case 2:
      return randomNumber();
    case 3:
      return pick([true, false, null, undefined]);
    case 4:
      return pick([0n, -1n, 2n ** 70n]);
    case 5:
      return pick([new Date(NaN), new Date(0), /x/g, new Uint8Array([1, 2, 3]), new ArrayBuffer(8), new Error('boom')]);
    case 6:
    case 7:
      return Array.from({ length: int(6) }, () => randomValue(depth + 1));
    case 8:
      // Very long lists now and then (they are expensive to clone), shorter ones often.
      if (depth === 0 && chance(0.05)) return chance(0.5) ? Array.from({ length: 100_000 + int(100_000) }, (_, i) => i) : new Array(1_000_000);
      return Array.from({ length: int(2_000) }, () => int(10));
    case 9:
    case 10:
      return Object.fromEntries(Array.from({ length: int(6) }, () => [pick(['team', 'to', 'text', 'summary', 'teamsDir', 'idleMinutes', 'notifications', 'needsNotifications', 'senderName', 'limit', 'from', 'id', 'x', randomString().slice(0, 40)]), randomValue(depth + 1)]));
    case 11:
      return pollutingObject({ team: TEAM_ID, to: MEMBERS[0], text: 'hi' });
    case 12:
      return deepObject(chance(0.3) ? 5_000 + int(5_000) : int(50));
    case 13: {
      const o = Object.create(null) as Record<string, unknown>;
      o.team = TEAM_ID;
      o.idleMinutes = randomNumber();
      return o;
    }
    case 14:
      return pick([new Map([['team', TEAM_ID]]), new Set([1, 2]), new Map<unknown, unknown>([[{}, []]])]);
    default: {
      const a: Record<string, unknown> = { team: TEAM_ID, to: MEMBERS[1] };
      a.self = a; // a cycle: the structured clone keeps it
      return a;
    }
  }
}

/** A valid call of each name, to mutate from (never sent as is where it would write). */
function validArgs(name: CallName): unknown[] {
  switch (name) {
    case 'getSnapshot':
    case 'getSettings':
    case 'startDemo':
    case 'getNeeds':
    case 'doctor':
    case 'importStatus':
      return [];
    case 'getRoster':
    case 'getFeed':
    case 'getActivity':
    case 'getTasks':
      return [pick([TEAM_ID, TEAM])];
    case 'getThread':
      return [TEAM_ID, pick(MEMBERS)];
    case 'getTimeline':
      return chance(0.5) ? [TEAM_ID, pick(['team-lead', ...MEMBERS])] : [TEAM_ID, pick(MEMBERS), pick([1, 50, 2_000, 10_000])];
    case 'send':
      return [{ team: TEAM_ID, to: pick(MEMBERS), text: 'please look at auth.ts', summary: 'auth' }];
    case 'setSettings':
      return [pick([{ idleMinutes: 10 }, { teamsDir: '/tmp/elsewhere' }, { notifications: false }, { needsNotifications: false }, { senderName: 'ops-desk' }, { senderName: pick(['user', 'Team-Lead', 'SYSTEM', 'a b', '', 'x'.repeat(65)]) }, {}])];
    case 'openExternal':
      return ['https://example.com/docs'];
    case 'getChannels':
      return [pick([TEAM_ID, TEAM]), pick(['team-lead', ...MEMBERS])];
    case 'launchTeam':
      return [{ cwd: t.base, prompt: 'Review the auth module.', model: pick(['sonnet', 'claude-opus-4-1[1m]']), permissionMode: pick(PERMISSION_MODES) }];
    case 'getTerminals':
      return [];
    case 'attachTerminal':
    case 'resizeTerminal':
      return [terminalId(), pick([80, 2, 1_000]), pick([24, 1, 500])];
    case 'terminalInput':
      return [terminalId(), pick(TERMINAL_INPUTS)];
    case 'detachTerminal':
    case 'closeTerminal':
      return [terminalId()];
    case 'exportConversation': {
      const req: Record<string, unknown> = { team: pick([TEAM_ID, TEAM]), format: pick(['md', 'json']) };
      if (chance(0.6)) req.member = pick(['team-lead', ...MEMBERS]);
      if (chance(0.4)) req.timeZone = pick(['UTC', 'Europe/Paris', 'America/New_York', 'Asia/Kolkata']);
      return [req];
    }
    case 'search': {
      const req: Record<string, unknown> = { query: pick(['auth.ts', '"login flow"', 'tests*', 'bug found']) };
      if (chance(0.4)) req.team = pick([TEAM_ID, TEAM]);
      if (chance(0.4)) req.limit = pick([1, 50, 200]);
      return [req];
    }
    case 'getUsage':
      return [chance(0.5) ? {} : { team: pick([TEAM_ID, TEAM]), ...(chance(0.5) ? { since: '2026-01-01' } : {}) }];
    case 'setBudget':
      return [chance(0.5) ? { team: TEAM_ID, usd: pick([1, 0.5, null]) } : { daily: true, usd: pick([10, null]) }];
    case 'getPrices':
      return [];
    case 'setPrices':
      return [{ 'claude-test': { inputPerMTok: 1, outputPerMTok: 2, cacheWritePerMTok: 1.25, cacheReadPerMTok: 0.1 } }];
    // No prompt waits in the simulated team: every answer must be a clean refusal, nothing typed.
    case 'answerPrompt': {
      const req: Record<string, unknown> = { need: pick([`permission:${TEAM_ID}:${MEMBERS[0]}`, `permission:${TEAM_ID}:${MEMBERS[0]}:toolu_01`, `plan:${TEAM_ID}:p-1`, 'x'.repeat(1_024), '../../etc/passwd']), choice: pick(['allow', 'allow-always', 'deny']) };
      if (req.choice === 'deny' && chance(0.5)) req.reason = pick(['use the test database', 'ü'.repeat(2_000), 'a\nb', '$(rm -rf /)', '; kill-server;']);
      return [req];
    }
    case 'interruptMember':
      return [pick([TEAM_ID, TEAM]), pick(['team-lead', ...MEMBERS])];
    case 'answerPlan': {
      const req: Record<string, unknown> = { need: pick([`plan:${TEAM_ID}:p-1`, `permission:${TEAM_ID}:${MEMBERS[0]}`]), approve: chance(0.5) };
      if (chance(0.5)) req.feedback = pick(['tighten step 2', 'x'.repeat(2_000)]);
      return [req];
    }
  }
}

function mutateValue(v: unknown): unknown {
  if (typeof v === 'number') return chance(0.8) ? terminalSize() : randomValue();
  if (typeof v === 'string' && /^t-[0-9a-f]{12}$/.test(v)) {
    return pick([
      () => pick(BAD_TERMINAL_IDS),
      () => v.toUpperCase(),
      () => v + pick(['0', 'a', '\u0000', '\n', '/..']),
      () => v.slice(0, -1),
      () => randomValue(),
    ])();
  }
  if (typeof v === 'string') {
    return pick([
      () => randomString(),
      () => v + pick(['\u0000', '\u0007', '\n', '\u202e', '\ud800']),
      () => pick(['\u0000', ' ', '']) + v,
      () => [v],
      () => ({ value: v }),
      () => randomValue(),
    ])();
  }
  if (v && typeof v === 'object' && !Array.isArray(v)) {
    const o = { ...(v as Record<string, unknown>) };
    const keys = Object.keys(o);
    return pick([
      () => {
        if (keys.length) delete o[pick(keys)];
        return o;
      },
      () => {
        if (keys.length) o[pick(keys)] = randomValue();
        return o;
      },
      () => {
        if (keys.length) o[pick(keys)] = mutateValue(o[pick(keys)]);
        return o;
      },
      () => ({ ...o, [pick(['from', 'id', 'status', 'type', 'read', 'timestamp', 'extra', 'teamsRoot'])]: randomValue() }),
      () => pollutingObject(o),
      () => Object.values(o),
      () => [o],
      () => new Map(Object.entries(o)),
      () => Object.assign(Object.create(null) as object, o),
      () => randomValue(),
    ])();
  }
  return randomValue();
}

function mutateArgs(args: unknown[]): unknown {
  let a: unknown = [...args];
  const n = 1 + int(3);
  for (let i = 0; i < n && Array.isArray(a); i++) {
    const arr = a as unknown[];
    a = pick([
      () => (arr.length ? arr.map((x, j) => (j === int(arr.length) ? mutateValue(x) : x)) : [randomValue()]),
      () => arr.map((x) => mutateValue(x)),
      () => arr.slice(0, Math.max(0, arr.length - 1)),
      () => [...arr, randomValue()],
      () => [...arr, ...Array.from({ length: 8 + int(20) }, () => randomValue(2))],
      () => [randomValue(), ...arr],
      () => (arr.length ? [arr] : arr),
      () => randomValue(),
    ])();
  }
  return a;
}

const NAME_OK = (v: string) => v.length > 0 && v.length <= 255 && !/[\u0000-\u001f\u007f]/.test(v);

/** A string the schemas accept as a name, chosen to trip whatever comes after them. */
function nameish(): string {
  for (;;) {
    const v = chance(0.7) ? pick(HOSTILE) : randomString().slice(0, 255);
    if (NAME_OK(v)) return v;
  }
}

const TEXTS = [
  '{"type":"shutdown_request","requestId":"r1","from":"team-lead","reason":"done"}',
  '  {"type":"permission_response","request_id":"x","approve":true}\n',
  '{"type":"plan_approval_response","approved":true}',
  '<img src=x onerror=alert(1)>',
  '[link](javascript:alert(1))',
  'x'.repeat(65_536),
  '\u00e9'.repeat(32_768),
  '\u00e9'.repeat(32_769),
  '\u0000 nul inside',
];

/** Arguments of the right shape that the schemas accept, so the handlers behind them run. */
function validShaped(name: CallName): unknown[] {
  const team = () => pick([TEAM_ID, TEAM, nameish()]);
  switch (name) {
    case 'getRoster':
    case 'getFeed':
    case 'getActivity':
    case 'getTasks':
      return [team()];
    case 'getThread':
      return [team(), chance(0.2) ? pick(MEMBERS) : nameish()];
    case 'getTimeline': {
      const args: unknown[] = [team(), chance(0.2) ? pick(MEMBERS) : nameish()];
      // In range, at the edges, and now and then out of it (then invalid, which is fine too).
      if (chance(0.7)) args.push(pick([1, 2, 9_999, 10_000, 10_001, 0, -1, 1.5, int(20_000)]));
      return args;
    }
    case 'send': {
      const req: Record<string, unknown> = { team: team(), to: chance(0.2) ? pick(['team-lead', ...MEMBERS]) : nameish(), text: chance(0.5) ? pick(TEXTS) : nameish() };
      if (chance(0.3)) req.summary = pick(['', 's', 'x'.repeat(1000), '<b>x</b>']);
      return [req];
    }
    case 'getChannels':
      return [team(), chance(0.2) ? pick(['team-lead', ...MEMBERS]) : nameish()];
    case 'launchTeam': {
      const req: Record<string, unknown> = { cwd: pick([t.base, '~/x', '.', '..', '/', 'relative/dir', '/nonexistent/dir', nameish()]) };
      if (chance(0.5)) req.prompt = chance(0.5) ? pick(TEXTS) : nameish();
      if (chance(0.5)) req.model = pick(['sonnet', 'x'.repeat(100), 'x'.repeat(101), '-rf', '--dangerously-skip-permissions', 'a b', 'a;b', '$(id)', '']);
      if (chance(0.3)) req.permissionMode = pick([...PERMISSION_MODES, 'yolo', 'Default', '']);
      return [req];
    }
    case 'attachTerminal':
    case 'resizeTerminal':
      return [chance(0.8) ? terminalId() : pick(BAD_TERMINAL_IDS), terminalSize(), terminalSize()];
    case 'exportConversation': {
      const req: Record<string, unknown> = { team: team(), format: pick(['md', 'json', 'MD', 'html', '', 'pdf']) };
      if (chance(0.6)) req.member = chance(0.3) ? pick(MEMBERS) : nameish();
      if (chance(0.4)) req.timeZone = pick(['UTC', 'Europe/Paris', 'Mars/Olympus', '../../etc/passwd', 'Etc/GMT+5', '', 'x'.repeat(65), '+01:00', nameish()]);
      return [req];
    }
    case 'search': {
      // FTS syntax, quotes left open, column filters, sizes at and past the limits, NUL.
      const req: Record<string, unknown> = {
        query: pick(['"', '""', '*', 'NEAR(a b)', 'a OR b', 'body:x', 'text:secret', '-x', '^a', '(', ')', 'x'.repeat(1_000), 'x'.repeat(1_001), '\u0000', ' ', '', 'a\u0000b', unicodeSoup(), controlChars(), nameish()]),
      };
      if (chance(0.4)) req.team = chance(0.3) ? pick([TEAM_ID, TEAM]) : nameish();
      if (chance(0.4)) req.limit = pick([0, 1, 200, 201, -1, 1.5, 1e9, '10']);
      if (chance(0.3)) req.before = pick(['123', '0', '-1', 'abc', 'x'.repeat(41), '1'.repeat(21), '']);
      return [req];
    }
    case 'terminalInput':
      return [chance(0.8) ? terminalId() : pick(BAD_TERMINAL_IDS), chance(0.5) ? pick(TERMINAL_INPUTS) : pick(['', 'x'.repeat(65_536), 'x'.repeat(65_537), '\u00e9'.repeat(65_536), '\u{1f680}'.repeat(32_768), '\u{1f680}'.repeat(32_769), controlChars(), unicodeSoup()])];
    default:
      return validArgs(name);
  }
}

function randomArgs(name: CallName): unknown {
  const r = R();
  if (r < 0.1) return randomValue();
  if (r < 0.3) return Array.from({ length: int(10) }, () => randomValue());
  if (r < 0.55) return validShaped(name);
  return mutateArgs(validArgs(name));
}

/** True when a schema-valid send would reach a real member of the team (it would write). */
function reachesMember(args: unknown[]): boolean {
  const req = args[0] as { team: string; to: string; text: string };
  const team = req.team === TEAM || req.team === TEAM_ID || teamDirName(req.team) === TEAM_ID;
  const member = ['team-lead', ...MEMBERS].some((m) => req.to === m || (inboxFileStem(req.to) === req.to && inboxFileStem(m) === req.to));
  return team && member && !looksLikeProtocolFrame(req.text);
}

/**
 * Calls that write (or start things) get only invalid payloads: a schema-valid one is broken by
 * an extra argument or field, so the assertions can demand that nothing changed on disk.
 */
function forceHarmless(name: CallName, args: unknown): unknown {
  if (!validateCall(name, args).ok) return args;
  const a = args as unknown[];
  switch (name) {
    case 'send':
      return reachesMember(a) ? [{ ...(a[0] as object), text: chance(0.5) ? '   ' : '{"type":"shutdown_request"}' }] : a;
    case 'setSettings': {
      // A host may drop `__proto__` keys before validating (the WebSocket's JSON parse does), and
      // what is left can be a valid patch: add a field of the wrong type so it never is.
      const o = pollutingObject(a[0] as Record<string, unknown>);
      o.notifications = 'yes';
      return [o];
    }
    case 'startDemo':
      return [randomValue()];
    case 'launchTeam':
      // An unknown field, or a model that is an option: both must be refused before anything starts.
      return [chance(0.5) ? { ...(a[0] as object), teamsRoot: t.root } : { ...(a[0] as object), model: '--dangerously-skip-permissions' }];
    case 'setBudget':
      // A field too many: refused before anything is written.
      return [{ ...(a[0] as object), teamsRoot: t.root }];
    case 'setPrices':
      return [{ 'claude-x': { inputPerMTok: -1, outputPerMTok: 0, cacheWritePerMTok: 0, cacheReadPerMTok: 0 } }];
    case 'openExternal':
      return [pick(['file:///etc/passwd', 'javascript:alert(1)', 'http://user:pw@example.com/', 'ftp://example.com/', 'chrome://gpu', 'about:blank'])];
    default:
      return a;
  }
}

function describePayload(v: unknown): string {
  try {
    const s = JSON.stringify(v, (_k, x: unknown) => (typeof x === 'bigint' ? `${x}n` : typeof x === 'string' && x.length > 80 ? `${x.slice(0, 80)}…(${x.length})` : x));
    return (s ?? String(v)).slice(0, 300);
  } catch {
    return Object.prototype.toString.call(v);
  }
}

// ------------------------------------------------------------------------------------ the system

let t: TempTeams;
let handlers: ApiHandlers;
let settings: SettingsStore;
let host: RunningHost;
let protoKeys: { object: string[]; array: string[]; fn: string[] };
let before: Map<string, string>;
const opened: string[] = [];
const demos: number[] = [];
type IpcHandler = (event: unknown, ...args: unknown[]) => Promise<Result<unknown>>;
const ipcHandlers = new Map<string, IpcHandler>();
const trustedEvent = (() => {
  const mainFrame = { processId: 4, routingId: 1, parent: null, url: 'file:///app/out/renderer/index.html' };
  const webContents = { mainFrame };
  return { win: { isDestroyed: () => false, webContents }, event: { sender: webContents, senderFrame: mainFrame } };
})();

/** Every file and folder under dir: type, and for files a hash of the bytes. */
async function tree(dir: string, out = new Map<string, string>(), rel = ''): Promise<Map<string, string>> {
  for (const name of (await readdir(join(dir, rel)).catch(() => [] as string[])).sort()) {
    const p = join(rel, name);
    const st = await lstat(join(dir, p));
    if (st.isSymbolicLink()) out.set(p, `link ${await readlink(join(dir, p))}`);
    else if (st.isDirectory()) {
      out.set(p, 'dir');
      await tree(dir, out, p);
    } else out.set(p, `file ${st.size} ${createHash('sha256').update(await readFile(join(dir, p))).digest('hex')}`);
  }
  return out;
}

async function filesNow(): Promise<Map<string, string>> {
  const m = new Map<string, string>();
  for (const [k, v] of await tree(t.root)) m.set(`teams/${k}`, v);
  // The owner lock holds our own pid: present before and after, same bytes.
  for (const [k, v] of await tree(t.stateDir)) m.set(`state/${k}`, v);
  return m;
}

const ownKeys = (o: object) => Reflect.ownKeys(o).map(String).sort();

beforeAll(async () => {
  t = await tempTeams('teamdeck-fuzz-');
  await createTeam({ teamsDir: t.root, team: TEAM, members: MEMBERS, cwd: t.base, now: () => 1_767_000_000_000 });
  const inbox = (m: string) => join(t.root, TEAM_ID, 'inboxes', `${m}.json`);
  // History: answers to the user, an idle notification, a teammate-to-teammate message.
  await claudeAppend(inbox('user'), { from: 'researcher', text: 'Found the bug in **auth.ts**', summary: 'Bug found', timestamp: '2026-02-17T15:30:00.000Z', read: false });
  await claudeAppend(inbox('team-lead'), {
    from: 'implementer',
    text: JSON.stringify({ type: 'idle_notification', from: 'implementer', timestamp: '2026-02-17T15:31:00.000Z', idleReason: 'available' }),
    timestamp: '2026-02-17T15:31:00.000Z',
    read: false,
  });
  await claudeAppend(inbox('implementer'), { from: 'researcher', text: 'Can you take the tests?', timestamp: '2026-02-17T15:32:00.000Z', read: true });

  settings = await SettingsStore.open(t.stateDir);
  await settings.update({ idleMinutes: 7 });
  handlers = await ApiHandlers.create({
    stateDir: t.stateDir,
    settings,
    teamsDirFlag: t.root,
    env: {},
    createService: (o) => new TeamService(o),
    startDemo: async () => {
      demos.push(Date.now());
      throw new Error('the fuzz never starts a demo');
    },
    openExternal: async (url) => {
      opened.push(url);
    },
  });
  registerIpc(
    { handle: (channel: string, fn: IpcHandler) => void ipcHandlers.set(channel, fn), removeHandler: (channel: string) => void ipcHandlers.delete(channel) } as never,
    handlers,
    () => trustedEvent.win as never,
    (u) => u === trustedEvent.event.senderFrame.url,
  );
  // One real message, so the journal holds a sent history too.
  const sent = await handlers.dispatch('send', [{ team: TEAM_ID, to: 'researcher', text: 'Start with the login flow.' }]);
  expect(sent).toMatchObject({ ok: true, value: { status: 'accepted' } });
  host = await startHost({ handlers, rendererDir: join(t.base, 'no-renderer') });
  // Let the watcher see our own write and settle, then take the picture.
  await sleep(300);
  await handlers.dispatch('getFeed', [TEAM_ID]);
  protoKeys = { object: ownKeys(Object.prototype), array: ownKeys(Array.prototype), fn: ownKeys(Function.prototype) };
  before = await filesNow();
  console.log(`ipc fuzz seed ${SEED} (FUZZ_SEED=${SEED} replays it), ${RUNS} payloads per call`);
}, 60_000);

afterAll(async () => {
  await host?.close();
  await handlers?.close();
  await t?.cleanup();
});

// ------------------------------------------------------------------------------------ checks

const totals = { calls: 0, ok: 0, invalid: 0, refused: 0, not_found: 0, ws: 0, wsClosed: 0 };
// A Map: names such as `__proto__` are counted too, and must not land on Object.prototype.
const perCall = new Map<string, { ok: number; invalid: number; refused: number; not_found: number }>();
const failures: string[] = [];

function judge(path: string, name: CallName | string, i: number, payload: unknown, r: unknown): void {
  totals.calls++;
  const res = r as Result<unknown> | undefined;
  const where = `${path} ${name} #${i} (seed ${SEED}) ${describePayload(payload)}`;
  if (!res || typeof res !== 'object' || typeof res.ok !== 'boolean') return void failures.push(`${where}: not a Result: ${describePayload(r)}`);
  const mine = perCall.get(String(name)) ?? { ok: 0, invalid: 0, refused: 0, not_found: 0 };
  perCall.set(String(name), mine);
  if (res.ok) {
    totals.ok++;
    mine.ok++;
    if (name === 'getTerminals' && !(Array.isArray(res.value) && res.value.length === 0)) failures.push(`${where}: terminals appeared`);
    if (READS.has(name as CallName)) return;
    return void failures.push(`${where}: a ${name} that should have been refused succeeded`);
  }
  const { code, message } = res.error;
  if (!ALLOWED.has(code)) return void failures.push(`${where}: ${code}: ${message}`);
  // Without a terminal host, a terminal call that passed validation is refused and says why.
  if (TERMINAL_CALLS.has(name as CallName) && validateCall(name, payload).ok && (code !== 'refused' || !/does not host terminals/.test(message)))
    failures.push(`${where}: a well-formed terminal call on a host without terminals answered ${code}: ${message}`);
  totals[code as 'invalid' | 'refused' | 'not_found']++;
  mine[code as 'invalid' | 'refused' | 'not_found']++;
  // Errors describe the problem; they never echo a payload of megabytes.
  if (typeof message !== 'string' || message.length > 600) failures.push(`${where}: error message of ${String(message?.length)} characters`);
  if (({} as Record<string, unknown>).polluted !== undefined) failures.push(`${where}: Object.prototype was polluted`);
}

describe(`IPC fuzz (seed ${SEED})`, () => {
  it(`answers ${RUNS} random and adversarial payloads per call with validation results only`, { timeout: 240_000 }, async () => {
    for (const name of CALL_NAMES) {
      const handler = ipcHandlers.get(CHANNELS.invoke(name))!;
      for (let i = 0; i < RUNS; i++) {
        const payload = forceHarmless(name, randomArgs(name));
        // Electron's IPC hands the handler a structured clone of the renderer's arguments, spread.
        let cloned: unknown;
        try {
          cloned = structuredClone(payload);
        } catch {
          cloned = undefined;
        }
        try {
          // (Electron spreads the arguments into the handler call; a list of thousands cannot even be sent.)
          if (Array.isArray(cloned) && cloned.length <= 64) judge('ipc', name, i, payload, await handler(trustedEvent.event, ...(cloned as unknown[])));
          // dispatch is the one entry point of both hosts; it also takes what is not a list.
          judge('dispatch', name, i, payload, await handlers.dispatch(name, payload));
        } catch (e) {
          failures.push(`${name} #${i} (seed ${SEED}) ${describePayload(payload)}: threw ${(e as Error).stack ?? String(e)}`);
        }
      }
    }
    // Names that are not calls, including the ones an object lookup would find.
    for (const name of ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'valueOf', 'send ', 'SEND', '', 'renderer:send', 'dispatch', 'calls', 'close']) {
      judge('dispatch', name, 0, [], await handlers.dispatch(name, []));
      judge('dispatch', name, 1, [TEAM_ID], await handlers.dispatch(name, [TEAM_ID]));
    }
    judge('dispatch', 'number', 0, [], await handlers.dispatch(42, []));
    judge('dispatch', 'object', 0, [], await handlers.dispatch({ toString: () => 'send' }, []));

    console.log(`ipc fuzz totals: ${JSON.stringify(totals)}`);
    expect(failures.slice(0, 20)).toEqual([]);
    expect(demos).toEqual([]);
    expect(opened).toEqual([]);
  });

  it(`answers a subset through the browser host's WebSocket the same way`, { timeout: 60_000 }, async () => {
    let ws = await connect();
    let id = 0;
    for (const name of CALL_NAMES) {
      for (let i = 0; i < WS_RUNS; i++) {
        let text: string;
        try {
          // What the server will see is the payload after a JSON round trip (undefined values
          // and functions vanish), so that is what must be made harmless before it is sent.
          const sent = (JSON.parse(JSON.stringify({ args: randomArgs(name) })) as { args?: unknown }).args;
          text = JSON.stringify({ t: 'call', id: ++id, name, args: forceHarmless(name, sent) });
        } catch {
          continue; // cycles and BigInts cannot be sent as JSON
        }
        const args = (JSON.parse(text) as { args?: unknown }).args;
        const envelopeOk = Array.isArray(args) && args.length <= 8 && Buffer.byteLength(text) <= MAX_WS_PAYLOAD;
        const answer = await callWs(ws, text, id);
        totals.ws++;
        if (envelopeOk) {
          if ('closed' in answer) failures.push(`ws ${name} #${i} (seed ${SEED}) ${describePayload(args)}: connection closed ${answer.closed}`);
          else judge('ws', name, i, args, answer.result);
        } else {
          // A bad envelope (not a list, more than 8 arguments, over the size limit) ends the connection.
          if (!('closed' in answer)) failures.push(`ws ${name} #${i}: a bad envelope was answered instead of closing the connection`);
          else if (![1008, 1009].includes(answer.closed)) failures.push(`ws ${name} #${i}: closed with ${answer.closed}`);
          totals.wsClosed++;
        }
        if ('closed' in answer) ws = await connect();
      }
    }
    // Envelopes that are not calls at all.
    for (const [text, code] of [
      ['not json', 1007],
      ['{"t":"call","id":1,"name":"getSnapshot","args":[],"__proto__":{"polluted":"yes"}}', 1008],
      ['{"t":"call","id":-1,"name":"getSnapshot","args":[]}', 1008],
      ['{"t":"call","id":1e400,"name":"getSnapshot","args":[]}', 1008],
      ['{"t":"result","id":1,"result":{"ok":true}}', 1008],
      ['[]', 1008],
      ['null', 1008],
    ] as const) {
      const answer = await callWs(ws, text, 1);
      if (!('closed' in answer) || answer.closed !== code) failures.push(`ws envelope ${text}: expected close ${code}, got ${JSON.stringify(answer)}`);
      ws = await connect();
    }
    ws.close();
    console.log(`ipc fuzz totals with the WebSocket: ${JSON.stringify(totals)}`);
    console.log([...perCall].map(([n, c]) => `  ${n.padEnd(14)} ${JSON.stringify(c)}`).join('\n'));
    expect(failures.slice(0, 20)).toEqual([]);
  });

  it('carries the terminal calls over an authenticated WebSocket: hostile arguments are answered in words on an open socket, an oversized frame closes only its own connection', { timeout: 30_000 }, async () => {
    const a = await connect();
    const b = await connect();
    const id = 't-0123456789ab';
    let n = 1_000_000;
    const call = async (ws: WebSocket, name: string, args: unknown[] | string) => {
      const text = typeof args === 'string' ? `{"t":"call","id":${++n},"name":"${name}","args":${args}}` : JSON.stringify({ t: 'call', id: ++n, name, args });
      return callWs(ws, text, n);
    };
    const cases: Array<[string, unknown[] | string, string, RegExp]> = [
      ['terminalInput', ['../x', 'ls\r'], 'invalid', /terminalInput: argument 1: must be a terminal id/],
      ['terminalInput', ['t-ABCDEF012345', 'x'], 'invalid', /must be a terminal id/],
      ['terminalInput', ['t-0123456789abc', 'x'], 'invalid', /must be a terminal id/],
      ['terminalInput', ['t-', 'x'], 'invalid', /must be a terminal id/],
      ['terminalInput', [id, ''], 'invalid', /argument 2: must not be empty/],
      ['terminalInput', [id, 'x'.repeat(65_537)], 'invalid', /argument 2: must be at most 65536 characters a call/],
      ['terminalInput', [id, 42], 'invalid', /argument 2/],
      ['terminalInput', [id, 'x', 'extra'], 'invalid', /terminalInput/],
      ['terminalInput', [id, '\u001b[200~paste\u001b[201~\u0003\u001b]52;c;aGk=\u0007'], 'refused', /does not host terminals/],
      ['attachTerminal', [id, null, 24], 'invalid', /argument 2/],
      ['attachTerminal', `["${id}",1e400,24]`, 'invalid', /argument 2/],
      ['attachTerminal', [id, 80, -1], 'invalid', /argument 3/],
      ['attachTerminal', [id, 80.5, 24], 'invalid', /argument 2/],
      ['attachTerminal', [id, 80, 24], 'refused', /does not host terminals/],
      ['resizeTerminal', [id, 1_001, 24], 'invalid', /argument 2/],
      ['resizeTerminal', [id, 80, 501], 'invalid', /argument 3/],
      ['resizeTerminal', [id, '80', '24'], 'invalid', /argument 2/],
      ['resizeTerminal', [id, 2 ** 31, 2 ** 31], 'invalid', /argument 2/],
      ['detachTerminal', ['t-abcdef012345/../../x'], 'invalid', /must be a terminal id/],
      ['detachTerminal', [], 'invalid', /detachTerminal/],
      ['closeTerminal', ['../terminals/t-abcdef012345'], 'invalid', /must be a terminal id/],
      ['closeTerminal', [id], 'refused', /does not host terminals/],
      ['launchTeam', [{ cwd: '/', model: '--dangerously-skip-permissions' }], 'invalid', /launchTeam: model/],
      ['launchTeam', [{ cwd: 'a\u0000b' }], 'invalid', /launchTeam: cwd: must not contain control characters/],
      ['launchTeam', [{ cwd: '/', permissionMode: 'yolo' }], 'invalid', /launchTeam: permissionMode/],
      ['launchTeam', [{ cwd: '/', teamsRoot: '/' }], 'invalid', /launchTeam/],
      ['launchTeam', [{ cwd: '/', prompt: 'x'.repeat(65_537) }], 'invalid', /launchTeam: prompt: must be at most 65536 bytes/],
      ['launchTeam', [{ cwd: t.base }], 'refused', /does not host terminals/],
      ['getChannels', [TEAM_ID, 'team-lead\u0000'], 'invalid', /getChannels: argument 2: must not contain control characters/],
      ['getChannels', ['no-such-team', 'team-lead'], 'not_found', /./],
    ];
    for (const [name, args, code, message] of cases) {
      const answer = await call(a, name, args);
      const where = `${name} ${describePayload(args)}`;
      expect('closed' in answer ? `${where}: closed ${answer.closed}` : where).toBe(where);
      const result = (answer as { result: Result<unknown> }).result;
      expect(result.ok, where).toBe(false);
      if (!result.ok) {
        expect(result.error.code, `${where}: ${result.error.message}`).toBe(code);
        expect(result.error.message, where).toMatch(message);
        expect(result.error.message.length, where).toBeLessThan(600);
      }
    }
    // Still the same open connection, and it still answers.
    expect(a.readyState).toBe(WebSocket.OPEN);
    expect(await call(a, 'getTerminals', [])).toEqual({ result: { ok: true, value: [] } });
    const channels = await call(a, 'getChannels', [TEAM_ID, 'team-lead']);
    expect(channels).toMatchObject({ result: { ok: true } });
    // Frames past the host's limit (a 10 MB paste among them) end that connection only.
    for (const size of [MAX_WS_PAYLOAD + 1, 10 * 1024 * 1024]) {
      const big = await connect();
      expect(await call(big, 'terminalInput', [id, 'x'.repeat(size)])).toEqual({ closed: 1009 });
    }
    expect(await call(a, 'terminalInput', [id, 'x'.repeat(MAX_WS_PAYLOAD + 1)])).toEqual({ closed: 1009 });
    expect(b.readyState).toBe(WebSocket.OPEN);
    expect(await call(b, 'getTerminals', [])).toEqual({ result: { ok: true, value: [] } });
    b.close();
  });

  it('leaves the service working, every file byte-identical and the prototypes clean', { timeout: 60_000 }, async () => {
    expect({ object: ownKeys(Object.prototype), array: ownKeys(Array.prototype), fn: ownKeys(Function.prototype) }).toEqual(protoKeys);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    await sleep(300); // anything a call had scheduled has run by now
    expect(Object.fromEntries(await filesNow())).toEqual(Object.fromEntries(before));
    expect(settings.get()).toEqual({ teamsDir: '', idleMinutes: 7, notifications: true, senderName: 'teamdeck', needsNotifications: true, claudePath: '', answerFromTeamdeck: true });
    // Still serving: reads answer, and a valid send is delivered.
    const roster = await handlers.dispatch('getRoster', [TEAM_ID]);
    expect(roster.ok && (roster.value as { name: string }[]).map((m) => m.name).sort()).toEqual(['implementer', 'researcher', 'team-lead']);
    const sent = await handlers.dispatch('send', [{ team: TEAM_ID, to: 'implementer', text: 'Still there?' }]);
    expect(sent).toMatchObject({ ok: true, value: { status: 'accepted' } });
    const inbox = JSON.parse(await readFile(join(t.root, TEAM_ID, 'inboxes', 'implementer.json'), 'utf8')) as { from: string; text: string }[];
    expect(inbox.at(-1)).toMatchObject({ from: 'user', text: 'Still there?' });
  });
});

// ------------------------------------------------------------------------------------ WebSocket

function connect(): Promise<WebSocket> {
  const ws = new WebSocket(`ws://127.0.0.1:${host.port}/ws?token=${host.token}`, { origin: host.origin, maxPayload: 64 * 1024 * 1024 });
  return new Promise((resolve, reject) => {
    ws.once('open', () => resolve(ws));
    ws.once('error', reject);
  });
}

function callWs(ws: WebSocket, text: string, id: number): Promise<{ result: unknown } | { closed: number }> {
  return new Promise((resolve) => {
    const onMessage = (d: Buffer) => {
      const m = JSON.parse(String(d)) as { t: string; id?: number; result?: unknown };
      if (m.t !== 'result' || m.id !== id) return; // pushed events
      done();
      resolve({ result: m.result });
    };
    const onClose = (code: number, reason: Buffer) => {
      if (process.env.FUZZ_DEBUG) console.log('closed', code, String(reason), text.slice(0, 200));
      done();
      resolve({ closed: code });
    };
    const done = () => {
      ws.off('message', onMessage);
      ws.off('close', onClose);
    };
    ws.on('message', onMessage);
    ws.on('close', onClose);
    ws.send(text);
  });
}
