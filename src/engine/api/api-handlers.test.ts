import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { CALL_NAMES, CALLS, ERROR_CODES, type AppEvent } from '../../shared/contract.js';
import { sampleArgs } from '../../../test/helpers/call-samples.js';
import { tempTeams, writeTeam, type TempTeams } from '../../../test/helpers/team-fixture.js';
import { ApiHandlers, chooseTeamsRoot, toApiError, type DemoTeam } from './api-handlers.js';
import { PathEscapeError } from '../claude/paths.js';
import { TeamdeckError } from '../errors.js';
import { SearchQueryError } from '../search/query.js';
import { TerminalError } from '../terminals/types.js';
import { SendRefusedError, StateDirBusyError, type TeamServiceApi, type TeamServiceOptions } from '../service/service-types.js';
import { SettingsStore } from '../service/settings.js';
import { TeamNotFoundError, TeamService } from '../service/team-service.js';

let t: TempTeams;
const open: ApiHandlers[] = [];
beforeEach(async () => {
  t = await tempTeams('teamdeck-api-');
});
afterEach(async () => {
  await Promise.all(open.splice(0).map((h) => h.close()));
  await t.cleanup();
});

async function make(opts: Partial<Parameters<typeof ApiHandlers.create>[0]> = {}) {
  const settings = await SettingsStore.open(t.stateDir);
  const h = await ApiHandlers.create({
    stateDir: t.stateDir,
    settings,
    teamsDirFlag: t.root,
    env: {},
    createService: (o: TeamServiceOptions) => new TeamService({ ...o, watch: false }),
    ...opts,
  });
  open.push(h);
  return h;
}

describe('chooseTeamsRoot', () => {
  it('prefers the flag, then TEAMDECK_TEAMS_DIR, then the setting, then Claude', () => {
    const env = { TEAMDECK_TEAMS_DIR: '/env/teams', CLAUDE_CONFIG_DIR: '/claude' };
    expect(chooseTeamsRoot({ flag: '/flag', env, setting: '/set' })).toMatchObject({ root: '/flag', source: '--teams-dir' });
    expect(chooseTeamsRoot({ env, setting: '/set' })).toMatchObject({ root: '/env/teams', source: 'TEAMDECK_TEAMS_DIR' });
    const s = chooseTeamsRoot({ env: { CLAUDE_CONFIG_DIR: '/claude' }, setting: '/set' });
    expect(s).toMatchObject({ root: '/set', source: 'setting' });
    expect(s.alsoLooked).toContain('/claude/teams');
    expect(chooseTeamsRoot({ env: { CLAUDE_CONFIG_DIR: '/claude' } })).toMatchObject({ root: '/claude/teams', source: 'CLAUDE_CONFIG_DIR' });
    expect(chooseTeamsRoot({ env: {} }).source).toBe('default');
    expect(chooseTeamsRoot({ env: {}, setting: '~/teams' }).root).toBe(join(homedir(), 'teams'));
  });
});

describe('toApiError', () => {
  it('maps refusals, unknown teams and everything else, without stacks', () => {
    expect(toApiError(new SendRefusedError('too long'))).toEqual({ code: 'refused', message: 'too long' });
    expect(toApiError(new TeamNotFoundError('no team "x"'))).toEqual({ code: 'not_found', message: 'no team "x"' });
    const internal = toApiError(new TypeError('boom'));
    expect(internal.code).toBe('internal');
    expect(JSON.stringify(internal)).not.toMatch(/at .*\.ts:\d+/);
    expect(toApiError('weird').code).toBe('internal');
  });

  it('maps by the code the error carries, never by its name', () => {
    for (const code of ERROR_CODES) expect(toApiError(new TeamdeckError(code, `a ${code} error`))).toEqual({ code, message: `a ${code} error` });
    class Misnamed extends TeamdeckError {
      constructor() {
        super('not_found', 'no terminal t-0123456789ab');
        this.name = 'SendRefusedError';
      }
    }
    expect(toApiError(new Misnamed())).toEqual({ code: 'not_found', message: 'no terminal t-0123456789ab' });
    // Anything that is not one of ours is internal, whatever it calls itself.
    expect(toApiError(Object.assign(new Error('not ours'), { name: 'SendRefusedError' }))).toEqual({ code: 'internal', message: 'not ours' });
    expect(toApiError(Object.assign(new Error('not ours'), { name: 'TeamNotFoundError', code: 'not_found' })).code).toBe('internal');
  });

  it("gives the engine's own errors their codes", () => {
    expect(toApiError(new PathEscapeError('team "../x"'))).toEqual({ code: 'refused', message: 'refused: team "../x" resolves outside the teams root' });
    expect(toApiError(new SearchQueryError('nothing to search for')).code).toBe('refused');
    expect(toApiError(new TerminalError('There is no terminal t-0123456789ab', 'not_found')).code).toBe('not_found');
    for (const failure of ['exited', 'unavailable', 'refused'] as const) expect(toApiError(new TerminalError('no', failure)).code, failure).toBe('refused');
    expect(toApiError(new StateDirBusyError('another Teamdeck owns it')).code).toBe('state_busy');
  });
});

