// Runtime schemas for every call in contract.ts: one per kind of argument (ARG_SCHEMAS), from
// which each call's strict tuple is built. Both hosts (Electron IPC and the browser host's
// WebSocket) run validateCall before any handler: the renderer is not trusted.
import { z } from 'zod';
import { MAX_SENDER_NAME, senderNameIssue } from './sender-name.js';
import { MAX_SUMMARY_CHARS, MAX_TEXT_BYTES, summaryProblem, textProblem } from './send-rules.js';
import { ANSWER_CHOICES, CHANNEL_KINDS, PERMISSION_MODES } from './types.js';
import { CALL_NAMES, CALLS, THEME_CHOICES, type ApiError, type ArgKind, type ArgsOf, type ArgSpec, type ArgTypes, type CallArgs, type CallName } from './contract.js';

export const MAX_NAME_LENGTH = 255;

export { MAX_TEXT_BYTES };
export const MAX_SUMMARY_LENGTH = MAX_SUMMARY_CHARS;
export const MAX_PATH_LENGTH = 4_096;
export const MAX_URL_LENGTH = 2_048;
export const IDLE_MINUTES_RANGE = { min: 1, max: 1_440 } as const;
/** getTimeline: how many of a member's latest transcript items one call may ask for. */
export const TIMELINE_LIMIT_RANGE = { min: 1, max: 10_000 } as const;
/** terminalInput: the most characters one call may carry (a large paste is split by the pane). */
export const MAX_TERMINAL_INPUT = 65_536;
export const TERMINAL_COLS_RANGE = { min: 2, max: 1_000 } as const;
export const TERMINAL_ROWS_RANGE = { min: 1, max: 500 } as const;
export const MAX_MODEL_LENGTH = 100;


const utf8 = new TextEncoder();
const CONTROL = /[\u0000-\u001f\u007f]/;

/** A team folder or member name: one line, no control characters (NUL included), bounded. */
const nameSchema = z
  .string()
  .min(1, 'must not be empty')
  .max(MAX_NAME_LENGTH, { error: `must be at most ${MAX_NAME_LENGTH} characters`, abort: true })
  .refine((s) => !CONTROL.test(s), 'must not contain control characters');

const textSchema = z
  .string()
  // The character count bounds the work before the exact byte count is taken.
  .max(MAX_TEXT_BYTES, { error: `must be at most ${MAX_TEXT_BYTES} bytes`, abort: true })
  .refine((s) => s.trim().length > 0, 'must not be empty')
  .refine((s) => utf8.encode(s).length <= MAX_TEXT_BYTES, `must be at most ${MAX_TEXT_BYTES} bytes of UTF-8`);

/**
 * A problem found by one of send-rules' checks: its words are the whole answer, the same as the
 * engine gives for the same input, so describeArgsError adds no field path to them.
 */
const PLAIN = { plain: true } as const;
function plainCheck(problem: (v: unknown) => string | undefined) {
  return (v: unknown, ctx: z.core.$RefinementCtx) => {
    const message = problem(v);
    if (message) ctx.addIssue({ code: 'custom', message, params: PLAIN, continue: false });
  };
}

export const sendRequestSchema = z.strictObject({
  team: nameSchema,
  to: nameSchema,
  // Any value reaches the check, so that a missing or non-string text gets its words too.
  text: z.unknown().superRefine(plainCheck(textProblem)).transform((v) => v as string),
  summary: z.unknown().superRefine(plainCheck(summaryProblem)).transform((v) => v as string | undefined).optional(),
  channel: z.enum(CHANNEL_KINDS).optional(),
});

const pathSchema = z
  .string()
  .min(1, 'must not be empty')
  .max(MAX_PATH_LENGTH, { abort: true })
  .refine((s) => !CONTROL.test(s), 'must not contain control characters');

