// Who is in a fixture team: its name, its teammates named for their roles, their colours, and
// which of them shut down before the history ends.
import { teamDirName } from '../engine/claude/paths.js';
import type { Rng } from './prng.js';

export const LEAD = 'team-lead';
export const USER = 'user';

/** Claude hands teammates colours in this order. */
const COLORS = ['blue', 'green', 'yellow', 'purple', 'orange', 'pink', 'cyan', 'red'] as const;
/** Teammates in a real team are named for their role. */
const ROLES = [
  'researcher',
  'implementer',
  'tester',
  'reviewer',
  'frontend-dev',
  'backend-dev',
  'docs-writer',
  'security-auditor',
  'perf-analyst',
  'db-migrator',
  'api-designer',
  'release-manager',
] as const;
const ADJECTIVES = ['humble', 'moonlit', 'brisk', 'quiet', 'golden', 'rapid', 'patient', 'silver', 'clever', 'gentle', 'bold', 'misty', 'sunny', 'steady', 'eager', 'lucky'];
const VERBS = ['chasing', 'dancing', 'hopping', 'drifting', 'gliding', 'racing', 'digging', 'singing', 'weaving', 'roaming', 'climbing', 'diving'];
const ANIMALS = ['goose', 'meerkat', 'otter', 'falcon', 'badger', 'heron', 'lynx', 'marmot', 'puffin', 'gecko', 'walrus', 'koala', 'ibex', 'raven', 'tapir', 'yak'];

export interface TeamPlan {
  name: string;
  id: string;
  teammates: string[];
  terminated: Set<string>;
}

export function teamName(rng: Rng, used: Set<string>): string {
  for (;;) {
    const n = `${rng.pick(ADJECTIVES)}-${rng.pick(VERBS)}-${rng.pick(ANIMALS)}`;
    if (!used.has(n)) {
      used.add(n);
      return n;
    }
    if (used.size >= ADJECTIVES.length * VERBS.length * ANIMALS.length) return `${n}-${used.size}`;
  }
}

function roleNames(n: number): string[] {
  return Array.from({ length: n }, (_, i) => (i < ROLES.length ? ROLES[i]! : `worker-${i + 1 - ROLES.length}`));
}

export type ColorOf = (member: string) => string | undefined;

/**
 * Team `name` with `members` members, the lead included. The last `shutdowns` teammates (by
 * default one when there are three or more) approve a shutdown at the end of the history.
 */
export function planTeam(name: string, members: number, shutdowns: number | undefined): TeamPlan {
  const teammates = roleNames(members - 1);
  const n = Math.min(shutdowns ?? (teammates.length >= 3 ? 1 : 0), teammates.length - 1);
  return { name, id: teamDirName(name), teammates, terminated: new Set(teammates.slice(teammates.length - Math.max(0, n))) };
}

/** Teammates' colours in roster order; the lead and the user have none. */
export function colorsOf(teammates: string[]): ColorOf {
  return (m) => {
    const i = teammates.indexOf(m);
    return i < 0 ? undefined : COLORS[i % COLORS.length];
  };
}
