import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createDemoTeam, DEMO_RUNNING } from '../../sim/demo.js';
import { startSimulation } from '../../sim/main.js';
import { noPositionals } from '../args.js';
import type { Command } from '../command.js';
import { runUntilStopped, SIM_HELP, SIM_OPTIONS, simEventPrinter, simTuning } from './sim.js';

export const demoCommand: Command = {
  name: 'demo',
  summary: 'create a demo team with some history and run it as a simulation until Ctrl-C',
  usage: 'teamdeck demo [--teams-dir D] [--mode prune|flag] [--seed N] [--poll-ms N]',
  help: [
    '  --teams-dir D   where to create the team "demo" (default: a new temporary folder;',
    '                  the demo never uses the default teams root)',
    ...SIM_HELP.map((l) => (l.startsWith('  --mode') ? l + ' (default flag, so the history stays visible)' : l)),
  ],
  options: { ...SIM_OPTIONS },
  async run(p, io) {
    noPositionals(p);
    const tuning = simTuning(p);
    const root = p.common.teamsDir ? resolve(p.common.teamsDir) : await mkdtemp(join(tmpdir(), 'teamdeck-demo-'));
    const demo = await createDemoTeam({ teamsDir: root });
    const sim = await startSimulation({
      teamsDir: root,
      team: demo.team,
      members: [...DEMO_RUNNING],
      ...tuning,
      mode: tuning.mode ?? 'flag',
      onEvent: simEventPrinter(io, p.common.json),
    });
    if (p.common.json) {
      io.out(JSON.stringify({ kind: 'demo', teamsDir: root, team: demo.team, teamDir: demo.teamDir, created: demo.created, members: sim.members, mode: sim.mode, seed: sim.seed }));
    } else {
      const q = (s: string) => (/^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);
      io.err(
        [
          `Demo team "${demo.team}" ${demo.created ? 'created' : 'already there, reused'} in ${demo.teamDir}`,
          `Simulating ${sim.members.join(' and ')} (${sim.mode} mode, seed ${sim.seed}); tester has already shut down.`,
          '',
          'Point Teamdeck at it:',
          `  TEAMDECK_TEAMS_DIR=${q(root)} npm start        (or set the teams folder in Settings)`,
          `  teamdeck roster --teams-dir ${q(root)} --team demo`,
          `  teamdeck send --teams-dir ${q(root)} --team demo --to researcher "Check the login flow"`,
          `  teamdeck tail --teams-dir ${q(root)} --team demo`,
          '',
          'Ctrl-C to stop; the files stay where they are.',
        ].join('\n'),
      );
    }
    await runUntilStopped(sim, io);
    return 0;
  },
};