export const launchRequestSchema = z.strictObject({
  cwd: pathSchema,
  prompt: textSchema.optional(),
  model: z
    .string()
    .max(MAX_MODEL_LENGTH, { abort: true })
    .regex(/^[A-Za-z0-9][A-Za-z0-9._:\-\[\]]*$/, 'must be a model name (letters, digits, ".", "_", ":", "-", "[", "]")')
    .optional(),
  permissionMode: z.enum(PERMISSION_MODES).optional(),
});

/** Teamdeck's own terminal ids: `t-` and 12 hex digits. */
export const terminalIdSchema = z.string().max(64, { abort: true }).regex(/^t-[0-9a-f]{12}$/, 'must be a terminal id');
const colsSchema = z.number().int().min(TERMINAL_COLS_RANGE.min).max(TERMINAL_COLS_RANGE.max);
const rowsSchema = z.number().int().min(TERMINAL_ROWS_RANGE.min).max(TERMINAL_ROWS_RANGE.max);
export const terminalInputSchema = z
  .string()
  .min(1, 'must not be empty')
  .max(MAX_TERMINAL_INPUT, { error: `must be at most ${MAX_TERMINAL_INPUT} characters a call`, abort: true });

/** An IANA time zone name this runtime knows ("Europe/Paris", "UTC"). */
export const timeZoneSchema = z
  .string()
  .min(1, 'must not be empty')
  .max(64, { abort: true })
  .regex(/^[A-Za-z0-9_+\-/]+$/, 'must be a time zone name such as Europe/Paris')
  .refine((s) => isTimeZone(s), 'is not a time zone this host knows');

/** True for a time zone name Intl accepts. */
export function isTimeZone(s: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: s });
    return true;
  } catch {
    return false;
  }
}

export const exportRequestSchema = z.strictObject({
  team: nameSchema,
  member: nameSchema.optional(),
  format: z.enum(['md', 'json']),
  timeZone: timeZoneSchema.optional(),
});

/** search: the longest query, and how many hits one page may ask for. */
export const MAX_SEARCH_QUERY = 1_000;
export const SEARCH_LIMIT_RANGE = { min: 1, max: 200 } as const;

export const searchRequestSchema = z.strictObject({
  query: z
    .string()
    .max(MAX_SEARCH_QUERY, { error: `must be at most ${MAX_SEARCH_QUERY} characters`, abort: true })
    .refine((s) => s.trim().length > 0, 'must not be empty')
    .refine((s) => !s.includes('\u0000'), 'must not contain NUL'),
  team: nameSchema.optional(),
  limit: z.number().int().min(SEARCH_LIMIT_RANGE.min).max(SEARCH_LIMIT_RANGE.max).optional(),
  before: z.string().max(40).regex(/^[0-9]{1,20}$/, 'must be a cursor from an earlier page').optional(),
});

export const settingsPatchSchema = z.strictObject({
  theme: z.enum(THEME_CHOICES).optional(),
  teamsDir: z
    .string()
    .max(MAX_PATH_LENGTH, { abort: true })
    .refine((s) => !CONTROL.test(s), 'must not contain control characters')
    .optional(),
  idleMinutes: z.number().int().min(IDLE_MINUTES_RANGE.min).max(IDLE_MINUTES_RANGE.max).optional(),
  notifications: z.boolean().optional(),
  needsNotifications: z.boolean().optional(),
  answerFromTeamdeck: z.boolean().optional(),
  senderName: z
    .string()
    .max(MAX_SENDER_NAME, { abort: true })
    .refine((s) => senderNameIssue(s) !== 'empty', 'must not be empty')
    .refine((s) => senderNameIssue(s) !== 'reserved', 'is reserved by Claude Code (messages from it are rated forged)')
    .refine((s) => senderNameIssue(s) === undefined, 'may only use letters, digits, "_" and "-"')
    .optional(),
  claudePath: z
    .string()
    .max(MAX_PATH_LENGTH, { abort: true })
    .refine((s) => !CONTROL.test(s), 'must not contain control characters')
    .optional(),
});

