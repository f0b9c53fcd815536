// Builders for the corpus cases about Claude's files outside the teams root (sessions,
// transcripts, tasks): a current-era team "session-0badf00d" whose lead process is this one,
// beside the teams root in the case's config dir (the teams root's parent, `base`).
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { procStartOf } from '../../src/engine/claude/lifecycle.js';
import type { MemberActivity } from '../../src/shared/types.js';
import { writeTeam } from '../helpers/teams.js';
import type { CaseContext, CaseEnv } from './types.js';

export const LIVE_TEAM = 'session-0badf00d';
export const LIVE_SESSION = '0badf00d-0000-4000-8000-000000000000';
export const SLUG = '-home-dev-project';

/**
 * The team: team-lead and researcher (in-process), its lead this process. With `leadTranscript`
 * the lead's transcript is there too (Claude finds its teammates' transcripts beside it).
 */
export async function liveTeam(env: CaseEnv, opts: { leadTranscript?: boolean } = {}): Promise<void> {
  if (opts.leadTranscript) await writeTranscript(leadTx(env), jsonl([rows.prompt('Start the team.'), rows.end('lead: ok')]));
  await writeTeam(env.root, LIVE_TEAM, {
    config: {
      name: LIVE_TEAM,
      createdAt: 1_796_000_000_000,
      leadAgentId: `team-lead@${LIVE_TEAM}`,
      leadSessionId: LIVE_SESSION,
      leadProcess: { pid: process.pid, procStart: procStartOf(process.pid), claimedAt: 1_796_000_000_000 },
      members: [
        { agentId: `team-lead@${LIVE_TEAM}`, name: 'team-lead', agentType: 'team-lead', joinedAt: 1_796_000_000_000, tmuxPaneId: 'leader', cwd: '/home/dev/project', subscriptions: [], backendType: 'in-process' },
        { agentId: `researcher@${LIVE_TEAM}`, name: 'researcher', agentType: 'general-purpose', joinedAt: 1_796_000_000_500, tmuxPaneId: 'in-process', cwd: '/home/dev/project', subscriptions: [], backendType: 'in-process' },
      ],
    },
    inboxes: { 'team-lead': [] },
  });
}

export const sessionsDir = (env: CaseEnv) => join(env.base, 'sessions');
export const sessionFile = (env: CaseEnv) => join(sessionsDir(env), `${process.pid}.json`);
export const projectDir = (env: CaseEnv) => join(env.base, 'projects', SLUG);
export const subagentsDir = (env: CaseEnv) => join(projectDir(env), LIVE_SESSION, 'subagents');
export const researcherTx = (env: CaseEnv) => join(subagentsDir(env), 'agent-aresearcher-0123456789abcdef.jsonl');
export const leadTx = (env: CaseEnv) => join(projectDir(env), `${LIVE_SESSION}.jsonl`);

/** A sessions file as Claude 2.1.332 writes it, for this process. */
export function session(fields: Record<string, unknown> = {}): Record<string, unknown> {
  return { pid: process.pid, sessionId: LIVE_SESSION, cwd: '/home/dev/project', startedAt: 1_796_000_000_000, version: '2.1.332', kind: 'interactive', status: 'busy', updatedAt: 1_796_000_001_000, statusUpdatedAt: 1_796_000_001_000, ...fields };
}

export async function writeSession(env: CaseEnv, content: string | Uint8Array): Promise<void> {
  await mkdir(sessionsDir(env), { recursive: true });
  await writeFile(sessionFile(env), content);
}

let seq = 0;
/** Transcript rows in Claude's shape. */
export const rows = {
  prompt: (text: string, at = '2026-12-01T10:00:00.000Z') => ({ type: 'user', message: { role: 'user', content: text }, timestamp: at, uuid: `u-${++seq}`, isSidechain: true }),
  call: (id: string, name: string, input: Record<string, unknown>, at = '2026-12-01T10:00:01.000Z') => ({ type: 'assistant', message: { id: `m-${++seq}`, role: 'assistant', content: [{ type: 'tool_use', id, name, input }], stop_reason: 'tool_use' }, timestamp: at, uuid: `u-${seq}` }),
  result: (id: string, text: string, at = '2026-12-01T10:00:02.000Z') => ({ type: 'user', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: text }] }, toolUseResult: {}, timestamp: at, uuid: `u-${++seq}` }),
  end: (text: string, at = '2026-12-01T10:00:03.000Z') => ({ type: 'assistant', message: { id: `m-${++seq}`, role: 'assistant', content: [{ type: 'text', text }], stop_reason: 'end_turn' }, timestamp: at, uuid: `u-${seq}` }),
};

export const jsonl = (list: unknown[]) => list.map((r) => JSON.stringify(r)).join('\n') + '\n';

export async function writeTranscript(path: string, content: string | Uint8Array): Promise<void> {
  await mkdir(join(path, '..'), { recursive: true });
  await writeFile(path, content);
}

/** The activity of one member of the live team. */
export async function activityOf(ctx: CaseContext, member: string): Promise<MemberActivity> {
  const a = (await ctx.svc.activity(LIVE_TEAM)).find((x) => x.member === member);
  if (!a) throw new Error(`no activity for ${member}`);
  return a;
}
