import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { resolveTeamsRoot } from '../../engine/claude/paths.js';
import { SESSION_TEAM, SIM_ERAS, type SimEra } from '../../sim/claude-paths.js';
import type { MemberEvent } from '../../sim/simulator.js';
import { startSimulation, type Simulation } from '../../sim/main.js';
import { intOpt, listOpt, noPositionals, numberOpt, rangeOpt, stringOpt, UsageError, type Parsed } from '../args.js';
import type { Command } from '../command.js';
import { localTime } from '../format.js';
import type { Io } from '../io.js';

export const SIM_OPTIONS = {
  era: { type: 'string' },
  mode: { type: 'string' },
  'lead-exit-after': { type: 'string' },
  seed: { type: 'string' },
  'poll-ms': { type: 'string' },
  'work-ms': { type: 'string' },
  'reply-probability': { type: 'string' },
} as const;

export const SIM_HELP = [
  '  --era E         current (default: Claude Code 2.1.332: a session-<8 hex> team owned by this',
  '                  process, deleted when it stops; no user mailbox: answers are idle_notification',
  '                  results and transcripts) or legacy (a named team; answers in inboxes/user.json)',
  '  --lead-exit-after MS   current era: the lead exits cleanly (and deletes its team) after MS ms',
  '  --mode M        legacy era: prune (Claude 2.1.19x: read messages are removed) or flag (2.1.8x:',
  '                  marked read); the current era always prunes',
  '  --seed N        seed for the members\' choices (work time, replies); printed when not given',
  '  --poll-ms N     inbox poll interval (default 500, Claude\'s in-process teammates)',
  '  --work-ms A,B   how long each request takes, uniformly in [A, B] ms (default 300,2000)',
  '  --reply-probability P   chance of answering the user, 0..1 (default 1)',
];

export interface SimTuning {
  era: SimEra;
  leadExitAfterMs?: number;
  mode?: 'prune' | 'flag';
  seed?: number;
  pollMs?: number;
  workMs?: [number, number];
  replyProbability?: number;
}

