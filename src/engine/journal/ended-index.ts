// The ended teams' index: `<state>/ended-teams.json`, one small entry per team that ended (what
// its line in the team list shows), so the engine lists hundreds of ended teams at start by
// reading one file instead of folding every journal. Written atomically and coalesced. A
// missing index is built from the per-team `team.json` files (never from the journals); a
// damaged one is kept in `preserved/` and reported, then built the same way: no team is lost.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { claudeVersionIn } from '../../shared/claude-versions.js';
import type { TeamEra, TeamProblem } from '../../shared/types.js';
import { isSafeSegment } from '../claude/paths.js';
import { forEachConcurrently } from '../files/concurrently.js';
import { writeFileAtomic } from '../files/atomic-write.js';
import { preserveBytes } from '../files/preserve.js';
import { journalDirOf, readTeamMeta } from './team-meta.js';

export const ENDED_INDEX_FILE = 'ended-teams.json';

export interface EndedEntry {
  id: string;
  name: string;
  era: TeamEra;
  memberCount: number;
  createdAt?: number;
  endedAt: number;
  endedReason: string;
  /** Messages in its history, and the newest one's time (ms), when the team was last open. */
  messages?: number;
  lastMessageAt?: number;
  /** Sends neither delivered nor undeliverable when this was written: the team is opened at start to settle them. */
  pending?: number;
  /** The Claude Code version its lead ran, as remembered (team.json). */
  claudeVersion?: string;
}

interface IndexFile {
  v: 1;
  teams: EndedEntry[];
}

const num = (v: unknown) => typeof v === 'number' && Number.isFinite(v);

/** One entry as read from the file, or undefined when it is not one. */
function entryOf(v: unknown): EndedEntry | undefined {
  if (!v || typeof v !== 'object') return undefined;
  const e = v as Record<string, unknown>;
  if (typeof e.id !== 'string' || !isSafeSegment(e.id) || typeof e.name !== 'string') return undefined;
  if (e.era !== 'legacy' && e.era !== 'current') return undefined;
  if (!num(e.memberCount) || !num(e.endedAt) || typeof e.endedReason !== 'string') return undefined;
  const out: EndedEntry = { id: e.id, name: e.name, era: e.era, memberCount: e.memberCount as number, endedAt: e.endedAt as number, endedReason: e.endedReason };
  for (const k of ['createdAt', 'messages', 'lastMessageAt', 'pending'] as const) if (num(e[k])) out[k] = e[k] as number;
  // An index written before versions were kept has none: its entries are read all the same.
  const version = claudeVersionIn(e.claudeVersion);
  if (version !== undefined) out.claudeVersion = version;
  return out;
}

const FIELDS = ['id', 'name', 'era', 'memberCount', 'createdAt', 'endedAt', 'endedReason', 'messages', 'lastMessageAt', 'pending', 'claudeVersion'] as const;

function sameEntry(a: EndedEntry, b: EndedEntry): boolean {
  return FIELDS.every((k) => a[k] === b[k]);
}

/** The entries of an index file's text, or why it is not one. */
export function parseEndedIndex(text: string): { ok: true; entries: EndedEntry[] } | { ok: false; reason: string } {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (e) {
    return { ok: false, reason: `not valid JSON (${(e as Error).message})` };
  }
  const f = v as Partial<IndexFile> | null;
  if (!f || f.v !== 1 || !Array.isArray(f.teams)) return { ok: false, reason: 'not a Teamdeck ended-teams index' };
  const entries: EndedEntry[] = [];
  for (const t of f.teams) {
    const e = entryOf(t);
    if (!e) return { ok: false, reason: 'an entry is not an ended team' };
    entries.push(e);
  }
  return { ok: true, entries };
}

export class EndedIndex {
  readonly entries = new Map<string, EndedEntry>();
  private dirty = false;
  private saving: Promise<void> | undefined;
  /** The file on disk could not be read or kept: it is never written over, the list lives in memory. */
  private frozen = false;

