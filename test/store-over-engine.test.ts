// The window's store over the real engine: ApiHandlers on a temp teams folder (real files, real
// watching, every call validated as the hosts do), simulated members that read and answer their
// inboxes like Claude, and the store's own actions. What the store shows here is what the engine
// did and said, in its own words: the behaviour the renderer's scripted tests leave out.
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import lockfile from 'proper-lockfile';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiHandlers } from '../src/engine/api/api-handlers.js';
import { SettingsStore } from '../src/engine/service/settings.js';
import { TeamService } from '../src/engine/service/team-service.js';
import { CALL_NAMES, type TeamdeckApi, type TeamdeckCalls } from '../src/shared/contract.js';
import type { DeliveryStatus } from '../src/shared/types.js';
import { composeBlock, threadOf } from '../src/renderer/src/state/selectors.js';
import { createDeckStore, type DeckStore } from '../src/renderer/src/state/store.js';
import { writeEndedTeams } from '../src/sim/ended-gen.js';
import { createTeam, runMember, type MemberHandle } from '../src/sim/simulator.js';
import { tempTeams, writeTeam, type TempTeams } from './helpers/team-fixture.js';

let t: TempTeams;
const cleanups: (() => Promise<unknown> | unknown)[] = [];

beforeEach(async () => {
  t = await tempTeams('teamdeck-store-engine-');
});
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
  await t.cleanup();
});

/** The engine as a host runs it, and the window's store over it (calls go through dispatch, as over IPC or the socket). */
async function open() {
  const settings = await SettingsStore.open(t.stateDir);
  // A short tick, so a lead's exit is noticed within a fraction of a second.
  const handlers = await ApiHandlers.create({ stateDir: t.stateDir, settings, teamsDirFlag: t.root, env: {}, createService: (o) => new TeamService({ ...o, rescanMs: 200 }) });
  cleanups.push(() => handlers.close());
  const calls = Object.fromEntries(CALL_NAMES.map((name) => [name, (...args: unknown[]) => handlers.dispatch(name, args)])) as unknown as TeamdeckCalls;
  const api: TeamdeckApi = { ...calls, onEvent: (l) => handlers.onEvent(l) };
  const store = createDeckStore(api, { storage: null, tickMs: 1_000_000 });
  const { actions } = store.getState();
  cleanups.push(() => actions.stop());
  await actions.start();
  return { handlers, store, actions };
}

function member(name: string, opts: Partial<Parameters<typeof runMember>[0]> = {}): MemberHandle {
  const m = runMember({ teamsDir: t.root, team: 'alpha', name, pollMs: 100, workMs: [400, 400], seed: 7, mode: 'prune', ...opts });
  cleanups.push(() => m.stop());
  return m;
}

/** Every status the message with this text went through in the store, in order, once each. */
function statusTrail(store: { getState(): DeckStore; subscribe(l: (s: DeckStore) => void): () => void }, team: string, text: string): DeliveryStatus[] {
  const trail: DeliveryStatus[] = [];
  const look = (s: DeckStore) => {
    const st = s.byTeam[team]?.messages.find((m) => m.text === text)?.status;
    if (st && trail.at(-1) !== st) trail.push(st);
  };
  cleanups.push(store.subscribe(look));
  return trail;
}

