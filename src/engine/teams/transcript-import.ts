// Agent teams Teamdeck never saw run, read from Claude's transcripts (docs/claude-contract.md#record)
// and listed as ended teams with their roster and whole record. Runs in the background after
// the first read, one team at a time: a team is opened like any ended team (so at most a few
// are held at once, the rest closed), its transcripts read to their end by the same poll that
// reads a running team's, and its reading positions kept in its journal folder, so a restart
// reads only what was added since. A team Teamdeck remembers (its journal) is that team, not a
// second one; a running team is left to its own poll.
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { AppEvent } from '../../shared/contract.js';
import type { ImportStatus, MemberInfo } from '../../shared/types.js';
import { inboxFileStem, isSafeSegment } from '../claude/paths.js';
import { readOffsets, TRANSCRIPT_OFFSETS_FILE } from '../claude/transcript-offsets.js';
import { findRecordedTeams, type FoundTeam } from '../claude/transcript-scan.js';
import { journalDirOf, readTeamMeta, writeTeamMeta, type TeamMeta } from '../journal/team-meta.js';
import type { Team } from '../team/team.js';

/** Why a team found only in transcripts is listed as ended. */
export const ENDED_FOUND_IN_TRANSCRIPTS = "found in Claude's transcripts; Teamdeck did not see it end";

/** The lead's name in a session team (docs/claude-contract.md#config). */
const LEAD = 'team-lead';

export interface ImportContext {
  configDir: string;
  stateDir: string;
  emit: (e: AppEvent) => void;
  stopping: () => boolean;
  /** The team is open and running: its own poll reads its transcripts. */
  isRunning: (id: string) => boolean;
  /**
   * Something of that name is under the teams root: a team folder (read as a team, running or
   * not) or something that is not one (a link), which the teams root's rules decide about.
   */
  inTeamsRoot: (id: string) => Promise<boolean>;
  openTeam: (id: string) => Promise<Team | undefined>;
  /** One poll of the team's transcripts (ingest/transcript-receipts.ts pollTeam); how many rows it read. */
  poll: (rt: Team) => Promise<number>;
  /** The team's history grew: its ended index entry follows, and the list is told. */
  noteEnded: (rt: Team) => void;
}

function membersOf(found: FoundTeam): MemberInfo[] {
  const lead: MemberInfo = { name: LEAD, inboxName: LEAD, agentType: LEAD, isLead: true, inConfig: false };
  return [lead, ...found.members.filter((m) => m.name !== LEAD).map((m) => ({ ...m, inboxName: inboxFileStem(m.name), isLead: false, inConfig: false }))];
}

export class TranscriptImport {
  private status: ImportStatus = { running: false, filesDone: 0, filesTotal: 0, bytesDone: 0, bytesTotal: 0, teamsFound: 0, bytesRead: 0, ms: 0 };
  /** When the run in progress started (ms, performance clock). */
  private startedAt = 0;
  private runs: Promise<void> | undefined;
  /** When the last progress event was sent (ms): the window is told at most a few times a second. */
  private toldAt = 0;

  constructor(private readonly ctx: ImportContext) {}

  get current(): ImportStatus {
    return { ...this.status, ms: this.status.running ? Math.round(performance.now() - this.startedAt) : this.status.ms };
  }

  /** Reads every team found in the transcripts; once at a time (a second call waits for the first). */
  run(): Promise<void> {
    this.runs ??= this.runNow().finally(() => (this.runs = undefined));
    return this.runs;
  }

  private tell(force = false): void {
    const now = Date.now();
    if (!force && now - this.toldAt < 250) return;
    this.toldAt = now;
    this.ctx.emit({ type: 'import-status', status: this.current });
  }

  private async runNow(): Promise<void> {
    this.startedAt = performance.now();
    // Running from the first listing on; the totals come once the listing is done.
    this.status = { running: true, filesDone: 0, filesTotal: 0, bytesDone: 0, bytesTotal: 0, teamsFound: 0, bytesRead: 0, ms: 0 };
    try {
      // Found first (listings and sizes only), so the progress line has its total from the start.
      const found: FoundTeam[] = [];
      for await (const t of findRecordedTeams(this.ctx.configDir)) {
        if (this.ctx.stopping()) return;
        if (isSafeSegment(t.teamName)) found.push(t);
      }
      this.status.teamsFound = found.length;
      for (const t of found) {
        this.status.filesTotal += t.files.length;
        for (const f of t.files) this.status.bytesTotal += f.size;
      }
      this.tell(true);
      for (const t of found) {
        if (this.ctx.stopping()) return;
        await this.importOne(t);
        this.status.filesDone += t.files.length;
        for (const f of t.files) this.status.bytesDone += f.size;
        this.tell();
      }
    } finally {
      this.status.ms = Math.round(performance.now() - this.startedAt);
      this.status.running = false;
      this.tell(true);
    }
  }

  private async importOne(found: FoundTeam): Promise<void> {
    const id = found.teamName;
    if (this.ctx.isRunning(id) || (await this.ctx.inTeamsRoot(id))) return;
    const dir = journalDirOf(this.ctx.stateDir, id);
    const meta = await readTeamMeta(dir);
    if (meta && meta.leadSessionId !== undefined && meta.leadSessionId !== found.leadSessionId) return;
    if (meta) {
      // Read to the end already: nothing is opened (a restart reads only what was added since).
      const offsets = await readOffsets(join(dir, TRANSCRIPT_OFFSETS_FILE));
      if (found.files.every((f) => offsets[f.path]?.offset === f.size)) return;
    } else {
      const fresh: TeamMeta = { v: 1, id, name: id, era: 'current', leadSessionId: found.leadSessionId, members: membersOf(found), endedAt: Math.round(found.lastWriteAt), endedReason: ENDED_FOUND_IN_TRANSCRIPTS };
      await mkdir(dir, { recursive: true });
      await writeTeamMeta(dir, fresh);
    }
    const rt = await this.ctx.openTeam(id);
    if (!rt?.transcripts || !rt.ended) return;
    // Each poll takes at most a few MB of each file: read until nothing more comes.
    let more = true;
    while (more && !this.ctx.stopping()) more = (await this.ctx.poll(rt)) > 0;
    // Counted from when the team was opened: opening it asks for a poll of its own, which may
    // have read its transcripts before the loop above began.
    this.status.bytesRead += rt.transcripts.bytesRead();
    this.ctx.noteEnded(rt);
  }
}
