// V8 flags the engine changes while it runs, and the one rule that comes with them: V8 stamps a
// code cache with the flags in force, and a start (which runs with the defaults) rejects a cache
// stamped otherwise. So every change is announced on `process` first (V8_FLAGS_EVENT), and the
// `teamdeck` command (bin/teamdeck.cjs) takes its code cache then. In the Electron app and in
// tests nobody listens, and the flag is simply set.
import type { EventEmitter } from 'node:events';
import { setFlagsFromString } from 'node:v8';

/** Emitted on `process` just before a V8 flag is changed (bin/teamdeck.cjs listens). */
export const V8_FLAGS_EVENT = 'teamdeck:v8-flags';

let baselineWasm = false;

/**
 * WebAssembly compiled from now on stays on V8's baseline compiler (Liftoff), never recompiled
 * by the optimizing one. For SQLite (search/index-db.ts): the optimizing compiler's working
 * memory for SQLite's query engine (one function of some 100 KB) stayed in the process for good,
 * 35-50 MB of resident memory. V8 reads the flag when it compiles WebAssembly.
 */
export function wasmOnBaselineCompiler(): void {
  if (baselineWasm) return;
  baselineWasm = true;
  (process as EventEmitter).emit(V8_FLAGS_EVENT);
  setFlagsFromString('--liftoff-only');
}
