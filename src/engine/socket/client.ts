// A TeamServiceApi that is another process's engine, reached over its engine socket: what the
// CLI uses when the app, `teamdeck serve` or `teamdeck watch` owns the state dir. start()
// connects and presents the token, stop() disconnects; every call goes to the owner.
import { createConnection, type Socket } from 'node:net';
import { withoutTrailingUndefined, type AppEvent, type ErrorCode } from '../../shared/contract.js';
import type { TeamProblem } from '../../shared/types.js';
import { argsErrorCode, describeArgsError } from '../../shared/contract-schema.js';
import { SendRefusedError, StateDirBusyError, TeamdeckError, TeamNotFoundError } from '../errors.js';
import type { TeamServiceApi } from '../service/service-types.js';
import { readEngineInfo } from './location.js';
import {
  answerSchema,
  ENGINE_METHOD_NAMES,
  ENGINE_METHODS,
  isEngineMethod,
  helloValueSchema,
  LineReader,
  MAX_ANSWER_LINE_BYTES,
  PROTOCOL_VERSION,
  type EngineArgs,
  type EngineMethod,
  type EngineValue,
  type HelloValue,
} from './protocol.js';

/** No engine could be reached over the socket (none serves one, it is gone, or it said no). */
export class EngineUnavailableError extends TeamdeckError {
  constructor(message: string) {
    super('unavailable', message);
  }
}

/** A call the owner answered with an error of this code (or the connection to it was lost: `internal`). */
export class EngineCallError extends TeamdeckError {}

/** The error the owner's engine threw, as this side throws it: the same code, and the same class where the engine has one. */
function remoteError(code: ErrorCode, message: string): TeamdeckError {
  if (code === 'refused') return new SendRefusedError(message);
  if (code === 'not_found') return new TeamNotFoundError(message);
  if (code === 'state_busy') return new StateDirBusyError(message);
  return new EngineCallError(code, message);
}

/** Kept here from start() and the owner's events, because the facade gives them synchronously. */
const CACHED = ['problems', 'queuedCount'] as const satisfies readonly EngineMethod[];
type RemoteMethod = Exclude<EngineMethod, (typeof CACHED)[number]>;
/** One method per ENGINE_METHODS entry: the call goes to the owner. */
type RemoteMethods = { [M in RemoteMethod]: (...args: EngineArgs<M>) => Promise<EngineValue<M>> };
// The methods are made in the constructor from the socket's one list; this base only gives
// the class their types.
const RemoteMethods = class {} as new () => RemoteMethods;

export interface EngineClientOptions {
  stateDir: string;
  /** Subscribe to the owner's events at start, so none is missed after start() returns. */
  events?: boolean;
  /** For connecting and for the owner's hello (default 5 s). */
  timeoutMs?: number;
}

interface Pending {
  method: string;
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
}

export class EngineSocketClient extends RemoteMethods implements TeamServiceApi {
  readonly stateDir: string;
  /** Aborted when the owner goes away while connected (not on stop()). */
  readonly lost: AbortSignal;
  private readonly lostController = new AbortController();
  private sock?: Socket;
  private hello?: HelloValue;
  private nextId = 0;
  private readonly pending = new Map<number, Pending>();
  private readonly listeners = new Set<(event: AppEvent) => void>();
  private subscribing?: Promise<void>;
  private cachedProblems: TeamProblem[] = [];
  private cachedQueued = 0;
  private closeReason?: string;
  private stopping = false;
  private closed?: Promise<void>;

  constructor(private readonly opts: EngineClientOptions) {
    super();
    this.stateDir = opts.stateDir;
    this.lost = this.lostController.signal;
    for (const method of ENGINE_METHOD_NAMES) {
      if ((CACHED as readonly EngineMethod[]).includes(method)) continue;
      // Optional arguments left out are not sent: JSON would send undefined as null, which the owner's schemas refuse.
      const fn = (...args: unknown[]) => this.request(method, withoutTrailingUndefined(args));
      Object.defineProperty(this, method, { value: fn, enumerable: false });
    }
  }

  /** The owner's teams root (known once started). */
  get teamsRoot(): string {
    return this.hello?.teamsRoot ?? '';
  }

  /** The owner's process id (known once started). */
  get ownerPid(): number | undefined {
    return this.hello?.pid;
  }

  /** Connects and presents the token; throws EngineUnavailableError when no engine answers. */
  async start(): Promise<void> {
    if (this.sock) return;
    let info;
    try {
      info = await readEngineInfo(this.stateDir);
    } catch (e) {
      throw new EngineUnavailableError((e as Error).message);
    }
    const timeoutMs = this.opts.timeoutMs ?? 5_000;
    const sock = await connectTo(info.path, timeoutMs, info.pid);
    this.attach(sock);
    try {
      const hello = await withTimeout(
        this.request('hello', [{ token: info.token, protocol: PROTOCOL_VERSION }]),
        timeoutMs,
        `the engine (pid ${info.pid}) did not answer within ${timeoutMs} ms`,
      );
      const h = helloValueSchema.safeParse(hello);
      if (!h.success) throw new EngineUnavailableError(`the engine (pid ${info.pid}) answered in a form this Teamdeck does not know`);
      this.hello = h.data;
      [this.cachedProblems, this.cachedQueued] = await Promise.all([this.call('problems'), this.call('queuedCount')]);
      if (this.opts.events) await this.subscribe();
    } catch (e) {
      this.stopping = true;
      sock.destroy();
      if (e instanceof EngineUnavailableError) throw e;
      throw new EngineUnavailableError(`the engine (pid ${info.pid}) refused this client: ${(e as Error).message}`);
    }
  }

