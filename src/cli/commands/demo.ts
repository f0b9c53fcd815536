import { mkdir, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createDemoTeam, DEMO_RUNNING } from '../../sim/demo.js';
import { startSimulation } from '../../sim/main.js';
import { noPositionals, UsageError } from '../args.js';
import type { Command } from '../command.js';
import { isRealClaudeTeamsRoot, runUntilStopped, SIM_HELP, SIM_OPTIONS, simEventPrinter, simHeader, simTuning } from './sim.js';

const q = (s: string) => (/^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);

export const demoCommand: Command = {
  name: 'demo',
  summary: 'create a demo team with some history and run it as a simulation until Ctrl-C',
  usage: 'teamdeck demo [--teams-dir D] [--era current|legacy] [--mode prune|flag] [--seed N] [--poll-ms N]',
  help: [
    '  --teams-dir D   teams root to create the demo team in (default: a new temporary folder;',
    '                  the demo never uses a real Claude configuration)',
    ...SIM_HELP.map((l) => (l.startsWith('  --mode') ? l + ' (legacy demo default: flag, so the history stays visible)' : l)),
    '',
    'Current era (default): the team is what today\'s Claude Code leaves on disk: session-<8 hex>,',
    'inboxes already pruned, the history in the transcripts next to the teams root; stopping the',
    'demo ends its lead, which deletes the team folder. Legacy: the team "demo", read messages',
    'kept as read:true, answers in inboxes/user.json.',
  ],
  options: { ...SIM_OPTIONS },
  async run(p, io) {
    noPositionals(p);
    const tuning = simTuning(p);
    let root: string;
    if (p.common.teamsDir) {
      root = resolve(p.common.teamsDir);
      if (isRealClaudeTeamsRoot(root)) throw new UsageError(`${root} is a real Claude configuration's teams root; the demo never writes there`);
    } else if (tuning.era === 'current') {
      // The lead's sessions, transcripts and tasks go beside the teams root: keep them all in the temp folder.
      root = join(await mkdtemp(join(tmpdir(), 'teamdeck-demo-')), 'teams');
      await mkdir(root);
    } else {
      root = await mkdtemp(join(tmpdir(), 'teamdeck-demo-'));
    }
    const demo = await createDemoTeam({ teamsDir: root, era: tuning.era });
    const sim = await startSimulation({
      teamsDir: root,
      team: demo.team,
      members: [...DEMO_RUNNING],
      ...tuning,
      mode: tuning.mode ?? (tuning.era === 'legacy' ? 'flag' : undefined),
      onEvent: simEventPrinter(io, p.common.json),
    });
    if (p.common.json) {
      io.out(JSON.stringify({ kind: 'demo', ...simHeader(sim), team: demo.team, created: demo.created }));
    } else if (sim.era === 'current') {
      io.err(
        [
          `Demo team ${demo.team} (Claude Code 2.1.332 era) created in ${demo.teamDir}`,
          `Its lead is this process (pid ${sim.lead?.pid}); simulating ${sim.members.join(' and ')} (seed ${sim.seed}); tester has already shut down.`,
          `Inboxes are pruned as Claude prunes them; the history is in the transcripts under ${sim.configDir}/projects.`,
          '',
          'Point Teamdeck at it:',
          `  TEAMDECK_TEAMS_DIR=${q(root)} npm start        (or set the teams folder in Settings)`,
          `  teamdeck roster --teams-dir ${q(root)} --team ${demo.team}`,
          `  teamdeck send --teams-dir ${q(root)} --team ${demo.team} --to researcher "Check the login flow"`,
          `  teamdeck tail --teams-dir ${q(root)} --team ${demo.team}`,
          '',
          'Ctrl-C to stop: like Claude\'s lead, the demo then deletes its team folder (transcripts and tasks stay).',
        ].join('\n'),
      );
    } else {
      io.err(
        [
          `Demo team "${demo.team}" ${demo.created ? 'created' : 'already there, reused'} in ${demo.teamDir}`,
          `Simulating ${sim.members.join(' and ')} (legacy era, ${sim.mode} mode, seed ${sim.seed}); tester has already shut down.`,
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
