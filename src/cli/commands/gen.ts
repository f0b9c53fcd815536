import { resolveTeamsRoot } from '../../engine/claude/paths.js';
import { intOpt, noPositionals, stringOpt, UsageError, type Parsed } from '../args.js';
import type { Command } from '../command.js';
import type { Io } from '../io.js';
import { table } from '../format.js';

function sizeOpt(p: Parsed, name: string, parse: (s: string) => number | undefined): number | undefined {
  const v = stringOpt(p, name);
  if (v === undefined) return undefined;
  const n = parse(v);
  if (n === undefined || n < 1) throw new UsageError(`--${name} must be a size like 10MB, 512KB or 4096, not ${JSON.stringify(v)}`);
  return n;
}

function endOpt(p: Parsed): number | undefined {
  const v = stringOpt(p, 'end');
  if (v === undefined) return undefined;
  if (v === 'now') return Date.now();
  const t = Date.parse(v);
  if (!Number.isFinite(t)) throw new UsageError(`--end must be an ISO-8601 time or "now", not ${JSON.stringify(v)}`);
  return t;
}

/** `--ended N`: N ended teams' history straight into the state folder (sim/ended-gen.ts), under its lock. */
async function genEnded(p: Parsed, io: Io, n: number): Promise<number> {
  const stateDir = p.common.stateDir;
  if (!stateDir) throw new UsageError('--ended writes into a state folder; pass --state-dir (it will not write into the default one)');
  const { writeEndedTeams } = await import('../../sim/ended-gen.js');
  const { acquireStateLock } = await import('../../engine/service/state-lock.js');
  const t0 = performance.now();
  const release = await acquireStateLock(stateDir);
  let r;
  try {
    r = await writeEndedTeams({ stateDir, teams: n, members: intOpt(p, 'members', 2), messages: intOpt(p, 'messages', 0), seed: intOpt(p, 'seed', 0), end: endOpt(p) });
  } catch (e) {
    if (e instanceof RangeError) throw new UsageError(e.message);
    throw e;
  } finally {
    await release();
  }
  const ms = performance.now() - t0;
  if (p.common.json) io.out(JSON.stringify({ ...r, ms: Math.round(ms) }));
  else io.out(`${r.teams.length} ended team(s), ${r.messages.toLocaleString('en')} messages of history, in ${stateDir} (${(ms / 1000).toFixed(1)} s)`);
  return 0;
}

const mb = (n: number) => `${(n / 1e6).toFixed(n >= 1e7 ? 0 : 1)} MB`;

