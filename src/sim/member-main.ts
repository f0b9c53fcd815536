// Entry point of one simulated member in its own process (see member-process.ts). Prints each
// MemberEvent as a JSON line on stdout, so a parent can wait on explicit signals, not sleeps.
import { parseArgs } from 'node:util';
import { runMember } from './simulator.js';

const { values } = parseArgs({
  args: process.argv.slice(2),
  options: {
    'teams-dir': { type: 'string' },
    team: { type: 'string' },
    name: { type: 'string' },
    era: { type: 'string' },
    mode: { type: 'string' },
    seed: { type: 'string' },
    'poll-ms': { type: 'string' },
    'work-ms': { type: 'string' },
    'reply-probability': { type: 'string' },
    'idle-on-start': { type: 'boolean' },
  },
  strict: true,
});

const teamsDir = values['teams-dir'];
const team = values.team;
const name = values.name;
if (!teamsDir || !team || !name) {
  process.stderr.write('usage: member-main --teams-dir D --team T --name M [--era current|legacy] [--mode prune|flag] [--seed N] [--poll-ms N] [--work-ms A,B] [--reply-probability P]\n');
  process.exit(2);
}
if (values.era !== undefined && values.era !== 'current' && values.era !== 'legacy') {
  process.stderr.write(`--era must be current or legacy, not ${JSON.stringify(values.era)}\n`);
  process.exit(2);
}
const mode = values.mode === 'flag' ? 'flag' : 'prune';
const num = (v: string | undefined) => (v === undefined ? undefined : Number(v));
const work = values['work-ms']?.split(',').map(Number);

const handle = runMember({
  teamsDir,
  team,
  name,
  // Default: the team's own era. A current-era member alone in this process has its own ledger:
  // whatever another process writes as team-lead is forged to it, as to a real teammate.
  era: values.era as 'current' | 'legacy' | undefined,
  mode,
  seed: num(values.seed),
  pollMs: num(values['poll-ms']),
  workMs: work && work.length === 2 ? [work[0] ?? 0, work[1] ?? 0] : undefined,
  replyProbability: num(values['reply-probability']),
  idleOnStart: values['idle-on-start'],
  onEvent: (e) => process.stdout.write(JSON.stringify(e) + '\n'),
});

const stop = () => void handle.stop();
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
await handle.done;
process.off('SIGINT', stop);
process.off('SIGTERM', stop);
