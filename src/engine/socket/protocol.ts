// The engine socket's wire format, shared by the server and the client: newline-delimited
// JSON, one request per line with an id, one answer per id, events pushed to subscribers.
//
//   client: {"id":0,"method":"hello","args":[{"token":"<hex>","protocol":1}]}   (first line)
//   server: {"id":0,"ok":true,"value":{"pid":..,"teamsRoot":..,"stateDir":..,"protocol":1}}
//   client: {"id":1,"method":"send","args":[{"team":"alpha","to":"researcher","text":"hi"}]}
//   server: {"id":1,"ok":true,"value":{"id":"..","status":"accepted"}}
//           {"id":2,"ok":false,"error":{"code":"refused","message":".."}}
//   client: {"id":3,"method":"subscribe","args":[]}  then the server pushes {"event":{..}}
import { z } from 'zod';
import { ERROR_CODES, type ApiError } from '../../shared/contract.js';
import { argsSchema } from '../../shared/contract-schema.js';
import type { TeamServiceApi } from '../service/service-types.js';

export const PROTOCOL_VERSION = 1;
/** A request line longer than this is refused and its connection closed (a send is at most ~400 KiB as JSON). */
export const MAX_REQUEST_LINE_BYTES = 1_048_576;
/** Answers can be large (a 25,000-message feed); this only stops a runaway stream. */
export const MAX_ANSWER_LINE_BYTES = 256 * 1_048_576;

/** TeamServiceApi members that are methods. Only those ENGINE_METHODS lists go over the socket (not prepare). */
type ServiceMethod = { [K in keyof TeamServiceApi]-?: TeamServiceApi[K] extends (...a: never[]) => unknown ? K : never }[keyof TeamServiceApi];

/**
 * The TeamServiceApi methods a client may call, each with the schema of its positional
 * arguments (by kind, as in the contract: src/shared/contract.ts). The one list of the socket:
 * the server calls `service[method](...args)` for these names only, and the client has one
 * method per name. Exposing another facade method is one line here.
 */
export const ENGINE_METHODS = {
  listTeams: argsSchema([]),
  roster: argsSchema(['team']),
  thread: argsSchema(['team', 'member']),
  feed: argsSchema(['team']),
  send: argsSchema(['sendRequest']),
  problems: argsSchema([]),
  queuedCount: argsSchema([]),
  activity: argsSchema(['team']),
  timeline: argsSchema(['team', 'member', 'timelineLimit?']),
  tasks: argsSchema(['team']),
  needs: argsSchema([]),
  channels: argsSchema(['team', 'member']),
  terminalAvailability: argsSchema([]),
  terminals: argsSchema([]),
  launch: argsSchema(['launchRequest']),
  terminalInput: argsSchema(['terminalId', 'terminalInput']),
  resizeTerminal: argsSchema(['terminalId', 'cols', 'rows']),
  closeTerminal: argsSchema(['terminalId']),
  export: argsSchema(['exportRequest']),
  search: argsSchema(['searchRequest']),
  usage: argsSchema(['usageRequest']),
  setBudget: argsSchema(['budgetRequest']),
  prices: argsSchema([]),
  setPrices: argsSchema(['priceTable']),
  doctor: argsSchema([]),
  importStatus: argsSchema([]),
  answer: argsSchema(['answerRequest']),
  interrupt: argsSchema(['team', 'member']),
  answerPlan: argsSchema(['planAnswerRequest']),
} as const satisfies { [K in ServiceMethod]?: z.ZodType<Parameters<TeamServiceApi[K]>> };

export type EngineMethod = keyof typeof ENGINE_METHODS;
export const ENGINE_METHOD_NAMES = Object.keys(ENGINE_METHODS) as readonly EngineMethod[];
export type EngineArgs<M extends EngineMethod> = Parameters<TeamServiceApi[M]>;
export type EngineValue<M extends EngineMethod> = Awaited<ReturnType<TeamServiceApi[M]>>;

export function isEngineMethod(name: string): name is EngineMethod {
  return Object.hasOwn(ENGINE_METHODS, name);
}

export const requestSchema = z.strictObject({
  id: z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER),
  method: z.string().max(64),
  args: z.array(z.unknown()).max(8),
});
export type EngineRequest = z.infer<typeof requestSchema>;

export const helloArgsSchema = z.tuple([
  z.strictObject({
    token: z.string().max(256),
    protocol: z.number().int(),
  }),
]);

export interface HelloValue {
  pid: number;
  teamsRoot: string;
  stateDir: string;
  protocol: number;
}

export const helloValueSchema = z.object({
  pid: z.number().int(),
  teamsRoot: z.string(),
  stateDir: z.string(),
  protocol: z.number().int(),
});

export type EngineAnswer = { id: number | null; ok: true; value: unknown } | { id: number | null; ok: false; error: ApiError };

export const answerSchema = z.union([
  z.object({ id: z.number().nullable(), ok: z.literal(true), value: z.unknown() }),
  z.object({
    id: z.number().nullable(),
    ok: z.literal(false),
    // Every code crosses as it is, so the client throws the error the owner's engine threw.
    error: z.object({ code: z.enum(ERROR_CODES), message: z.string() }),
  }),
  z.object({ event: z.object({ type: z.string() }).loose() }),
]);

/**
 * Splits a byte stream into lines without re-scanning what it has already seen, and stops
 * (calling onTooLong once) at the first line longer than `max` bytes.
 */
export class LineReader {
  private chunks: Buffer[] = [];
  private size = 0;
  private stopped = false;

  constructor(
    private readonly max: number,
    private readonly onLine: (line: string) => void,
    private readonly onTooLong: () => void,
  ) {}

  push(chunk: Buffer): void {
    let start = 0;
    while (!this.stopped) {
      const nl = chunk.indexOf(10, start);
      const end = nl === -1 ? chunk.length : nl;
      if (this.size + (end - start) > this.max) {
        this.stopped = true;
        this.chunks = [];
        this.onTooLong();
        return;
      }
      const piece = chunk.subarray(start, end);
      if (nl === -1) {
        if (piece.length > 0) this.chunks.push(piece);
        this.size += piece.length;
        return;
      }
      const line = this.size === 0 ? piece.toString('utf8') : Buffer.concat([...this.chunks, piece]).toString('utf8');
      this.chunks = [];
      this.size = 0;
      start = nl + 1;
      this.onLine(line);
    }
  }

  /** No more lines: used once a connection is being closed. */
  stop(): void {
    this.stopped = true;
    this.chunks = [];
  }
}