export const genCommand: Command = {
  name: 'gen',
  summary: 'write seeded fixture teams in Claude\'s exact file format (benchmarks, load tests)',
  usage: 'teamdeck gen --teams-dir D [--teams N] [--members M] [--messages K] [--inbox-bytes SIZE] [--seed N] ...\n       teamdeck gen --state-dir S --ended N [--members M] [--messages K] [--seed N] [--end T]',
  help: [
    '  --teams N       teams to write (default 1), named like Claude names them (humble-chasing-goose)',
    '  --members M     members per team, the lead included, as in config.json (default 4)',
    '  --messages K    messages of history per team (default 200): requests and answers, task',
    '                  assignments, reports, idle notifications, plan approvals, teammate chat',
    '  --per-member    K counts per member instead of per team',
    '  --inbox-bytes SIZE   grow one inbox per team to about SIZE (10MB, 512KB) with older traffic',
    '  --inbox-owner NAME   whose inbox --inbox-bytes grows (default team-lead; user is your own inbox)',
    '  --thread N      add a thread of N messages between you and the first teammate of the team',
    '                  listed first (by folder name, the one the app opens first)',
    '  --mode M        flag (default, Claude 2.1.8x: read messages stay, flagged read) or prune',
    '                  (2.1.19x: read messages are removed; only the unread tail and user.json remain)',
    '  --shutdowns N   teammates per team that approved a shutdown at the end (default 1 from 3 teammates)',
    '  --seed N        the same seed and options write the same bytes (default 1)',
    '  --end T         time of the newest message: ISO-8601 or "now" (default 2026-02-09T16:00:00Z)',
    '  --force         replace team folders that already exist (default: refuse)',
    '  --ended N       instead: write N ended teams into --state-dir, as Teamdeck keeps them after',
    '                  Claude removed their folders (journal, team.json, the ended-teams index);',
    '                  --members and --messages per team; the newest ended at --end, each earlier',
    '                  one an hour before; the state folder\'s lock is held meanwhile',
    '',
    'The teams root must be given (--teams-dir or $TEAMDECK_TEAMS_DIR): gen never writes into a real',
    'Claude configuration by default.',
  ],
  options: {
    teams: { type: 'string' },
    members: { type: 'string' },
    messages: { type: 'string' },
    'per-member': { type: 'boolean' },
    'inbox-bytes': { type: 'string' },
    'inbox-owner': { type: 'string' },
    thread: { type: 'string' },
    mode: { type: 'string' },
    shutdowns: { type: 'string' },
    seed: { type: 'string' },
    end: { type: 'string' },
    force: { type: 'boolean' },
    ended: { type: 'string' },
  },
  async run(p, io) {
    noPositionals(p);
    const ended = intOpt(p, 'ended', 1);
    if (ended !== undefined) return genEnded(p, io, ended);
    const modeText = stringOpt(p, 'mode');
    if (modeText !== undefined && modeText !== 'flag' && modeText !== 'prune') throw new UsageError(`--mode must be flag or prune, not ${JSON.stringify(modeText)}`);
    const mode: 'flag' | 'prune' | undefined = modeText;
    const { root, source } = resolveTeamsRoot({ teamsDir: p.common.teamsDir });
    if (source !== '--teams-dir' && source !== 'TEAMDECK_TEAMS_DIR') {
      throw new UsageError(`gen writes fixture teams; pass --teams-dir (it will not write into ${root} by default)`);
    }
    // The generator is only loaded when asked for.
    const { generateTeams, parseSize } = await import('../../sim/fixture-gen.js');
    const opts = {
      teamsDir: root,
      teams: intOpt(p, 'teams', 1),
      members: intOpt(p, 'members', 2),
      messages: intOpt(p, 'messages', 0),
      perMember: p.values['per-member'] === true,
      inboxBytes: sizeOpt(p, 'inbox-bytes', parseSize),
      inboxOwner: stringOpt(p, 'inbox-owner'),
      thread: intOpt(p, 'thread', 0),
      mode,
      shutdowns: intOpt(p, 'shutdowns', 0),
      seed: intOpt(p, 'seed', 0),
      end: endOpt(p),
      force: p.values.force === true,
    };
    const t0 = performance.now();
    let r;
    try {
      r = await generateTeams(opts);
    } catch (e) {
      if (e instanceof RangeError || /already exists/.test((e as Error).message)) throw new UsageError((e as Error).message);
      throw e;
    }
    const ms = performance.now() - t0;
    if (p.common.json) {
      io.out(JSON.stringify({ ...r, ms: Math.round(ms) }));
      return 0;
    }
    io.out(
      table(
        ['TEAM', 'MEMBERS', 'MESSAGES', 'LARGEST INBOX'],
        r.teams.map((t) => {
          const big = t.inboxes.reduce((a, b) => (b.bytes > a.bytes ? b : a));
          return [t.id, String(t.teammates.length + 1), t.messages.toLocaleString('en'), `${big.owner}.json ${mb(big.bytes)}`];
        }),
      ),
    );
    io.out(`\n${r.teams.length} team(s), ${r.messages.toLocaleString('en')} messages, ${mb(r.bytes)} in ${root} (${r.mode} mode, seed ${r.seed}, ${(ms / 1000).toFixed(1)} s)`);
    return 0;
  },
};
