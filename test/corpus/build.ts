// Builders shared by the corpus cases: a normal team "corp" around each case's bad input.
import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect } from 'vitest';
import { message, writeTeam, type TeamSpec } from '../helpers/teams.js';
import type { CaseEnv } from './types.js';

/** A time safely in the past, so sent messages always sort after these. */
export const TS = '2025-06-01T12:00:00.000Z';
export const TS2 = '2025-06-01T12:05:00.000Z';
export { message };

/** A config.json the way Claude writes it: the lead first, then `members` (strings or whole entries). */
export function teamConfig(name: string, members: unknown[] = ['researcher', 'writer'], extra: Record<string, unknown> = {}) {
  return {
    name,
    createdAt: 1_748_779_200_000,
    leadAgentId: `team-lead@${name}`,
    leadSessionId: '00000000-0000-4000-8000-000000000000',
    members: [
      { agentId: `team-lead@${name}`, name: 'team-lead', agentType: 'team-lead', joinedAt: 1_748_779_200_000, tmuxPaneId: 'leader', cwd: '/home/dev/project', subscriptions: [], backendType: 'in-process' },
      ...members.map((m, i) =>
        typeof m === 'string'
          ? { agentId: `${m}@${name}`, name: m, agentType: 'general-purpose', model: 'sonnet', color: 'blue', joinedAt: 1_748_779_200_500 + i, tmuxPaneId: 'in-process', cwd: '/home/dev/project', subscriptions: [], backendType: 'in-process' }
          : m,
      ),
    ],
    ...extra,
  };
}

/** The team every case is built around: team-lead, researcher and writer. */
export function corp(env: CaseEnv, spec: TeamSpec = {}, id = 'corp'): Promise<string> {
  return writeTeam(env.root, id, { config: teamConfig(id), ...spec });
}

export const inboxPath = (env: CaseEnv, team: string, owner: string) => join(env.root, team, 'inboxes', `${owner}.json`);

/** Asserts that the state dir kept a byte-identical copy of a corrupt inbox. */
export async function expectPreserved(env: CaseEnv, team: string, bytes: Uint8Array): Promise<string> {
  const dir = join(env.stateDir, 'preserved', team);
  const want = createHash('sha256').update(bytes).digest('hex');
  const names = await readdir(dir).catch(() => [] as string[]);
  for (const n of names) {
    const got = createHash('sha256').update(await readFile(join(dir, n))).digest('hex');
    if (got === want) return n;
  }
  expect.fail(`no byte-identical copy of the corrupt inbox under preserved/${team} (have: ${names.join(', ') || 'nothing'})`);
}

/** Journal lines of a team, parsed (the state dir's own file, read after the service stopped). */
export async function journalRecords(env: CaseEnv, team: string): Promise<Array<Record<string, unknown>>> {
  const dir = join(env.stateDir, 'journal', team);
  const out: Array<Record<string, unknown>> = [];
  for (const n of (await readdir(dir)).filter((f) => f.endsWith('.jsonl')).sort()) {
    for (const line of (await readFile(join(dir, n), 'utf8')).split('\n')) if (line.trim()) out.push(JSON.parse(line) as Record<string, unknown>);
  }
  return out;
}
