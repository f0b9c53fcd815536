// "Start a demo team": a seeded, simulated team in a temporary teams root with its own state
// dir, for the empty state of the Electron window and the browser host. Plain Node.
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DemoTeam } from '../engine/api/api-handlers.js';
import { createDemoTeam } from './demo.js';
import { startSimulation, type Simulation } from './main.js';

export async function startDemoTeam(opts: { baseDir?: string; seed?: number } = {}): Promise<DemoTeam> {
  const base = await mkdtemp(join(opts.baseDir ?? tmpdir(), 'teamdeck-demo-'));
  const teamsRoot = join(base, 'teams');
  const stateDir = join(base, 'state');
  await mkdir(teamsRoot, { recursive: true });
  let demo;
  try {
    demo = await createDemoTeam({ teamsDir: teamsRoot });
  } catch (e) {
    await rm(base, { recursive: true, force: true });
    throw e;
  }
  let sim: Simulation | undefined;
  return {
    teamsRoot,
    team: demo.team,
    stateDir,
    run: async () => {
      if (sim) return;
      // 'flag' keeps what members read in their inboxes, like the seeded history; the lead
      // runs too, so a message to team-lead is answered like any other.
      sim = await startSimulation({ teamsDir: teamsRoot, team: demo.team, members: [...demo.running], lead: true, mode: 'flag', seed: opts.seed });
    },
    stop: async () => {
      await sim?.stop();
      await rm(base, { recursive: true, force: true });
    },
  };
}
