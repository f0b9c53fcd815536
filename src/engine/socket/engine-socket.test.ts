// The engine socket over real Unix sockets in real temp dirs: first against a stand-in
// service in this process (every error path, quickly), then against a real `teamdeck watch`.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { spawn, spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { createConnection, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ERROR_CODES, type AppEvent, type ErrorCode } from '../../shared/contract.js';
import { sampleArgs } from '../../../test/helpers/call-samples.js';
import { createTeam } from '../../sim/simulator.js';
import { TeamdeckError, TeamNotFoundError } from '../errors.js';
import { SendRefusedError, type TeamServiceApi } from '../service/service-types.js';
import { EngineSocketClient, EngineUnavailableError } from './client.js';
import { INFO_NAME, MAX_SOCKET_PATH_BYTES, readEngineInfo, RUNTIME_DIR_PREFIX, SOCKET_NAME } from './location.js';
import { ENGINE_METHOD_NAMES, ENGINE_METHODS, MAX_REQUEST_LINE_BYTES, PROTOCOL_VERSION } from './protocol.js';
import { serveEngineSocket, type EngineSocketServer } from './server.js';
import { withEngineSocket } from './with-socket.js';

const unix = process.platform !== 'win32';
const BIN = fileURLToPath(new URL('../../../bin/teamdeck.mjs', import.meta.url));

let dir: string;
let state: string;
const cleanups: (() => Promise<unknown>)[] = [];

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'teamdeck-sock-'));
  state = join(dir, 'state');
  await mkdir(state, { mode: 0o700 });
});
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c().catch(() => {});
  await rm(dir, { recursive: true, force: true });
});

