import { z } from 'zod';
import { readBounded, UnreadableFileError } from '../files/read-whole.js';

// Unknown fields are kept (looseObject) and ignored: Claude adds fields between versions.
const memberSchema = z.looseObject({
  name: z.string().min(1),
  agentId: z.string().optional(),
  agentType: z.string().optional(),
  model: z.string().optional(),
  color: z.string().optional(),
  cwd: z.string().optional(),
  joinedAt: z.number().optional(),
  tmuxPaneId: z.string().optional(),
  backendType: z.string().optional(),
  isActive: z.boolean().optional(),
});

export const teamConfigSchema = z.looseObject({
  name: z.string().optional(),
  description: z.string().optional(),
  createdAt: z.number().optional(),
  leadAgentId: z.string().optional(),
  leadSessionId: z.string().optional(),
  // Current era (after 2.1.199): the lead's process, rewritten whenever a lead (re)claims the team.
  leadProcess: z
    .looseObject({ pid: z.number().int().positive(), procStart: z.string().optional(), pidSpace: z.string().optional(), claimedAt: z.number().optional() })
    .optional()
    .catch(undefined),
  members: z.array(z.unknown()).optional(),
});

export interface LeadProcess {
  pid: number;
  /** The process's start time as Linux reports it (/proc/<pid>/stat field 22): guards pid reuse. */
  procStart?: string;
  pidSpace?: string;
}

export type ConfigMember = z.infer<typeof memberSchema>;

export interface TeamConfig {
  name?: string;
  description?: string;
  createdAt?: number;
  leadAgentId?: string;
  leadSessionId?: string;
  leadProcess?: LeadProcess;
  members: ConfigMember[];
  /** Members entries that could not be understood (no name, wrong types, duplicates). */
  skippedMembers: string[];
  raw: Record<string, unknown>;
}

export type ConfigRead =
  | { kind: 'missing' }
  | { kind: 'ok'; config: TeamConfig }
  | { kind: 'invalid'; message: string };

/** Parses config.json text. A bad member entry is reported, not fatal: the rest of the team still shows. */
export function parseTeamConfig(text: string): ConfigRead {
  let json: unknown;
  try {
    json = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (e) {
    return { kind: 'invalid', message: `config.json is not valid JSON (${(e as Error).message})` };
  }
  const top = teamConfigSchema.safeParse(json);
  if (!top.success) {
    return { kind: 'invalid', message: `config.json is not a team config: ${top.error.issues[0]?.message ?? 'bad shape'}` };
  }
  const members: ConfigMember[] = [];
  const skipped: string[] = [];
  const seen = new Set<string>();
  (top.data.members ?? []).forEach((m, i) => {
    const r = memberSchema.safeParse(m);
    if (!r.success) {
      skipped.push(`members[${i}]: ${r.error.issues[0]?.path.join('.') || 'entry'} ${r.error.issues[0]?.message ?? 'invalid'}`);
      return;
    }
    if (seen.has(r.data.name)) {
      skipped.push(`members[${i}]: duplicate member name ${JSON.stringify(r.data.name)}`);
      return;
    }
    seen.add(r.data.name);
    members.push(r.data);
  });
  return {
    kind: 'ok',
    config: {
      name: top.data.name,
      description: top.data.description,
      createdAt: top.data.createdAt,
      leadAgentId: top.data.leadAgentId,
      ...(top.data.leadSessionId !== undefined ? { leadSessionId: top.data.leadSessionId } : {}),
      ...(top.data.leadProcess ? { leadProcess: top.data.leadProcess } : {}),
      members,
      skippedMembers: skipped,
      raw: top.data,
    },
  };
}

/** A config.json larger than this is not read (Claude's are a few KB, a big team's some hundred). */
export const MAX_CONFIG_BYTES = 8 * 1024 * 1024;

/** Parse attempts for config.json: Claude rewrites it in place (write, then truncate), so a read can be torn. */
const CONFIG_READ_ATTEMPTS = 4;
const CONFIG_RETRY_MS = 50;

/**
 * Reads config.json. A failed parse is retried a few times ~50 ms apart before it is reported
 * invalid: current Claude rewrites the file in place, and a reader can catch it half written.
 * Never through a symbolic link (it could lead outside Claude's folder), never a FIFO, at most
 * MAX_CONFIG_BYTES.
 */
export async function readTeamConfig(path: string, attempts = CONFIG_READ_ATTEMPTS): Promise<ConfigRead> {
  let last: ConfigRead = { kind: 'missing' };
  for (let i = 0; i < attempts; i++) {
    if (i > 0) await new Promise((r) => setTimeout(r, CONFIG_RETRY_MS));
    let text: string;
    try {
      text = (await readBounded(path, MAX_CONFIG_BYTES)).toString('utf8');
    } catch (e) {
      if (e instanceof UnreadableFileError) return { kind: 'invalid', message: `config.json ${e.message}` };
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') return { kind: 'missing' };
      return { kind: 'invalid', message: `config.json cannot be read (${code ?? (e as Error).message})` };
    }
    last = parseTeamConfig(text);
    if (last.kind !== 'invalid') return last;
  }
  return last;
}
