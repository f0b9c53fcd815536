import { readdir, lstat } from 'node:fs/promises';
import { join } from 'node:path';
import type { MemberInfo, TeamMessage, TeamProblem, TeamSummary } from '../../shared/types.js';
import { readTeamConfig, type TeamConfig } from './config.js';
import { readInbox, type ReadOptions } from './inbox-read.js';
import { classifyEra, DEFAULT_SENDER_NAME, isUnaddressable, leadReadsInbox, senderFor } from './era.js';
import { DELETED_TEAM_FOLDER } from './lifecycle.js';
import { inboxFileStem, isSafeSegment, teamPaths } from './paths.js';

export const USER_INBOX = 'user';

async function isDir(p: string): Promise<boolean> {
  try {
    return (await lstat(p)).isDirectory();
  } catch {
    return false;
  }
}
async function exists(p: string): Promise<boolean> {
  try {
    await lstat(p);
    return true;
  } catch {
    return false;
  }
}

/** Team folders under the root: any folder with a config.json or an inboxes/ folder. */
export async function listTeamIds(root: string): Promise<string[]> {
  let names: string[];
  try {
    names = await readdir(root);
  } catch {
    return [];
  }
  // `<dir>.deleted-<uuid>`: Claude is removing that team (its lead exited).
  const candidates = names.sort().filter((n) => isSafeSegment(n) && !n.startsWith('.') && !DELETED_TEAM_FOLDER.test(n));
  // The folders are looked at together (a handful of stats each), listed in name order.
  const isTeam = await Promise.all(
    candidates.map(async (n) => {
      const dir = join(root, n);
      if (!(await isDir(dir))) return false;
      return (await exists(join(dir, 'config.json'))) || (await isDir(join(dir, 'inboxes')));
    }),
  );
  return candidates.filter((_, i) => isTeam[i]);
}

/** Inbox owner names from the file names in inboxes/ (ignoring temp files, locks and non-json). */
export async function listInboxOwners(inboxesDir: string): Promise<string[]> {
  let names: string[];
  try {
    // A symlinked inboxes folder is not followed: its listing is somewhere outside the root.
    if ((await lstat(inboxesDir)).isSymbolicLink()) return [];
    names = await readdir(inboxesDir);
  } catch {
    return [];
  }
  return names
    .filter((n) => n.endsWith('.json') && !n.includes('.tmp.') && n.length > 5)
    .map((n) => n.slice(0, -'.json'.length))
    .sort();
}

export function isLeadMember(m: { name: string; agentId?: string; agentType?: string }, config?: TeamConfig): boolean {
  if (config?.leadAgentId && m.agentId === config.leadAgentId) return true;
  return m.name === 'team-lead' || m.agentType === 'team-lead' || m.agentType === 'coordinator';
}

export interface TeamSnapshot {
  summary: TeamSummary;
  config?: TeamConfig;
  members: MemberInfo[];
  /** Every message in every inbox of the team, oldest first. */
  messages: TeamMessage[];
  /** Raw inbox sizes in bytes by owner, to warn on huge inboxes. */
  inboxSizes: Map<string, number>;
  /** Corrupt inbox bytes by owner, for the caller to preserve. */
  corrupt: Map<string, { reason: string; bytes: Buffer }>;
}

/** Builds the roster: config members first (lead first), then anyone seen only in inbox traffic. */
export function buildMembers<T extends { from: string }>(config: TeamConfig | undefined, inboxOwners: string[], messages: Iterable<T>): MemberInfo[] {
  const members: MemberInfo[] = [];
  const byStem = new Map<string, MemberInfo>();
  for (const m of config?.members ?? []) {
    const info: MemberInfo = {
      name: m.name,
      inboxName: inboxFileStem(m.name),
      agentId: m.agentId,
      agentType: m.agentType,
      model: m.model,
      color: m.color,
      cwd: m.cwd,
      joinedAt: m.joinedAt,
      backendType: m.backendType,
      isLead: isLeadMember(m, config),
      inConfig: true,
    };
    members.push(info);
    byStem.set(info.inboxName, info);
  }
  const addSeen = (name: string) => {
    const stem = inboxFileStem(name);
    // Claude's reserved names are never members: `system` sends its notices (a teammate terminated).
    if (name === USER_INBOX || stem === USER_INBOX || isUnaddressable(name) || byStem.has(stem) || !isSafeSegment(stem)) return;
    const info: MemberInfo = { name, inboxName: stem, isLead: isLeadMember({ name }), inConfig: false };
    members.push(info);
    byStem.set(stem, info);
  };
  for (const o of inboxOwners) addSeen(o);
  for (const m of messages) addSeen(m.from);
  const lead = members.filter((m) => m.isLead);
  return [...lead, ...members.filter((m) => !m.isLead)];
}

export async function readTeam(root: string, teamId: string, readOpts?: ReadOptions): Promise<TeamSnapshot> {
  const paths = teamPaths(root, teamId);
  const problems: TeamProblem[] = [];
  const cfg = await readTeamConfig(paths.config);
  let config: TeamConfig | undefined;
  if (cfg.kind === 'ok') {
    config = cfg.config;
    for (const s of cfg.config.skippedMembers) problems.push({ kind: 'config', file: `${teamId}/config.json`, message: s });
  } else if (cfg.kind === 'invalid') {
    problems.push({ kind: 'config', file: `${teamId}/config.json`, message: cfg.message });
  }
  const owners = await listInboxOwners(paths.inboxes);
  const messages: TeamMessage[] = [];
  const inboxSizes = new Map<string, number>();
  const corrupt = new Map<string, { reason: string; bytes: Buffer }>();
  for (const owner of owners) {
    const file = `${teamId}/inboxes/${owner}.json`;
    const r = await readInbox(join(paths.inboxes, `${owner}.json`), teamId, owner, readOpts);
    if (r.kind === 'ok') {
      messages.push(...r.messages);
      inboxSizes.set(owner, r.size);
      if (r.invalidEntries > 0) {
        problems.push({ kind: 'inbox', file, message: `${r.invalidEntries} entr${r.invalidEntries === 1 ? 'y is' : 'ies are'} not messages and were skipped` });
      }
    } else if (r.kind === 'corrupt') {
      corrupt.set(owner, { reason: r.reason, bytes: r.bytes });
      problems.push({ kind: 'inbox', file, message: `unreadable: ${r.reason}` });
    } else if (r.kind === 'error') {
      problems.push({ kind: 'inbox', file, message: r.reason });
    }
  }
  messages.sort((a, b) => a.time - b.time);
  const members = buildMembers(config, owners, messages);
  const era = classifyEra({ teamId, config, hasUserInbox: owners.includes(USER_INBOX) });
  return {
    summary: {
      id: teamId,
      name: config?.name ?? teamId,
      description: config?.description,
      createdAt: config?.createdAt,
      memberCount: members.length,
      problems,
      era,
      state: 'running',
      sendAs: senderFor(era, DEFAULT_SENDER_NAME),
      leadReadsInbox: leadReadsInbox(era, config, members.find((m) => m.isLead)?.name),
    },
    config,
    members,
    messages,
    inboxSizes,
    corrupt,
  };
}