describe('ApiHandlers over the real TeamService', () => {
  it('answers a snapshot, roster, thread and send, and maps errors', async () => {
    await writeTeam(t.root, 'alpha', ['researcher']);
    const h = await make();
    const snap = await h.calls.getSnapshot();
    expect(snap.ok).toBe(true);
    if (!snap.ok) return;
    expect(snap.value).toMatchObject({ teamsRoot: t.root, rootSource: '--teams-dir', canStartDemo: false, queuedCount: 0 });
    expect(snap.value.teams.map((x) => x.id)).toEqual(['alpha']);
    expect(snap.value.settings).toEqual({ teamsDir: '', idleMinutes: 5, notifications: true, senderName: 'teamdeck', needsNotifications: true, claudePath: '', answerFromTeamdeck: true });

    const roster = await h.calls.getRoster('alpha');
    expect(roster.ok && roster.value.map((m) => m.name)).toEqual(['team-lead', 'researcher']);

    const sent = await h.dispatch('send', [{ team: 'alpha', to: 'researcher', text: 'hello' }]);
    expect(sent).toMatchObject({ ok: true, value: { status: 'accepted' } });
    const thread = await h.calls.getThread('alpha', 'researcher');
    expect(thread.ok && thread.value.map((m) => [m.text, m.status])).toEqual([['hello', 'accepted']]);

    expect(await h.dispatch('send', [{ team: 'alpha', to: 'researcher', text: '{"type":"shutdown_request"}' }])).toMatchObject({
      ok: false,
      error: { code: 'refused' },
    });
    expect(await h.dispatch('send', [{ team: 'nope', to: 'researcher', text: 'x' }])).toMatchObject({ ok: false, error: { code: 'not_found' } });
    expect(await h.dispatch('getRoster', ['nope'])).toMatchObject({ ok: false, error: { code: 'not_found' } });
    expect(await h.dispatch('getFeed', ['../../etc'])).toMatchObject({ ok: false });
    expect(await h.dispatch('send', [{ team: 'alpha', to: 'researcher', text: 'x', from: 'team-lead' }])).toMatchObject({
      ok: false,
      error: { code: 'invalid' },
    });
    expect(await h.dispatch('constructor', [])).toMatchObject({ ok: false, error: { code: 'invalid' } });
  });

  it('has a handler for every call in the table: a well-formed call is answered, never as unknown or failed', async () => {
    await writeTeam(t.root, 'alpha', ['researcher']);
    const h = await make();
    for (const name of CALL_NAMES) {
      const r = await h.dispatch(name, sampleArgs(CALLS[name].args));
      if (!r.ok) expect(['refused', 'not_found'], `${name}: ${r.error.code}: ${r.error.message}`).toContain(r.error.code);
    }
  });

  it('persists settings, applies the idle threshold and pushes a snapshot', async () => {
    const h = await make();
    const events: AppEvent[] = [];
    h.onEvent((e) => events.push(e));
    const r = await h.dispatch('setSettings', [{ idleMinutes: 10, notifications: false }]);
    expect(r).toEqual({ ok: true, value: { teamsDir: '', idleMinutes: 10, notifications: false, senderName: 'teamdeck', needsNotifications: true, claudePath: '', answerFromTeamdeck: true } });
    expect(JSON.parse(await readFile(join(t.stateDir, 'settings.json'), 'utf8'))).toMatchObject({ idleMinutes: 10, notifications: false });
    expect(events.some((e) => e.type === 'snapshot' && e.snapshot.settings.idleMinutes === 10)).toBe(true);
    expect(await h.dispatch('setSettings', [{ idleMinutes: 0 }])).toMatchObject({ ok: false, error: { code: 'invalid' } });
  });

  it('switches to the teamsDir setting at once, unless a flag or env var overrides it', async () => {
    const other = join(t.base, 'other');
    await writeTeam(other, 'beta', ['tester']);
    const claude = { CLAUDE_CONFIG_DIR: join(t.base, 'claude') };
    const pinned = await make({ teamsDirFlag: undefined, env: { ...claude, TEAMDECK_TEAMS_DIR: t.root } });
    await pinned.dispatch('setSettings', [{ teamsDir: other }]);
    expect(pinned.teamsRoot).toBe(t.root);
    await pinned.dispatch('setSettings', [{ teamsDir: '' }]);
    await pinned.close();
    open.splice(0);

    const h = await make({ teamsDirFlag: undefined, env: claude });
    expect(h.teamsRoot).toBe(join(t.base, 'claude', 'teams'));
    const events: AppEvent[] = [];
    h.onEvent((e) => events.push(e));
    expect(await h.dispatch('setSettings', [{ teamsDir: other }])).toMatchObject({ ok: true });
    expect(h.teamsRoot).toBe(other);
    const snap = events.find((e) => e.type === 'snapshot');
    expect(snap?.type === 'snapshot' && [snap.snapshot.rootSource, snap.snapshot.teams.map((x) => x.id)]).toEqual(['setting', ['beta']]);
    expect(await h.dispatch('getRoster', ['beta'])).toMatchObject({ ok: true });
  });

  it('opens only http(s) links, through the host callback', async () => {
    const opened: string[] = [];
    const h = await make({ openExternal: async (u) => void opened.push(u) });
    expect(await h.dispatch('openExternal', ['https://example.com/x'])).toEqual({ ok: true, value: null });
    expect(await h.dispatch('openExternal', ['file:///etc/passwd'])).toMatchObject({ ok: false, error: { code: 'invalid' } });
    expect(await h.calls.openExternal('javascript:alert(1)')).toMatchObject({ ok: false, error: { code: 'refused' } });
    expect(opened).toEqual(['https://example.com/x']);
    const none = await make({ stateDir: join(t.base, 'state2'), settings: await SettingsStore.open(join(t.base, 'state2')) });
    expect(await none.dispatch('openExternal', ['https://example.com/'])).toMatchObject({ ok: false, error: { code: 'refused' } });
  });

  it('starts a demo team on its own root and state dir, and switches to it', async () => {
    const demoRoot = join(t.base, 'demo-teams');
    const run = vi.fn(async () => {});
    const stop = vi.fn(async () => {});
    const startDemo = vi.fn(async (): Promise<DemoTeam> => {
      await writeTeam(demoRoot, 'demo', ['researcher']);
      return { teamsRoot: demoRoot, team: 'demo', stateDir: join(t.base, 'demo-state'), run, stop };
    });
    const h = await make({ startDemo });
    const events: AppEvent[] = [];
    h.onEvent((e) => events.push(e));
    const [r, twin] = await Promise.all([h.dispatch('startDemo', []), h.dispatch('startDemo', [])]);
    expect(r).toEqual({ ok: true, value: { teamsRoot: demoRoot, team: 'demo' } });
    expect(twin).toEqual(r);
    expect(run).toHaveBeenCalledOnce();
    expect(h.teamsRoot).toBe(demoRoot);
    const snap = events.find((e) => e.type === 'snapshot');
    expect(snap && snap.type === 'snapshot' && snap.snapshot.teams.map((x) => x.id)).toEqual(['demo']);
    expect(snap && snap.type === 'snapshot' && snap.snapshot.rootSource).toBe('demo');
    // A second click returns the same demo.
    expect(await h.dispatch('startDemo', [])).toEqual(r);
    expect(startDemo).toHaveBeenCalledOnce();
    await h.close();
    open.splice(0);
    expect(stop).toHaveBeenCalledOnce();
  });

  it('never leaks a stack from an internal failure', async () => {
    const log = vi.fn();
    const broken = {
      teamsRoot: t.root,
      stateDir: t.stateDir,
      start: async () => {},
      stop: async () => {},
      listTeams: async () => {
        throw new Error('disk on fire');
      },
      onEvent: () => () => {},
      problems: () => [],
      queuedCount: () => 0,
    } as unknown as TeamServiceApi;
    const h = await make({ createService: () => broken, log });
    const r = await h.calls.getSnapshot();
    expect(r).toEqual({ ok: false, error: { code: 'internal', message: 'disk on fire' } });
    expect(log).toHaveBeenCalled();
  });

  it('reports a busy state dir at creation', async () => {
    await make();
    await expect(make()).rejects.toBeInstanceOf(StateDirBusyError);
  });
});