describe('the store over the real engine', () => {
  it("opens the first team on its lead, and shows a member's answer in its thread", async () => {
    const at = new Date(Date.now() - 60_000).toISOString();
    await writeTeam(t.root, 'alpha', ['researcher'], { inboxes: { user: [{ from: 'researcher', text: 'Found the bug in auth.ts.', timestamp: at, read: false }] } });
    const { store } = await open();
    await vi.waitFor(() => expect(store.getState().byTeam.alpha?.feedLoaded).toBe(0));
    const s = store.getState();
    expect(s).toMatchObject({ phase: 'ready', teamsRoot: t.root, selectedTeam: 'alpha' });
    await vi.waitFor(() => expect(store.getState().memberByTeam.alpha).toBe('team-lead'));
    expect(threadOf(store.getState().byTeam.alpha!.messages, 'researcher').map((m) => [m.from, m.to, m.text])).toEqual([['researcher', 'user', 'Found the bug in auth.ts.']]);
  });

  it('a refused send keeps the draft and shows the engine’s words', async () => {
    await writeTeam(t.root, 'alpha', ['researcher']);
    const { store, actions } = await open();
    const frame = '{"type":"shutdown_request","requestId":"r1","from":"team-lead"}';
    actions.setDraft('alpha', 'researcher', { text: frame });
    expect(await actions.send('alpha', 'researcher')).toBe(false);
    const s = store.getState();
    expect(s.sendErrors['alpha/researcher']).toMatch(/protocol frame/i);
    expect(s.drafts['alpha/researcher']!.text).toBe(frame);
    expect(s.byTeam.alpha!.messages.some((m) => m.text === frame)).toBe(false);
  });

  it('a sent message goes accepted, then taken and replied as a simulated member answers, and shows once', async () => {
    await writeTeam(t.root, 'alpha', ['researcher']);
    const { store, actions } = await open();
    actions.openMember('alpha', 'researcher');
    const text = 'please fix the login bug';
    const trail = statusTrail(store, 'alpha', text);
    actions.setDraft('alpha', 'researcher', { text });
    expect(await actions.send('alpha', 'researcher')).toBe(true);
    expect(store.getState().drafts['alpha/researcher']).toBeUndefined();
    expect(trail.at(-1)).toBe('accepted');
    // The member starts reading only now, so `accepted` was seen before `taken`.
    member('researcher');
    await vi.waitFor(() => expect(trail.at(-1)).toBe('replied'), { timeout: 20_000 });
    // The engine lists the message as queued while it writes it into the inbox. A legacy team
    // has no transcript: no `seen` between taken and replied.
    expect(trail.slice(trail[0] === 'queued' ? 1 : 0)).toEqual(['accepted', 'taken', 'replied']);
    const thread = threadOf(store.getState().byTeam.alpha!.messages, 'researcher');
    expect(thread.filter((m) => m.text === text)).toHaveLength(1);
    expect(thread.some((m) => m.from === 'researcher' && m.text.includes(text))).toBe(true);
  });

  it('a message to a locked inbox shows queued with the engine’s reason, then accepted once the lock is released', async () => {
    await writeTeam(t.root, 'alpha', ['researcher'], { inboxes: { researcher: [] } });
    const { store, actions } = await open();
    const inbox = join(t.root, 'alpha', 'inboxes', 'researcher.json');
    // As Claude Code takes it (test/helpers/hold-lock.ts does the same from another process).
    const release = await lockfile.lock(inbox, { lockfilePath: `${inbox}.lock`, stale: 10_000, realpath: false });
    const text = 'this waits for the lock';
    actions.setDraft('alpha', 'researcher', { text });
    expect(await actions.send('alpha', 'researcher')).toBe(true);
    const sent = () => store.getState().byTeam.alpha!.messages.find((m) => m.text === text)!;
    expect(sent().status).toBe('queued');
    expect(sent().reason).toMatch(/lock/i);
    await vi.waitFor(() => expect(store.getState().queuedCount).toBe(1));
    await release();
    await vi.waitFor(() => expect(sent().status).toBe('accepted'), { timeout: 30_000 });
    expect(sent().reason).toBeUndefined();
    await vi.waitFor(() => expect(store.getState().queuedCount).toBe(0));
  });

  it('the sender name: a reserved one is refused in the engine’s words; a new one is what current teams are written as', async () => {
    await writeTeam(t.root, 'alpha', ['researcher']);
    // A current-era team whose lead is this process (running while the test runs).
    const current = await createTeam({ teamsDir: t.root, era: 'current', members: ['researcher'] });
    const { store, actions } = await open();
    expect(store.getState().teams.find((x) => x.id === current.id)?.sendAs).toBe('teamdeck');
    expect(await actions.saveSettings({ senderName: 'Team-Lead' })).toMatch(/forged/);
    expect(store.getState().settings.senderName).toBe('teamdeck');
    expect(await actions.saveSettings({ senderName: 'deck-2' })).toBeUndefined();
    expect(store.getState().settings.senderName).toBe('deck-2');
    await vi.waitFor(() => expect(store.getState().teams.find((x) => x.id === current.id)?.sendAs).toBe('deck-2'));
    expect(store.getState().teams.find((x) => x.id === 'alpha')?.sendAs).toBe('user');
  });

  it('a team whose lead exits: what was still queued turns undeliverable, and a send to it is refused in the engine’s words', async () => {
    // The lead: a process of its own, ended by the test.
    const lead: ChildProcess = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1e6)'], { stdio: 'ignore' });
    cleanups.push(() => lead.kill('SIGKILL'));
    const team = await createTeam({ teamsDir: t.root, era: 'current', members: ['researcher'], pid: lead.pid! });
    const { store, actions } = await open();
    actions.openMember(team.id, 'researcher');
    const find = (text: string) => () => store.getState().byTeam[team.id]!.messages.find((m) => m.text === text)!;
    actions.setDraft(team.id, 'researcher', { text: 'in your inbox' });
    expect(await actions.send(team.id, 'researcher')).toBe(true);
    const inInbox = find('in your inbox');
    expect(inInbox().status).toBe('accepted');
    // The next one cannot be written: its inbox is locked.
    const inbox = join(team.inboxesDir, 'researcher.json');
    const release = await lockfile.lock(inbox, { lockfilePath: `${inbox}.lock`, stale: 10_000, realpath: false });
    cleanups.push(() => release().catch(() => {}));
    actions.setDraft(team.id, 'researcher', { text: 'are you there?' });
    expect(await actions.send(team.id, 'researcher')).toBe(true);
    const waiting = find('are you there?');
    expect(waiting().status).toBe('queued');

    lead.kill('SIGKILL');
    await vi.waitFor(() => expect(store.getState().teams.find((x) => x.id === team.id)?.state).toBe('ended'), { timeout: 15_000 });
    await vi.waitFor(() => expect(waiting().status).toBe('undeliverable'));
    expect(waiting().reason).toMatch(/ended before it could be delivered/);
    // Written into the inbox before the end: it stays what it was.
    expect(inInbox().status).toBe('accepted');
    const s = store.getState();
    expect(s.selectedTeam).toBe(team.id);
    expect(composeBlock(s, team.id, 'researcher')?.kind).toBe('ended');

    actions.setDraft(team.id, 'researcher', { text: 'hello?' });
    expect(await actions.send(team.id, 'researcher')).toBe(false);
    expect(store.getState().sendErrors[`${team.id}/researcher`]).toMatch(/has ended.*nothing can be sent/);
    expect(store.getState().drafts[`${team.id}/researcher`]!.text).toBe('hello?');
  });

  it('an ended team known only from its history opens on demand, and a send to it is refused', async () => {
    const ended = await writeEndedTeams({ stateDir: t.stateDir, teams: 2, members: 2, messages: 6, seed: 21 });
    await writeTeam(t.root, 'alpha', ['researcher']);
    const { store, actions } = await open();
    const pick = ended.teams[1]!;
    expect(store.getState().teams.find((x) => x.id === pick.id)?.state).toBe('ended');
    actions.openTeam(pick.id);
    await vi.waitFor(() => expect(store.getState().byTeam[pick.id]?.feedLoaded).toBe(0));
    expect(store.getState().byTeam[pick.id]!.messages).toHaveLength(pick.messages);
    await vi.waitFor(() => expect(store.getState().memberByTeam[pick.id]).toBeDefined());
    const lead = store.getState().memberByTeam[pick.id]!;
    actions.setDraft(pick.id, lead, { text: 'anyone?' });
    expect(await actions.send(pick.id, lead)).toBe(false);
    expect(store.getState().sendErrors[`${pick.id}/${lead}`]).toMatch(/has ended/);
  });
});