  constructor(
    private readonly stateDir: string,
    private readonly report: (p: TeamProblem) => void,
  ) {}

  get path(): string {
    return join(this.stateDir, ENDED_INDEX_FILE);
  }

  /**
   * Reads the index; without a usable one, builds it from the team.json of each of `journals`
   * (the teams with a journal and no folder) and writes it. Says how it went.
   */
  async load(journals: string[]): Promise<'read' | 'built' | 'rebuilt'> {
    let bytes: Buffer | undefined;
    try {
      bytes = await readFile(this.path);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') {
        this.report({ kind: 'journal', file: ENDED_INDEX_FILE, message: `the ended-teams index cannot be read (${(e as Error).message}); listed from each team's team.json instead` });
        this.frozen = true;
        await this.rebuild(journals, false);
        return 'rebuilt';
      }
    }
    if (!bytes) {
      // The first start with this version (or the file was removed): built once, from team.json files.
      await this.rebuild(journals, true);
      return 'built';
    }
    const parsed = parseEndedIndex(bytes.toString('utf8'));
    if (parsed.ok) {
      for (const e of parsed.entries) this.entries.set(e.id, e);
      return 'read';
    }
    // Bad input is kept, never silently overwritten.
    const kept = await preserveBytes(join(this.stateDir, 'preserved'), ENDED_INDEX_FILE, bytes).catch(() => undefined);
    const p: TeamProblem = {
      kind: 'journal',
      file: ENDED_INDEX_FILE,
      message: `the ended-teams index is damaged (${parsed.reason}); ${kept ? 'a copy is kept and ' : ''}it was rebuilt from each team's team.json`,
    };
    if (kept) p.preservedAt = kept;
    this.report(p);
    // Without a copy kept, the damaged file stays where it is and the list lives in memory.
    this.frozen = kept === undefined;
    await this.rebuild(journals, !this.frozen);
    return 'rebuilt';
  }

  private async rebuild(journals: string[], write: boolean): Promise<void> {
    this.entries.clear();
    await forEachConcurrently(journals, async (id) => {
      const meta = await readTeamMeta(journalDirOf(this.stateDir, id));
      if (!meta || meta.endedAt === undefined) return;
      const e: EndedEntry = {
        id,
        name: meta.name,
        era: meta.era,
        memberCount: meta.members.length,
        endedAt: meta.endedAt,
        endedReason: meta.endedReason ?? 'ended',
      };
      if (meta.createdAt !== undefined) e.createdAt = meta.createdAt;
      if (meta.claudeVersion !== undefined) e.claudeVersion = meta.claudeVersion;
      this.entries.set(id, e);
    });
    if (write) {
      this.dirty = true;
      await this.flush();
    }
  }

  put(e: EndedEntry): void {
    const prev = this.entries.get(e.id);
    // Compared field by field: an entry read back has its fields in another order.
    if (prev && sameEntry(prev, e)) return;
    this.entries.set(e.id, e);
    this.changed();
  }

  delete(id: string): void {
    if (this.entries.delete(id)) this.changed();
  }

  private changed(): void {
    this.dirty = true;
    // Coalesced: the changes of one burst (several teams ending together) are one write.
    this.saving ??= new Promise<void>((r) => setImmediate(r)).then(() => this.write());
  }

  private async write(): Promise<void> {
    try {
      while (this.dirty && !this.frozen) {
        this.dirty = false;
        const teams = [...this.entries.values()].sort((a, b) => a.id.localeCompare(b.id));
        const file: IndexFile = { v: 1, teams };
        await writeFileAtomic(this.path, JSON.stringify(file) + '\n').catch((e: Error) =>
          this.report({ kind: 'journal', file: ENDED_INDEX_FILE, message: `cannot write the ended-teams index: ${e.message}` }),
        );
      }
    } finally {
      this.saving = undefined;
    }
  }

  /** Resolves once every change so far is on disk. */
  async flush(): Promise<void> {
    if (this.saving) await this.saving;
    if (this.dirty && !this.frozen) {
      this.saving = this.write();
      await this.saving;
    }
  }
}
