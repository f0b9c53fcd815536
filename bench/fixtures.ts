// Fixture folders for the scenarios, written by the same generator as `teamdeck gen`, in a
// fresh temp folder per scenario that is removed afterwards.
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateTeams, type GenOptions, type GenResult } from '../src/sim/fixture-gen.js';

export interface Fixture {
  base: string;
  teamsDir: string;
  stateDir: string;
  gen: GenResult;
  /** Generation time, ms. */
  ms: number;
  /** A fresh, empty state dir next to the first one (a second cold start "as new"). */
  freshState(name: string): Promise<string>;
  cleanup(): Promise<void>;
}

export async function fixture(name: string, opts: Omit<GenOptions, 'teamsDir'>): Promise<Fixture> {
  const base = await mkdtemp(join(tmpdir(), `teamdeck-bench-${name}-`));
  const teamsDir = join(base, 'teams');
  const stateDir = join(base, 'state');
  const t0 = performance.now();
  // History ends "now", so the roster shows the members as they would be during a session.
  const gen = await generateTeams({ end: Date.now() - 60_000, ...opts, teamsDir });
  const ms = performance.now() - t0;
  return {
    base,
    teamsDir,
    stateDir,
    gen,
    ms,
    freshState: async (n) => {
      const d = join(base, n);
      await mkdir(d, { recursive: true });
      return d;
    },
    cleanup: () => rm(base, { recursive: true, force: true }),
  };
}
