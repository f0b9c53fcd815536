import { resolveTeamsRoot } from '../../main/core/claude/paths.js';
import type { MemberEvent } from '../../sim/simulator.js';
import { startSimulation, type Simulation } from '../../sim/main.js';
import { intOpt, listOpt, noPositionals, numberOpt, rangeOpt, requireOpt, stringOpt, UsageError, type Parsed } from '../args.js';
import type { Command } from '../command.js';
import { localTime } from '../format.js';
import type { Io } from '../io.js';

export const SIM_OPTIONS = {
  mode: { type: 'string' },
  seed: { type: 'string' },
  'poll-ms': { type: 'string' },
  'work-ms': { type: 'string' },
  'reply-probability': { type: 'string' },
} as const;

export const SIM_HELP = [
  '  --mode M        prune (Claude 2.1.19x: read messages are removed) or flag (2.1.8x: marked read)',
  '  --seed N        seed for the members\' choices (work time, replies); printed when not given',
  '  --poll-ms N     inbox poll interval (default 500, Claude\'s in-process teammates)',
  '  --work-ms A,B   how long each request takes, uniformly in [A, B] ms (default 300,2000)',
  '  --reply-probability P   chance of answering the user, 0..1 (default 1)',
];

export interface SimTuning {
  mode?: 'prune' | 'flag';
  seed?: number;
  pollMs?: number;
  workMs?: [number, number];
  replyProbability?: number;
}

export function simTuning(p: Parsed): SimTuning {
  const mode = stringOpt(p, 'mode');
  if (mode !== undefined && mode !== 'prune' && mode !== 'flag') throw new UsageError(`--mode must be prune or flag, not ${JSON.stringify(mode)}`);
  return {
    mode,
    seed: intOpt(p, 'seed'),
    pollMs: intOpt(p, 'poll-ms', 1),
    workMs: rangeOpt(p, 'work-ms'),
    replyProbability: numberOpt(p, 'reply-probability', 0, 1),
  };
}

function shortText(s: string, n = 72): string {
  const one = s.replace(/\s+/g, ' ').trim();
  return one.length > n ? `${one.slice(0, n - 1)}…` : one;
}

/** A readable line for a simulator event, or undefined for the ones too chatty to print. */
export function simEventLine(e: MemberEvent): string | undefined {
  const at = localTime(new Date().toISOString()).slice(11);
  const who = e.member.padEnd(12);
  switch (e.kind) {
    case 'consumed':
      return `${at}  ${who}  read ${e.messages.length} message${e.messages.length === 1 ? '' : 's'} (from ${[...new Set(e.messages.map((m) => m.from))].join(', ')})`;
    case 'replied':
      return `${at}  ${who}  -> ${e.to}: ${shortText(e.text)}`;
    case 'no-reply':
      return `${at}  ${who}  finished a request from ${e.from} without answering`;
    case 'idle':
      return `${at}  ${who}  idle (idle_notification -> team-lead)`;
    case 'shutdown':
      return `${at}  ${who}  approved shutdown ${e.requestId} and exited`;
    case 'error':
      return `${at}  ${who}  error: ${e.message}`;
    default:
      return undefined;
  }
}

/** Prints events while the simulation runs; returns once it is stopped or every member has exited. */
export async function runUntilStopped(sim: Simulation, io: Io): Promise<void> {
  const allDone = new AbortController();
  void sim.done.then(() => allDone.abort());
  const how = await io.untilStopped(allDone.signal);
  if (how === 'cancelled') io.err('every simulated member has shut down');
  await sim.stop();
}

export function simEventPrinter(io: Io, json: boolean): (e: MemberEvent) => void {
  return (e) => {
    if (json) {
      io.out(JSON.stringify(e));
      return;
    }
    const line = simEventLine(e);
    if (line) io.out(line);
  };
}

export const simCommand: Command = {
  name: 'sim',
  summary: 'run a simulated, Claude-compatible team (creating it if needed) until Ctrl-C',
  usage: 'teamdeck sim --teams-dir D --team T [--members a,b,c] [--lead] [--mode prune|flag] [--seed N] [--poll-ms N]',
  help: [
    '  --team T        team name (its folder is derived the way Claude derives it)',
    '  --members LIST  comma-separated members to run; missing ones are added to config.json',
    '                  (default: the config\'s members, or researcher,implementer,tester for a new team)',
    '  --lead          also poll team-lead\'s inbox and answer the user as the lead',
    ...SIM_HELP,
    '',
    'The teams root must be given (--teams-dir or $TEAMDECK_TEAMS_DIR): the simulator never writes',
    'into a real Claude configuration by default.',
  ],
  options: { team: { type: 'string' }, members: { type: 'string' }, lead: { type: 'boolean' }, ...SIM_OPTIONS },
  async run(p, io) {
    noPositionals(p);
    const team = requireOpt(p, 'team');
    const members = listOpt(p, 'members');
    const tuning = simTuning(p);
    const { root, source } = resolveTeamsRoot({ teamsDir: p.common.teamsDir });
    if (source !== '--teams-dir' && source !== 'TEAMDECK_TEAMS_DIR') {
      throw new UsageError(`sim writes a simulated team; pass --teams-dir (it will not write into ${root} by default)`);
    }
    const sim = await startSimulation({
      teamsDir: root,
      team,
      members,
      lead: p.values.lead === true,
      ...tuning,
      onEvent: simEventPrinter(io, p.common.json),
    });
    const header = {
      teamsDir: root,
      team: sim.teamId,
      teamDir: sim.teamDir,
      created: sim.created,
      members: sim.members,
      mode: sim.mode,
      seed: sim.seed,
    };
    if (p.common.json) io.out(JSON.stringify({ kind: 'simulating', ...header }));
    else {
      io.err(
        `simulating team ${sim.teamName} in ${sim.teamDir} (${sim.created ? 'created' : 'existing'}${sim.added.length ? `, added ${sim.added.join(', ')}` : ''})`,
      );
      io.err(`members: ${sim.members.join(', ') || '(none)'}; ${sim.mode} mode; seed ${sim.seed}; Ctrl-C to stop`);
    }
    await runUntilStopped(sim, io);
    return 0;
  },
};