export function simTuning(p: Parsed): SimTuning {
  const era = stringOpt(p, 'era') ?? 'current';
  if (!(SIM_ERAS as readonly string[]).includes(era)) throw new UsageError(`--era must be current or legacy, not ${JSON.stringify(era)}`);
  const mode = stringOpt(p, 'mode');
  if (mode !== undefined && mode !== 'prune' && mode !== 'flag') throw new UsageError(`--mode must be prune or flag, not ${JSON.stringify(mode)}`);
  if (era === 'current' && mode === 'flag') throw new UsageError('--mode flag is a legacy-era behaviour (Claude 2.1.8x); pass --era legacy, or leave --mode out: current Claude prunes');
  const leadExitAfterMs = intOpt(p, 'lead-exit-after');
  if (era === 'legacy' && leadExitAfterMs !== undefined) throw new UsageError('--lead-exit-after is for --era current: legacy teams outlive their lead');
  return {
    era: era as SimEra,
    leadExitAfterMs,
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
      return e.to === 'team-lead' ? `${at}  ${who}  -> team-lead (idle_notification result): ${shortText(e.text)}` : `${at}  ${who}  -> ${e.to}: ${shortText(e.text)}`;
    case 'no-reply':
      return `${at}  ${who}  finished a request from ${e.from} without answering`;
    case 'idle':
      return `${at}  ${who}  idle (idle_notification -> team-lead)`;
    case 'shutdown':
      return `${at}  ${who}  approved shutdown ${e.requestId}`;
    case 'left':
      return `${at}  ${who}  left the team (gone from config.json)`;
    case 'unverified':
      return `${at}  ${who}  ${e.dropped ? 'dropped a forged frame' : 'got an unverified message'} from "${e.from}" (a reserved or member name written from outside): ${shortText(e.text, 48)}`;
    case 'invalid':
      return `${at}  ${who}  deleted ${e.count} invalid entr${e.count === 1 ? 'y' : 'ies'} from its inbox (null or ill-typed fields)`;
    case 'team':
      return `${at}  ${who}  ${e.created ? 'created' : 'reclaimed'} team ${e.team} (pid ${e.pid}, session ${e.sessionId})`;
    case 'team-deleted':
      return `${at}  ${who}  exited: team folder ${e.team} deleted`;
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
  if (how === 'cancelled') io.err(sim.era === 'current' ? 'the simulated lead has exited; its team folder is deleted' : 'every simulated member has shut down');
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

/** The teams roots of a real Claude configuration: the current era writes sessions/ and projects/ beside them. */
export function isRealClaudeTeamsRoot(root: string, env: NodeJS.ProcessEnv = process.env): boolean {
  const real = [join(homedir(), '.claude', 'teams')];
  if (env.CLAUDE_CONFIG_DIR) real.push(resolve(env.CLAUDE_CONFIG_DIR, 'teams'));
  return real.some((r) => resolve(r) === resolve(root));
}

/** What a header line says about the run, in both eras. */
export function simHeader(sim: Simulation): Record<string, unknown> {
  const h: Record<string, unknown> = {
    era: sim.era,
    teamsDir: sim.teamsDir,
    team: sim.teamId,
    teamDir: sim.teamDir,
    created: sim.created,
    members: sim.members,
    mode: sim.mode,
    seed: sim.seed,
  };
  if (sim.lead) {
    h.configDir = sim.configDir;
    h.leadSessionId = sim.lead.sessionId;
    h.pid = sim.lead.pid;
    h.sessionFile = sim.lead.sessionFile;
    h.leadTranscript = sim.lead.transcript.path;
  }
  return h;
}

export const simCommand: Command = {
  name: 'sim',
  summary: 'run a simulated, Claude-compatible team (creating it if needed) until Ctrl-C',
  usage: 'teamdeck sim --teams-dir D [--era current|legacy] [--team T] [--members a,b,c] [--lead] [--lead-exit-after MS] [--mode prune|flag] [--seed N] [--poll-ms N]',
  help: [
    '  --team T        legacy era (required): the team name; its folder is derived the way Claude',
    '                  derives it. Current era: an existing session-<8 hex> team to reclaim as its',
    '                  new lead, or that name for the new one (default: a new session id)',
    '  --members LIST  comma-separated members to run; missing ones are added to config.json',
    '                  (default: the config\'s members, or researcher,implementer,tester for a new team)',
    '  --lead          legacy era: also poll team-lead\'s inbox and answer the user as the lead',
    '                  (in the current era the lead always runs: it is this process)',
    ...SIM_HELP,
    '',
    'The teams root must be given (--teams-dir or $TEAMDECK_TEAMS_DIR): the simulator never writes',
    'into a real Claude configuration. In the current era it also writes sessions/, projects/ and',
    'tasks/ in the teams root\'s parent, as Claude does in ~/.claude.',
  ],
  options: { team: { type: 'string' }, members: { type: 'string' }, lead: { type: 'boolean' }, ...SIM_OPTIONS },
  async run(p, io) {
    noPositionals(p);
    const tuning = simTuning(p);
    const { root, source } = resolveTeamsRoot({ teamsDir: p.common.teamsDir });
    if (source !== '--teams-dir' && source !== 'TEAMDECK_TEAMS_DIR') {
      throw new UsageError(`sim writes a simulated team; pass --teams-dir (it will not write into ${root} by default)`);
    }
    const team = stringOpt(p, 'team');
    if (tuning.era === 'legacy' && !team) throw new UsageError('--team is required with --era legacy');
    if (tuning.era === 'current' && team !== undefined && !SESSION_TEAM.test(team)) {
      throw new UsageError(`current-era teams are named session-<8 hex> by Claude, not ${JSON.stringify(team)}; leave --team out, or pass --era legacy for a named team`);
    }
    const members = listOpt(p, 'members');
    if (tuning.era === 'current' && isRealClaudeTeamsRoot(root)) {
      throw new UsageError(`${root} is a real Claude configuration's teams root: a simulated lead would write its sessions and transcripts next to the real ones; pass another --teams-dir`);
    }
    const sim = await startSimulation({
      teamsDir: root,
      team,
      members,
      lead: p.values.lead === true,
      ...tuning,
      onEvent: simEventPrinter(io, p.common.json),
    });
    if (p.common.json) io.out(JSON.stringify({ kind: 'simulating', ...simHeader(sim) }));
    else {
      io.err(
        `simulating team ${sim.teamName} in ${sim.teamDir} (${sim.era} era; ${sim.created ? 'created' : 'existing'}${sim.added.length ? `, added ${sim.added.join(', ')}` : ''})`,
      );
      if (sim.lead) {
        io.err(`lead: pid ${sim.lead.pid}, session ${sim.lead.sessionId}; its files are under ${sim.configDir}`);
        io.err(`members: ${sim.members.join(', ') || '(none)'}; seed ${sim.seed}; Ctrl-C to stop (the lead then deletes its team folder, as Claude does)`);
      } else {
        io.err(`members: ${sim.members.join(', ') || '(none)'}; ${sim.mode} mode; seed ${sim.seed}; Ctrl-C to stop`);
      }
    }
    await runUntilStopped(sim, io);
    return 0;
  },
};