export const timelineLimitSchema = z.number().int().min(TIMELINE_LIMIT_RANGE.min).max(TIMELINE_LIMIT_RANGE.max);

export const externalUrlSchema = z
  .string()
  // Stop at the length check: parsing a multi-megabyte URL would be wasted work.
  .max(MAX_URL_LENGTH, { abort: true })
  .refine((s) => isHttpUrl(s), 'must be an http or https URL');

/** True for an absolute http(s) URL without embedded credentials. */
export function isHttpUrl(s: string): boolean {
  let u: URL;
  try {
    u = new URL(s);
  } catch {
    return false;
  }
  return (u.protocol === 'http:' || u.protocol === 'https:') && u.username === '' && u.password === '' && u.hostname !== '';
}

/** A local day, YYYY-MM-DD. */
const dateSchema = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date such as 2026-12-07');
export const usageRequestSchema = z.strictObject({ team: nameSchema.optional(), since: dateSchema.optional() });
/** A budget in USD: positive, at most a billion; null clears it. */
const budgetUsd = z.number().finite().positive('must be more than 0').max(1e9).nullable();
export const budgetRequestSchema = z.union([z.strictObject({ team: nameSchema, usd: budgetUsd }), z.strictObject({ daily: z.literal(true), usd: budgetUsd })]);
const perMTok = z.number().finite().nonnegative().max(100_000);
export const priceTableSchema = z
  .record(
    z.string().min(1).max(MAX_MODEL_LENGTH).refine((s) => !CONTROL.test(s), 'must be a model name'),
    z.strictObject({ inputPerMTok: perMTok, outputPerMTok: perMTok, cacheWritePerMTok: perMTok, cacheReadPerMTok: perMTok }),
  )
  .refine((t) => Object.keys(t).length <= 500, 'must name at most 500 models');
/** A needs-you item's id: one line, bounded (`permission:<team>:<member>:<tool call id>`). */
export const MAX_NEED_ID_LENGTH = 1_024;
/** A reason typed into Claude's "tell Claude what to do differently" input, or a plan's feedback. */
export const MAX_REASON_LENGTH = 2_000;

const needIdSchema = z
  .string()
  .min(1, 'must not be empty')
  .max(MAX_NEED_ID_LENGTH, { error: `must be at most ${MAX_NEED_ID_LENGTH} characters`, abort: true })
  .refine((s) => !CONTROL.test(s), 'must not contain control characters');

const reasonSchema = z
  .string()
  .max(MAX_REASON_LENGTH, { error: `must be at most ${MAX_REASON_LENGTH} characters`, abort: true })
  .refine((s) => s.trim().length > 0, 'must not be empty')
  .refine((s) => !/[\u0000-\u0008\u000b-\u001f\u007f]/.test(s), 'must not contain control characters');

export const answerRequestSchema = z
  .strictObject({ need: needIdSchema, choice: z.enum(ANSWER_CHOICES), reason: reasonSchema.optional() })
  .refine((r) => r.reason === undefined || r.choice === 'deny', { message: 'a reason goes only with deny', path: ['reason'] });

export const planAnswerRequestSchema = z.strictObject({ need: needIdSchema, approve: z.boolean(), feedback: reasonSchema.optional() });

/** The schema of each kind of argument a call may take (contract.ts names them in CALLS). */
export const ARG_SCHEMAS = {
  team: nameSchema,
  member: nameSchema,
  timelineLimit: timelineLimitSchema,
  sendRequest: sendRequestSchema,
  settingsPatch: settingsPatchSchema,
  url: externalUrlSchema,
  launchRequest: launchRequestSchema,
  terminalId: terminalIdSchema,
  cols: colsSchema,
  rows: rowsSchema,
  terminalInput: terminalInputSchema,
  exportRequest: exportRequestSchema,
  searchRequest: searchRequestSchema,
  usageRequest: usageRequestSchema,
  budgetRequest: budgetRequestSchema,
  priceTable: priceTableSchema,
  answerRequest: answerRequestSchema,
  planAnswerRequest: planAnswerRequestSchema,
} as const satisfies { [K in ArgKind]: z.ZodType<ArgTypes[K]> };

