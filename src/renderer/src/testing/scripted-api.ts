// A TeamdeckApi for the renderer's tests, at the contract's edge: each call answers what the test
// scripted for it and records what it was asked, and the test pushes the host's events. It has no
// behaviour of the host's (no refusals of its own, no delivery progress, no era rule): what the
// engine does is tested against the engine (test/store-over-engine.test.ts, e2e/).
import { CALL_NAMES, type AppEvent, type ApiError, type CallName, type Result, type TeamdeckApi, type TeamdeckCalls } from '../../../shared/contract';

/** What a call answers. */
export type Answer<N extends CallName> = Awaited<ReturnType<TeamdeckCalls[N]>>;

/** A fixed answer, or one made (or held back, as a promise) from the call's arguments. */
export type Script<N extends CallName> = Answer<N> | ((...args: Parameters<TeamdeckCalls[N]>) => Answer<N> | Promise<Answer<N>>);

export type Scripts = { [N in CallName]?: Script<N> };

export interface ScriptedApi extends TeamdeckApi {
  /** What `name` answers from now on. */
  script<N extends CallName>(name: N, answer: Script<N>): void;
  /** Every call asked so far, in order. */
  readonly asked: readonly { name: CallName; args: readonly unknown[] }[];
  /** The arguments of each call to `name` so far, in order. */
  argsOf<N extends CallName>(name: N): Parameters<TeamdeckCalls[N]>[];
  /** Pushes an event to every subscriber, as the host would. */
  push(event: AppEvent): void;
  /** How many subscriptions are open. */
  readonly subscribers: number;
}

export function ok<T>(value: T): Result<T> {
  return { ok: true, value };
}

export function fails(message: string, code: ApiError['code'] = 'refused'): Result<never> {
  return { ok: false, error: { code, message } };
}

/** Over `scripts`; a call nothing was scripted for answers an internal error that names it. */
export function scriptedApi(scripts: Scripts = {}): ScriptedApi {
  const answers = new Map<CallName, unknown>(Object.entries(scripts) as [CallName, unknown][]);
  const asked: { name: CallName; args: readonly unknown[] }[] = [];
  const listeners = new Set<(e: AppEvent) => void>();

  const calls = Object.fromEntries(
    CALL_NAMES.map((name) => [
      name,
      async (...args: unknown[]) => {
        asked.push({ name, args });
        const a = answers.get(name);
        if (a === undefined) return fails(`nothing scripted for ${name}`, 'internal');
        return typeof a === 'function' ? await (a as (...x: unknown[]) => unknown)(...args) : a;
      },
    ]),
  ) as unknown as TeamdeckCalls;

  return {
    ...calls,
    onEvent(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    script(name, answer) {
      answers.set(name, answer);
    },
    asked,
    argsOf: <N extends CallName>(name: N) => asked.filter((c) => c.name === name).map((c) => c.args as Parameters<TeamdeckCalls[N]>),
    push(event) {
      for (const l of [...listeners]) l(event);
    },
    get subscribers() {
      return listeners.size;
    },
  };
}

/** A promise the test settles by hand: a call held on its way. */
export function held<T>(): { promise: Promise<T>; settle(value: T): void } {
  let settle!: (value: T) => void;
  const promise = new Promise<T>((r) => (settle = r));
  return { promise, settle };
}