/** A stand-in for TeamService: answers from memory, records sends, emits on demand. */
function fakeService(stateDir: string) {
  const listeners = new Set<(e: AppEvent) => void>();
  const sent: unknown[] = [];
  let queued = 2;
  const service = {
    teamsRoot: '/teams',
    stateDir,
    started: 0,
    stopped: 0,
    async start() {
      service.started++;
    },
    async stop() {
      service.stopped++;
    },
    async listTeams() {
      return [{ id: 'alpha', name: 'alpha', memberCount: 2, problems: [] }];
    },
    async roster(team: string) {
      if (team !== 'alpha') throw new TeamNotFoundError(`no team ${JSON.stringify(team)}`);
      return [{ name: 'team-lead', isLead: true }];
    },
    async thread(team: string, member: string) {
      return [{ id: 'm1', team, from: 'user', to: member, text: 'hi', status: 'accepted' }];
    },
    async feed() {
      throw new Error('disk on fire');
    },
    async send(req: { team: string; to: string; text: string }) {
      if (req.to === 'nobody') throw new SendRefusedError('team alpha has no member "nobody"');
      sent.push(req);
      return { id: `id-${sent.length}`, status: 'accepted' as const };
    },
    async refresh() {},
    problems: () => [{ kind: 'inbox' as const, file: 'alpha/inboxes/x.json', message: 'unreadable' }],
    queuedCount: () => queued,
    setIdleThresholdMs() {},
    setSenderName() {},
    onEvent(l: (e: AppEvent) => void) {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    emit(e: AppEvent) {
      if (e.type === 'queued-count') queued = e.count;
      for (const l of listeners) l(e);
    },
    sent,
    listeners,
  };
  return service;
}

async function serve(service: ReturnType<typeof fakeService>, opts: Parameters<typeof serveEngineSocket>[2] = {}): Promise<EngineSocketServer> {
  const s = await serveEngineSocket(service as unknown as TeamServiceApi, service.stateDir, opts);
  cleanups.push(() => s.close());
  return s;
}

async function client(events = false, stateDir = state): Promise<EngineSocketClient> {
  const c = new EngineSocketClient({ stateDir, events });
  await c.start();
  cleanups.push(() => c.stop());
  return c;
}

interface Raw {
  sock: Socket;
  answers: Record<string, unknown>[];
  /** Writes a line (objects as JSON). */
  send(line: unknown): void;
  /** The next answer with this id (or the first one without an id, for `null`). */
  answer(id: number | null, timeoutMs?: number): Promise<Record<string, unknown>>;
  closed: Promise<void>;
}

/** A connection that speaks the protocol by hand, to say things the client never would. */
async function raw(path: string): Promise<Raw> {
  const sock = createConnection(path);
  await new Promise<void>((res, rej) => {
    sock.once('connect', res);
    sock.once('error', rej);
  });
  sock.on('error', () => {});
  cleanups.push(async () => sock.destroy());
  const answers: Record<string, unknown>[] = [];
  let buf = '';
  const pokes = new Set<() => void>();
  sock.setEncoding('utf8').on('data', (c: string) => {
    buf += c;
    const parts = buf.split('\n');
    buf = parts.pop()!;
    for (const p of parts) answers.push(JSON.parse(p) as Record<string, unknown>);
    for (const f of pokes) f();
  });
  const closed = new Promise<void>((r) => sock.on('close', () => r()));
  return {
    sock,
    answers,
    closed,
    send: (line) => sock.write((typeof line === 'string' ? line : JSON.stringify(line)) + '\n'),
    answer: (id, timeoutMs = 5_000) =>
      new Promise((resolve, reject) => {
        const check = () => {
          const hit = answers.find((a) => a.id === id);
          if (hit) {
            pokes.delete(check);
            clearTimeout(timer);
            resolve(hit);
          }
        };
        const timer = setTimeout(() => reject(new Error(`no answer ${id}; got ${JSON.stringify(answers)}`)), timeoutMs);
        pokes.add(check);
        check();
      }),
  };
}

async function token(stateDir = state): Promise<string> {
  return (await readEngineInfo(stateDir)).token;
}

const hello = async (r: Raw, stateDir = state) => {
  r.send({ id: 0, method: 'hello', args: [{ token: await token(stateDir), protocol: PROTOCOL_VERSION }] });
  return r.answer(0);
};

describe.runIf(unix)('engine socket, in process', () => {
  it('serves the facade: values, refusals, unknown teams and internal errors keep their codes', async () => {
    const svc = fakeService(state);
    await serve(svc);
    const c = await client();
    expect(c.teamsRoot).toBe('/teams');
    expect(c.ownerPid).toBe(process.pid);
    expect(await c.listTeams()).toEqual([{ id: 'alpha', name: 'alpha', memberCount: 2, problems: [] }]);
    expect(await c.thread('alpha', 'researcher')).toEqual([expect.objectContaining({ to: 'researcher', status: 'accepted' })]);
    expect(await c.send({ team: 'alpha', to: 'researcher', text: 'hello' })).toEqual({ id: 'id-1', status: 'accepted' });
    expect(svc.sent).toEqual([{ team: 'alpha', to: 'researcher', text: 'hello' }]);
    // The caches that stand in for the synchronous facade calls.
    expect(c.queuedCount()).toBe(2);
    expect(c.problems()).toEqual([expect.objectContaining({ file: 'alpha/inboxes/x.json' })]);

    await expect(c.send({ team: 'alpha', to: 'nobody', text: 'hi' })).rejects.toMatchObject({ name: 'SendRefusedError', code: 'refused', message: expect.stringContaining('no member') });
    await expect(c.roster('nope')).rejects.toMatchObject({ code: 'not_found', message: 'no team "nope"' });
    await expect(c.feed('alpha')).rejects.toMatchObject({ code: 'internal', message: 'disk on fire' });
    // Validated by the same schema before it is sent, so nothing reaches send(); a text over the
    // limit is a refusal in the engine's own words, as it is without a socket (issue 28, item 5).
    await expect(c.send({ team: 'alpha', to: 'r', text: 'x'.repeat(65_537) })).rejects.toMatchObject({ code: 'refused', message: 'message is 65537 bytes; the limit is 65536' });
    await expect(c.send({ team: 'alpha', to: 'r', text: 'x'.repeat(2_000_000) })).rejects.toMatchObject({ code: 'refused', message: 'message is 2000000 bytes; the limit is 65536' });
    await expect(c.send({ team: 'alpha', to: 'r', text: 'hi', from: 'team-lead' } as never)).rejects.toThrow(/send: .*unrecognized key/i);
    await expect(c.roster('a\u0000b')).rejects.toThrow(/roster: .*control characters/);
    expect(svc.sent).toHaveLength(1);
    expect(() => c.setIdleThresholdMs()).toThrow(/engine that owns the state dir/);
  });

  it('carries every error code both ways: the client throws what the owner threw, by code, without its stack', async () => {
    const svc = fakeService(state);
    // The stand-in's tasks() throws an error of the code it is given (or a plain Error for "plain").
    Object.assign(svc, {
      async tasks(team: string) {
        if (team === 'plain') throw new TypeError('not ours');
        throw new TeamdeckError(team as ErrorCode, `a ${team} error`);
      },
    });
    await serve(svc, { log: () => {} });
    const c = await client();
    for (const code of ERROR_CODES) {
      const e = await c.tasks(code).catch((err: unknown) => err);
      expect(e, code).toBeInstanceOf(TeamdeckError);
      expect(e, code).toMatchObject({ code, message: `a ${code} error` });
    }
    await expect(c.tasks('refused')).rejects.toBeInstanceOf(SendRefusedError);
    await expect(c.tasks('not_found')).rejects.toBeInstanceOf(TeamNotFoundError);
    await expect(c.tasks('plain')).rejects.toMatchObject({ code: 'internal', message: 'not ours' });
    // On the wire: the code, and the message only.
    const r = await raw(join(state, SOCKET_NAME));
    await hello(r);
    r.send({ id: 1, method: 'tasks', args: ['state_busy'] });
    r.send({ id: 2, method: 'tasks', args: ['plain'] });
    expect(await r.answer(1)).toEqual({ id: 1, ok: false, error: { code: 'state_busy', message: 'a state_busy error' } });
    expect(await r.answer(2)).toEqual({ id: 2, ok: false, error: { code: 'internal', message: 'not ours' } });
  });

  it('serves every method of its one list, and the client has each of them, arguments and values intact', async () => {
    const received: [string, unknown[]][] = [];
    // A stand-in that answers every method with its name and arguments.
    const svc = new Proxy(fakeService(state), {
      get(target, prop, receiver) {
        if (typeof prop === 'string' && (ENGINE_METHOD_NAMES as readonly string[]).includes(prop) && prop !== 'problems' && prop !== 'queuedCount') {
          return async (...args: unknown[]) => {
            received.push([prop, args]);
            return { method: prop, args };
          };
        }
        return Reflect.get(target, prop, receiver);
      },
    });
    await serve(svc);
    const c = await client();
    const remote = ENGINE_METHOD_NAMES.filter((m) => m !== 'problems' && m !== 'queuedCount');
    for (const method of remote) {
      const args = sampleArgs(ENGINE_METHODS[method].kinds);
      expect(await (c[method] as (...a: unknown[]) => Promise<unknown>)(...args), method).toEqual({ method, args });
    }
    // An optional argument left out goes as fewer arguments, not as null.
    expect(await c.timeline('alpha', 'researcher', undefined)).toEqual({ method: 'timeline', args: ['alpha', 'researcher'] });
    expect(received.map(([m]) => m)).toEqual([...remote, 'timeline']);
  });

  it('writes the socket 0600 and the info file 0600, and removes both on close', async () => {
    const s = await serve(fakeService(state));
    expect(s.path).toBe(join(state, SOCKET_NAME));
    expect((await stat(s.path)).mode & 0o777).toBe(0o600);
    expect((await stat(s.path)).isSocket()).toBe(true);
    expect((await stat(join(state, INFO_NAME))).mode & 0o777).toBe(0o600);
    const info = JSON.parse(await readFile(join(state, INFO_NAME), 'utf8')) as Record<string, unknown>;
    expect(info).toEqual({ protocol: PROTOCOL_VERSION, pid: process.pid, path: s.path, token: expect.stringMatching(/^[0-9a-f]{64}$/) });
    await s.close();
    expect(await readdir(state)).toEqual([]);
  });

  it('pushes events to subscribers only, and keeps the queued count current', async () => {
    const svc = fakeService(state);
    await serve(svc);
    const quiet = await client(false);
    const loud = await client(true);
    const got: AppEvent[] = [];
    loud.onEvent((e) => got.push(e));
    const heardQuiet: AppEvent[] = [];
    quiet.onEvent((e) => heardQuiet.push(e));
    // The quiet client subscribes on its first listener: a round trip after that, it is on.
    await quiet.listTeams();
    svc.emit({ type: 'queued-count', count: 7 });
    svc.emit({ type: 'delivery', team: 'alpha', id: 'id-1', to: 'researcher', status: 'accepted' });
    await expect.poll(() => got.length).toBe(2);
    expect(got[1]).toEqual({ type: 'delivery', team: 'alpha', id: 'id-1', to: 'researcher', status: 'accepted' });
    expect(loud.queuedCount()).toBe(7);
    await expect.poll(() => heardQuiet.length).toBe(2);
  });

  it('refuses a wrong token, a first line that is not hello, and an old protocol, and closes those connections', async () => {
    await serve(fakeService(state));
    const path = join(state, SOCKET_NAME);
    const wrong = await raw(path);
    wrong.send({ id: 0, method: 'hello', args: [{ token: 'f'.repeat(64), protocol: PROTOCOL_VERSION }] });
    expect(await wrong.answer(0)).toEqual({ id: 0, ok: false, error: { code: 'refused', message: 'wrong token' } });
    await wrong.closed;

    const skip = await raw(path);
    skip.send({ id: 1, method: 'send', args: [{ team: 'alpha', to: 'researcher', text: 'sneaky' }] });
    expect(await skip.answer(1)).toMatchObject({ ok: false, error: { code: 'refused', message: expect.stringContaining('first request must be hello') } });
    await skip.closed;

    const old = await raw(path);
    old.send({ id: 0, method: 'hello', args: [{ token: await token(), protocol: 0 }] });
    expect(await old.answer(0)).toMatchObject({ ok: false, error: { code: 'refused', message: expect.stringContaining('protocol') } });
    await old.closed;

    // Every one of them was turned away; a proper client is still served.
    expect(await (await client()).listTeams()).toHaveLength(1);
  });

  it('answers garbage, unknown methods and bad arguments on a live connection, which keeps working', async () => {
    const svc = fakeService(state);
    await serve(svc);
    const r = await raw(join(state, SOCKET_NAME));
    expect(await hello(r)).toMatchObject({ id: 0, ok: true, value: { pid: process.pid, teamsRoot: '/teams', stateDir: state, protocol: PROTOCOL_VERSION } });

    r.send('this is not json');
    expect(await r.answer(null)).toMatchObject({ ok: false, error: { code: 'invalid', message: expect.stringContaining('JSON') } });
    r.answers.length = 0;
    r.send({ id: 1, method: 'stop', args: [] });
    r.send({ id: 2, method: 'constructor', args: [] });
    r.send({ id: 3, method: '__proto__', args: [] });
    r.send({ id: 4, method: 'thread', args: ['alpha'] });
    r.send({ id: 5, method: 'listTeams' });
    r.send({ id: 6, method: 'listTeams', args: [], extra: true });
    r.send({ id: 7, method: 'hello', args: [{ token: await token(), protocol: PROTOCOL_VERSION }] });
    r.send({ id: 8, method: 'listTeams', args: [] });
    expect(await r.answer(1)).toEqual({ id: 1, ok: false, error: { code: 'invalid', message: 'unknown method "stop"' } });
    expect(await r.answer(2)).toMatchObject({ error: { code: 'invalid', message: 'unknown method "constructor"' } });
    expect(await r.answer(3)).toMatchObject({ error: { code: 'invalid', message: 'unknown method "__proto__"' } });
    expect(await r.answer(4)).toMatchObject({ error: { code: 'invalid', message: expect.stringMatching(/^thread: /) } });
    expect(await r.answer(5)).toMatchObject({ error: { code: 'invalid', message: expect.stringContaining('args') } });
    expect(await r.answer(6)).toMatchObject({ error: { code: 'invalid' } });
    expect(await r.answer(7)).toMatchObject({ error: { code: 'invalid', message: expect.stringContaining('already') } });
    expect(await r.answer(8)).toMatchObject({ ok: true, value: [{ id: 'alpha' }] });
    expect(svc.started + svc.stopped).toBe(0);
  });

  it('refuses a line over 1 MiB with a clean error, closes that connection, and serves the next', async () => {
    const svc = fakeService(state);
    await serve(svc);
    const r = await raw(join(state, SOCKET_NAME));
    await hello(r);
    const big = JSON.stringify({ id: 1, method: 'send', args: [{ team: 'alpha', to: 'researcher', text: 'x'.repeat(MAX_REQUEST_LINE_BYTES) }] });
    r.sock.write(big + '\n');
    expect(await r.answer(null)).toEqual({ id: null, ok: false, error: { code: 'invalid', message: expect.stringContaining(`longer than ${MAX_REQUEST_LINE_BYTES} bytes`) } });
    await r.closed;
    expect(svc.sent).toEqual([]);
    const c = await client();
    expect(await c.send({ team: 'alpha', to: 'researcher', text: 'after' })).toMatchObject({ status: 'accepted' });
  });

  it('drops a client that never says hello, and turns away clients past the limit', async () => {
    await serve(fakeService(state), { helloTimeoutMs: 100, maxConnections: 2 });
    const path = join(state, SOCKET_NAME);
    const idle = await raw(path);
    expect(await idle.answer(null)).toMatchObject({ error: { code: 'refused', message: expect.stringContaining('no hello') } });
    await idle.closed;
    const a = await raw(path);
    const b = await raw(path);
    await hello(a);
    await hello(b);
    const c = await raw(path);
    expect(await c.answer(null)).toMatchObject({ error: { code: 'refused', message: expect.stringContaining('at most 2 clients') } });
    await c.closed;
  });

  it('replaces a socket a crashed owner left, but not a file that is not a socket', async () => {
    const path = join(state, SOCKET_NAME);
    // A process that dies by SIGKILL while listening leaves its socket file behind.
    spawnSync(process.execPath, ['-e', `require('net').createServer().listen(${JSON.stringify(path)}, () => process.kill(process.pid, 'SIGKILL'))`]);
    expect((await stat(path)).isSocket()).toBe(true);
    await writeFile(join(state, INFO_NAME), JSON.stringify({ protocol: 1, pid: 999_999, path, token: 'a'.repeat(64) }));
    await expect(new EngineSocketClient({ stateDir: state }).start()).rejects.toThrow(/does not answer \(ECONNREFUSED\)/);
    const s = await serve(fakeService(state));
    expect(await (await client()).listTeams()).toHaveLength(1);
    await s.close();

    await writeFile(path, 'not a socket');
    await expect(serveEngineSocket(fakeService(state) as unknown as TeamServiceApi)).rejects.toThrow(/is not a socket/);
    expect(await readFile(path, 'utf8')).toBe('not a socket');
  });

  it('puts the socket in an owner-only runtime folder when the state path is too long, and removes it on close', async () => {
    const runtime = join(dir, 'run');
    await mkdir(runtime, { mode: 0o700 });
    const long = join(dir, 'a-state-folder-with-a-long-name-'.padEnd(MAX_SOCKET_PATH_BYTES, 'x'));
    await mkdir(long, { mode: 0o700 });
    const s = await serve(fakeService(long), { env: { XDG_RUNTIME_DIR: runtime } });
    expect(dirname(dirname(s.path))).toBe(runtime);
    expect(dirname(s.path).split('/').pop()).toMatch(new RegExp(`^${RUNTIME_DIR_PREFIX}`));
    expect((await stat(dirname(s.path))).mode & 0o777).toBe(0o700);
    expect((await stat(s.path)).mode & 0o777).toBe(0o600);
    expect((await readEngineInfo(long)).path).toBe(s.path);
    expect(await (await client(false, long)).listTeams()).toHaveLength(1);
    await s.close();
    expect(await readdir(runtime)).toEqual([]);
    expect(await readdir(long)).toEqual([]);
  });

  it('a later owner removes the runtime folder a crashed one left', async () => {
    const runtime = join(dir, 'run');
    const stale = join(runtime, `${RUNTIME_DIR_PREFIX}dead`);
    await mkdir(stale, { recursive: true, mode: 0o700 });
    const long = join(dir, 'y'.repeat(MAX_SOCKET_PATH_BYTES));
    await mkdir(long);
    await writeFile(join(long, INFO_NAME), JSON.stringify({ protocol: 1, pid: 999_999, path: join(stale, SOCKET_NAME), token: 'b'.repeat(64) }));
    const s = await serve(fakeService(long), { env: { XDG_RUNTIME_DIR: runtime } });
    expect((await readdir(runtime)).map((n) => join(runtime, n))).toEqual([dirname(s.path)]);
  });

  it('reports clearly when no engine serves a socket', async () => {
    await expect(new EngineSocketClient({ stateDir: state }).start()).rejects.toThrow(EngineUnavailableError);
    await expect(new EngineSocketClient({ stateDir: state }).start()).rejects.toThrow('its owner serves no engine socket');
    await writeFile(join(state, INFO_NAME), '{"torn');
    await expect(new EngineSocketClient({ stateDir: state }).start()).rejects.toThrow(/not JSON/);
  });

  it('a client sees the owner go away: pending calls fail and `lost` fires', async () => {
    const svc = fakeService(state);
    svc.thread = () => new Promise(() => {}); // never answers
    const s = await serve(svc);
    const c = await client(true);
    const pending = expect(c.thread('alpha', 'x')).rejects.toMatchObject({ code: 'internal', message: expect.stringContaining(`pid ${process.pid}) closed the connection`) });
    await s.close();
    await pending;
    expect(c.lost.aborted).toBe(true);
  });

  it('withEngineSocket serves while the service runs and passes every other member through', async () => {
    const svc = fakeService(state);
    const wrapped = withEngineSocket(svc as unknown as TeamServiceApi, { log: () => {} });
    await wrapped.start();
    expect(svc.started).toBe(1);
    expect(wrapped.teamsRoot).toBe('/teams');
    expect(wrapped.queuedCount()).toBe(2);
    expect(await (await client()).listTeams()).toHaveLength(1);
    await wrapped.stop();
    expect(svc.stopped).toBe(1);
    expect(await readdir(state)).toEqual([]);
  });
});

// ---------------------------------------------------------------------------------------------
// Against the real engine: `teamdeck watch` in its own process owns the state dir.

describe.runIf(unix)('engine socket of a running `teamdeck watch`', () => {
  it('turns away a wrong token, garbage, unknown methods and an oversized line, and keeps serving', async () => {
    const teams = join(dir, 'teams');
    await mkdir(teams);
    await createTeam({ teamsDir: teams, team: 'alpha', members: ['researcher'] });
    const inboxesBefore = await readdir(join(teams, 'alpha', 'inboxes'));
    const env = { ...process.env };
    delete env.TEAMDECK_TEAMS_DIR;
    delete env.TEAMDECK_STATE_DIR;
    const child = spawn(process.execPath, [BIN, 'watch', '--teams-dir', teams, '--state-dir', state], { env, stdio: ['ignore', 'ignore', 'pipe'] });
    const exited = new Promise<number | null>((r) => child.on('close', (code) => r(code)));
    cleanups.push(async () => {
      if (child.exitCode === null) child.kill('SIGKILL');
      await exited;
    });
    let err = '';
    await new Promise<void>((resolve, reject) => {
      child.stderr.setEncoding('utf8').on('data', (c: string) => {
        err += c;
        if (err.includes('Ctrl-C to stop')) resolve();
      });
      void exited.then(() => reject(new Error(`watch exited: ${err}`)));
    });
    const path = join(state, SOCKET_NAME);
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect((await stat(state)).mode & 0o777).toBe(0o700);

    const wrong = await raw(path);
    wrong.send({ id: 0, method: 'hello', args: [{ token: '0'.repeat(64), protocol: PROTOCOL_VERSION }] });
    expect(await wrong.answer(0)).toMatchObject({ error: { code: 'refused', message: 'wrong token' } });
    await wrong.closed;

    const r = await raw(path);
    expect(await hello(r)).toMatchObject({ ok: true, value: { teamsRoot: teams, stateDir: state } });
    r.send('{{{{');
    expect(await r.answer(null)).toMatchObject({ error: { code: 'invalid' } });
    r.send({ id: 1, method: 'setIdleThresholdMs', args: [1] });
    expect(await r.answer(1)).toMatchObject({ error: { code: 'invalid', message: 'unknown method "setIdleThresholdMs"' } });
    r.send({ id: 2, method: 'roster', args: ['nope'] });
    expect(await r.answer(2)).toMatchObject({ error: { code: 'not_found' } });
    r.send({ id: 3, method: 'send', args: [{ team: 'alpha', to: 'nobody', text: 'hi' }] });
    expect(await r.answer(3)).toMatchObject({ error: { code: 'refused', message: expect.stringContaining('no member') } });
    r.send({ id: 4, method: 'roster', args: ['alpha'] });
    expect(await r.answer(4)).toMatchObject({ ok: true, value: expect.arrayContaining([expect.objectContaining({ name: 'researcher' })]) });
    r.sock.write('x'.repeat(MAX_REQUEST_LINE_BYTES + 10));
    await r.closed;
    expect(r.answers.at(-1)).toMatchObject({ id: null, error: { code: 'invalid', message: expect.stringContaining('longer than') } });

    // Still serving, and nothing was written by any of it.
    const c = await client();
    expect((await c.listTeams()).map((t) => t.id)).toEqual(['alpha']);
    expect(await readdir(join(teams, 'alpha', 'inboxes'))).toEqual(inboxesBefore);
    expect(child.exitCode).toBeNull();
    child.kill('SIGINT');
    expect(await exited).toBe(0);
    expect((await readdir(state)).filter((n) => n.startsWith('engine'))).toEqual([]);
  });
});