  async stop(): Promise<void> {
    this.stopping = true;
    const sock = this.sock;
    if (!sock || sock.destroyed) return;
    sock.end();
    const timer = setTimeout(() => sock.destroy(), 1_000);
    await this.closed;
    clearTimeout(timer);
  }

  /** A viewer's stream lives in the engine that owns the terminal: a CLI client cannot attach. */
  async attachTerminal(): Promise<{ screen: string }> {
    throw new Error("a terminal's output streams to the app that hosts it (the window or the browser host); open it there");
  }

  async detachTerminal(): Promise<void> {}

  /** The owner watches the files itself; there is nothing to re-read on this side. */
  async refresh(): Promise<void> {}

  /** The owner's problems as of start(), kept current by its events while subscribed. */
  problems(): TeamProblem[] {
    return this.cachedProblems;
  }

  /** The owner's queued count as of start(), kept current by its events while subscribed. */
  queuedCount(): number {
    return this.cachedQueued;
  }

  setIdleThresholdMs(): void {
    throw new Error('the idle threshold is a setting of the engine that owns the state dir; change it there');
  }

  setSenderName(): void {
    throw new Error('the sender name is a setting of the engine that owns the state dir; change it there');
  }

  onEvent(listener: (event: AppEvent) => void): () => void {
    this.listeners.add(listener);
    // It fails only when the connection is gone, which `lost` tells, and every call after it says.
    if (this.hello) void this.subscribe().catch(() => {});
    return () => this.listeners.delete(listener);
  }

  /** Calls one allow-listed TeamServiceApi method on the owner. */
  call<M extends EngineMethod>(method: M, ...args: EngineArgs<M>): Promise<EngineValue<M>> {
    return this.request(method, args) as Promise<EngineValue<M>>;
  }

  private subscribe(): Promise<void> {
    return (this.subscribing ??= this.request('subscribe', []).then(() => undefined));
  }

  private request(method: string, args: unknown[]): Promise<unknown> {
    // Checked here with the owner's own schema, so that input the owner would refuse gets its
    // refusal in the same words without being sent: a line too long for the socket (a 2 MB
    // message) would otherwise only close the connection.
    if (isEngineMethod(method)) {
      const schema = ENGINE_METHODS[method];
      const r = schema.safeParse(args);
      if (!r.success) return Promise.reject(remoteError(argsErrorCode(r.error), describeArgsError(method, r.error, schema.kinds.length)));
    }
    const sock = this.sock;
    if (!sock || sock.destroyed || !sock.writable) return Promise.reject(this.goneError());
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { method, resolve, reject });
      sock.write(JSON.stringify({ id, method, args }) + '\n');
    });
  }

  private attach(sock: Socket): void {
    this.sock = sock;
    const reader = new LineReader(
      MAX_ANSWER_LINE_BYTES,
      (line) => this.onLine(line),
      () => {
        this.closeReason = `an answer longer than ${MAX_ANSWER_LINE_BYTES} bytes`;
        sock.destroy();
      },
    );
    sock.on('data', (chunk: Buffer) => reader.push(chunk));
    sock.on('error', (e: NodeJS.ErrnoException) => {
      this.closeReason ??= e.code ?? e.message;
    });
    this.closed = new Promise((resolve) =>
      sock.on('close', () => {
        reader.stop();
        const gone = this.goneError();
        for (const p of this.pending.values()) p.reject(gone);
        this.pending.clear();
        if (!this.stopping) this.lostController.abort(gone);
        resolve();
      }),
    );
  }

  private onLine(line: string): void {
    let raw: unknown;
    try {
      raw = JSON.parse(line);
    } catch {
      return; // not from a Teamdeck engine; nothing to match it to
    }
    const a = answerSchema.safeParse(raw);
    if (!a.success) return;
    const msg = a.data;
    if ('event' in msg) return this.onEngineEvent(msg.event as unknown as AppEvent);
    const p = msg.id === null ? undefined : this.pending.get(msg.id);
    if (!p) {
      // An answer to no request: the owner speaking about the connection before closing it.
      if (!msg.ok) this.closeReason = msg.error.message;
      return;
    }
    this.pending.delete(msg.id!);
    if (msg.ok) return p.resolve(msg.value);
    p.reject(remoteError(msg.error.code, msg.error.message));
  }

  private onEngineEvent(event: AppEvent): void {
    if (event.type === 'queued-count') this.cachedQueued = event.count;
    if (event.type === 'problem' || event.type === 'snapshot') {
      void this.call('problems').then(
        (p) => (this.cachedProblems = p),
        () => {},
      );
    }
    for (const l of [...this.listeners]) {
      try {
        l(event);
      } catch {
        // one listener's failure must not stop the others
      }
    }
  }

  private goneError(): EngineCallError {
    const who = this.hello ? `the engine (pid ${this.hello.pid})` : 'the engine';
    return new EngineCallError('internal', `${who} closed the connection${this.closeReason ? `: ${this.closeReason}` : ''}`);
  }
}

function connectTo(path: string, timeoutMs: number, pid: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const sock = createConnection(path);
    const fail = (why: string) => {
      clearTimeout(timer);
      sock.destroy();
      reject(new EngineUnavailableError(`the engine socket of pid ${pid} does not answer (${why})`));
    };
    const timer = setTimeout(() => fail(`no connection within ${timeoutMs} ms`), timeoutMs);
    sock.once('error', (e: NodeJS.ErrnoException) => fail(e.code ?? e.message));
    sock.once('connect', () => {
      clearTimeout(timer);
      sock.removeAllListeners('error');
      resolve(sock);
    });
  });
}

function withTimeout<T>(p: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const t = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new EngineUnavailableError(message)), ms);
  });
  return Promise.race([p, t]).finally(() => clearTimeout(timer));
}