/** A strict tuple of positional arguments (extra ones are refused), with the kinds it was built from. */
export type ArgsSchema<S extends readonly ArgSpec[]> = z.ZodType<ArgsOf<S>> & { readonly kinds: S };

/** The strict tuple for arguments of these kinds; a kind ending in `?` may be left out. */
export function argsSchema<const S extends readonly ArgSpec[]>(kinds: S): ArgsSchema<S> {
  const items = kinds.map((kind): z.ZodType => (kind.endsWith('?') ? ARG_SCHEMAS[kind.slice(0, -1) as ArgKind].optional() : ARG_SCHEMAS[kind as ArgKind]));
  return Object.assign(z.tuple(items as [z.ZodType, ...z.ZodType[]]), { kinds }) as unknown as ArgsSchema<S>;
}

/** Positional arguments of each call, as a strict tuple. */
export const callArgsSchemas = Object.fromEntries(CALL_NAMES.map((name) => [name, argsSchema(CALLS[name].args)])) as {
  readonly [N in CallName]: ArgsSchema<(typeof CALLS)[N]['args']>;
};

export type Validated<N extends CallName> = { ok: true; name: N; args: CallArgs<N> } | { ok: false; error: ApiError };

export function isCallName(name: unknown): name is CallName {
  return typeof name === 'string' && Object.hasOwn(CALLS, name);
}

/**
 * The first problem of arguments that failed their schema, naming the field but never echoing
 * the value (it may be large or sensitive): "send: text: ...", or with several arguments
 * "getTimeline: argument 3: ...". The engine socket words its refusals the same way.
 */
export function describeArgsError(what: string, error: z.ZodError, arity: number): string {
  const issue = error.issues[0];
  if (!issue) return `${what}: invalid arguments`;
  if (argsErrorCode(error) === 'refused') return issue.message;
  const path = [...issue.path];
  if (typeof path[0] === 'number') {
    const index = path.shift() as number;
    if (arity > 1) path.unshift(`argument ${index + 1}`);
  }
  const where = path.length > 0 ? path.map(String).join('.') : 'arguments';
  return `${what}: ${where}: ${issue.message}`.slice(0, 300);
}

/**
 * The code of arguments that failed their schema: a send-rules problem is a refusal, as the
 * engine calls the same input; anything else is a malformed call.
 */
export function argsErrorCode(error: z.ZodError): 'refused' | 'invalid' {
  const issue = error.issues[0];
  return issue?.code === 'custom' && (issue.params as { plain?: boolean } | undefined)?.plain ? 'refused' : 'invalid';
}

/** Checks a call's name and arguments; the only way a host turns untrusted input into a typed call. */
export function validateCall<N extends CallName>(name: N, args: unknown): Validated<N>;
export function validateCall(name: unknown, args: unknown): Validated<CallName>;
export function validateCall(name: unknown, args: unknown): Validated<CallName> {
  if (!isCallName(name)) return { ok: false, error: { code: 'invalid', message: 'unknown call' } };
  if (!Array.isArray(args)) return { ok: false, error: { code: 'invalid', message: `${name}: arguments must be a list` } };
  const r = callArgsSchemas[name].safeParse(args);
  if (!r.success) return { ok: false, error: { code: argsErrorCode(r.error), message: describeArgsError(name, r.error, callArgsSchemas[name].kinds.length) } };
  return { ok: true, name, args: r.data as CallArgs<CallName> };
}

/** The browser host's WebSocket envelope of a call (WsClientMessage in contract.ts); its arguments are validated by validateCall. */
export const wsClientMessageSchema = z.strictObject({
  t: z.literal('call'),
  id: z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER),
  name: z.string().max(64),
  args: z.array(z.unknown()).max(8),
});
