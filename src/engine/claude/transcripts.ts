// Current era (Claude Code 2.1.332): the members' transcripts are the only proof that a message
// reached a model (docs/claude-contract.md#transcripts), and where a member's attempts to answer Teamdeck are written. They are
// append-only JSON lines: each is tailed from its last offset (a torn last line waits for its
// newline; a file that shrank was rewritten and is read again from the start). This module
// watches one team's transcripts; files/jsonl-tail.ts tails a file, transcript-rows.ts reads rows.
//   lead:                 <config>/projects/<slug>/<leadSessionId>.jsonl
//   in-process teammate:  <config>/projects/<slug>/<leadSessionId>/subagents/agent-a<name>-<hex>.jsonl
import { readdir, lstat } from 'node:fs/promises';
import { join } from 'node:path';
import { JsonlTail } from '../files/jsonl-tail.js';
import { readBounded } from '../files/read-whole.js';
import { paneTranscripts } from './pane-transcripts.js';
import { readOffsets, writeOffsets, type Offsets } from './transcript-offsets.js';
import { promptOrigin, promptText, sendAttempts, turnEndText, type SendAttempt } from './transcript-rows.js';

// What callers of the watcher read rows with, where they have always found it.
export { JsonlTail } from '../files/jsonl-tail.js';
export { holdsTeammateBlock, promptOrigin, promptText, sendAttempts, turnEndText, type SendAttempt } from './transcript-rows.js';

/** Text that entered an agent's context as a prompt (a user row that is not only tool results). */
export interface PromptRow {
  agent: string;
  text: string;
  timestamp: string;
  /** Typed by a person in the lead's terminal (`origin.kind: "human"`, `promptSource: "typed"`). */
  typed?: boolean;
  /** A socket message: the sender's `msg_id` from the row's peer origin (docs/claude-contract.md#transcripts). */
  peerMsgId?: string;
}

export interface TranscriptFindings {
  prompts: PromptRow[];
  sends: SendAttempt[];
  /**
   * Turns that answered Teamdeck: the final text of each turn (lead or teammate) whose prompts
   * held a message from one of the given senders, with those prompts, so that each answer is
   * tied to exactly the messages its turn had in context.
   */
  turnAnswers: TurnAnswer[];
  /** The latest row time (ms) per agent: what it last did, for presence. */
  activity: Map<string, number>;
  /**
   * Every row read, per transcript. `live`: the read began where the file had ended at the
   * previous read, so these rows are news; otherwise they are history being caught up on.
   */
  rows: Array<{ agent: string; rows: Record<string, unknown>[]; live: boolean }>;
}

export interface TurnAnswer extends SendAttempt {
  /** The prompts of the turn that this text ended. */
  prompts: string[];
  /** The same prompts with how each came in (typed, a peer's socket message). */
  promptRows: PromptRow[];
}

async function isDir(p: string): Promise<boolean> {
  try {
    return (await lstat(p)).isDirectory();
  } catch {
    return false;
  }
}

const SUBAGENT_FILE = /^agent-a(.+)-[0-9a-f]{16}\.jsonl$/;

/** How often a team's project folder is looked at for new pane teammates' sessions (ms). */
const PANES_EVERY_MS = 500;

/** Rows' parents remembered per transcript, to tie a prompt row written late to its turn's end. */
const MAX_PARENTS = 512;

interface Tail {
  tail: JsonlTail;
  agent: string | undefined;
  prompts: PromptRow[];
  /** uuid → parentUuid of the latest rows (bounded). */
  parents: Map<string, string>;
  /** How many of the remembered rows name each uuid as their parent: only those can be an ancestor. */
  named: Map<string, number>;
  /** The latest turn end, until a prompt row of its own turn can no longer come late. */
  lastEnd?: { id: string; text: string; timestamp: string; parent: string | undefined };
}

/** Remembers a row's parent (the latest MAX_PARENTS rows). */
function rememberParent(t: Tail, uuid: string, parent: string): void {
  const before = t.parents.get(uuid);
  if (before !== undefined) unname(t, before);
  t.parents.set(uuid, parent);
  t.named.set(parent, (t.named.get(parent) ?? 0) + 1);
  if (t.parents.size > MAX_PARENTS) {
    const [oldest, itsParent] = t.parents.entries().next().value!;
    t.parents.delete(oldest);
    unname(t, itsParent);
  }
}

function unname(t: Tail, parent: string): void {
  const n = t.named.get(parent) ?? 0;
  if (n <= 1) t.named.delete(parent);
  else t.named.set(parent, n - 1);
}

/** Whether `uuid` is `from` or one of its ancestors, as far as the remembered rows go. */
function descends(t: Tail, from: string | undefined, uuid: string): boolean {
  // Past `from`, the walk visits only parents the remembered rows name: a uuid none names (a
  // prompt row written in its place, the usual case) is not looked for along 512 rows.
  if (uuid !== from && !t.named.has(uuid)) return false;
  const parents = t.parents;
  for (let at = from, n = 0; at !== undefined && n < MAX_PARENTS; at = parents.get(at), n++) if (at === uuid) return true;
  return false;
}

/** Tails the transcripts of one team whose config names its lead's session (either era): the lead's and its in-process teammates'. */
export class TranscriptWatch {
  private projectDir: string | undefined;
  private tails = new Map<string, Tail>();
  /** The subagents folder as last listed (inode and mtime). */
  private subagentsSeen = '';
  /** The project folder as last listed for pane teammates' sessions (inode and mtime). */
  private projectSeen = '';
  /** When it was last looked at (ms). */
  private panesLookedAt = 0;

  /** Where each transcript was read to, as kept in `offsetsFile` (loaded at the first look). */
  private offsets: Offsets | undefined;

  /**
   * `offsetsFile`: where the reading positions are kept across runs (an ended team's: what was
   * read is in its journal, so a restart reads only the bytes added since).
   */
  constructor(
    private readonly configDir: string,
    readonly leadSessionId: string,
    private readonly teamName: string,
    private readonly offsetsFile?: string,
  ) {}

  private newTail(path: string): JsonlTail {
    const tail = new JsonlTail(path);
    const at = this.offsets?.[path];
    if (at) tail.resume(at);
    return tail;
  }

  /** Keeps where each transcript was read to (after what was read from it is in the journal). */
  async saveOffsets(): Promise<void> {
    if (!this.offsetsFile) return;
    const out: Offsets = {};
    for (const [path, t] of this.tails) {
      const p = t.tail.position();
      if (p.ino !== undefined && p.offset > 0) out[path] = { offset: p.offset, ino: p.ino };
    }
    await writeOffsets(this.offsetsFile, out);
  }

  /** Bytes the reads of this team's transcripts took so far. */
  bytesRead(): number {
    let n = 0;
    for (const t of this.tails.values()) n += t.tail.bytesRead;
    return n;
  }

  /** Looks for transcripts (new teammates' too) and names each agent's file. */
  async find(leadName: string): Promise<Map<string, string>> {
    await this.discover(leadName);
    for (const [path, t] of this.tails) {
      if (t.agent === undefined) t.agent = await this.subagentName(path, SUBAGENT_FILE.exec(path.split('/').pop() ?? '')?.[1] ?? '');
    }
    return this.files();
  }

  /** The transcript file of each agent found so far (the lead's and its in-process teammates'). */
  files(): Map<string, string> {
    const out = new Map<string, string>();
    for (const [path, t] of this.tails) if (t.agent !== undefined && !out.has(t.agent)) out.set(t.agent, path);
    return out;
  }

  /** The folders new rows appear in, once found: the project folder and the subagents folder. */
  folders(): string[] {
    if (!this.projectDir) return [];
    return [this.projectDir, join(this.projectDir, this.leadSessionId, 'subagents')];
  }

  /** Whether the lead's transcript was found (its folder can be watched from then on). */
  get located(): boolean {
    return this.projectDir !== undefined;
  }

  /** The lead's transcript file (`<leadSessionId>.jsonl`), or undefined while it is not found. */
  async leadTranscript(): Promise<string | undefined> {
    const dir = await this.findProjectDir();
    return dir ? join(dir, `${this.leadSessionId}.jsonl`) : undefined;
  }

  /** Looks for the lead's transcript once more; true when it is found now. */
  async locate(): Promise<boolean> {
    return (await this.findProjectDir()) !== undefined;
  }

  /** The project folder holding `<leadSessionId>.jsonl`, found once. */
  private async findProjectDir(): Promise<string | undefined> {
    if (this.projectDir) return this.projectDir;
    const projects = join(this.configDir, 'projects');
    let slugs: string[];
    try {
      if (!(await isDir(projects))) return undefined;
      slugs = await readdir(projects);
    } catch {
      return undefined;
    }
    for (const slug of slugs) {
      const dir = join(projects, slug);
      try {
        const st = await lstat(join(dir, `${this.leadSessionId}.jsonl`));
        if (st.isFile() && (await isDir(dir))) return (this.projectDir = dir);
      } catch {
        // not this project
      }
    }
    return undefined;
  }

  private async discover(leadName: string): Promise<void> {
    if (this.offsetsFile && !this.offsets) this.offsets = await readOffsets(this.offsetsFile);
    const dir = await this.findProjectDir();
    if (!dir) return;
    const lead = join(dir, `${this.leadSessionId}.jsonl`);
    if (!this.tails.has(lead)) this.tails.set(lead, this.newEntry(lead, leadName));
    await this.discoverSubagents(dir);
    await this.discoverPanes(dir);
  }

  private newEntry(path: string, agent: string | undefined): Tail {
    return { tail: this.newTail(path), agent, prompts: [], parents: new Map(), named: new Map() };
  }

  /** In-process teammates: `<leadSessionId>/subagents/agent-a<name>-<hex>.jsonl`. */
  private async discoverSubagents(dir: string): Promise<void> {
    const sub = join(dir, this.leadSessionId, 'subagents');
    let names: string[];
    try {
      // Neither folder is followed if it is a link: the session's folder above subagents too.
      if (!(await isDir(join(dir, this.leadSessionId)))) return;
      const st = await lstat(sub);
      if (!st.isDirectory()) return;
      // A folder that gained no entry since the last listing has no new transcript. A listing
      // made right after a change is not trusted (mtimes are coarse): it is made again.
      const sig = `${st.ino}:${st.mtimeMs}`;
      if (sig === this.subagentsSeen) return;
      names = await readdir(sub);
      this.subagentsSeen = Date.now() - st.mtimeMs > 1_000 ? sig : '';
    } catch {
      return;
    }
    for (const n of names) {
      const m = SUBAGENT_FILE.exec(n);
      const path = join(sub, n);
      if (!m || this.tails.has(path)) continue;
      this.tails.set(path, this.newEntry(path, await this.subagentName(path, m[1]!)));
    }
  }

  /** Pane teammates: sessions of their own beside the lead's (pane-transcripts.ts), listed again only when the folder changed. */
  private async discoverPanes(dir: string): Promise<void> {
    // Looked at again at most every PANES_EVERY_MS once a listing was trusted: a poll per
    // appended row would otherwise pay a stat of the folder each time.
    const now = Date.now();
    if (this.projectSeen !== '' && now - this.panesLookedAt < PANES_EVERY_MS) return;
    this.panesLookedAt = now;
    let sig: string;
    let mtimeMs: number;
    try {
      const st = await lstat(dir);
      mtimeMs = st.mtimeMs;
      sig = `${st.ino}:${mtimeMs}`;
    } catch {
      return;
    }
    if (sig === this.projectSeen) return;
    const { found, undecided } = await paneTranscripts(dir, this.teamName, (path) => this.tails.has(path));
    for (const f of found) this.tails.set(f.path, this.newEntry(f.path, f.agent));
    // Trusted only when no file was left to decide and the listing was not made right after a change.
    this.projectSeen = undecided || Date.now() - mtimeMs <= 1_000 ? '' : sig;
  }

  /** The teammate a subagent transcript belongs to: its `.meta.json` name, for this team only. */
  private async subagentName(path: string, fromFileName: string): Promise<string | undefined> {
    try {
      // Opened once, never through a link and never blocking on a FIFO, and checked on what was
      // opened: a link swapped in between a check and a read would otherwise be followed.
      const meta = JSON.parse((await readBounded(path.replace(/\.jsonl$/, '.meta.json'), 1_000_000)).toString('utf8')) as { name?: unknown; teamName?: unknown };
      if (typeof meta.teamName === 'string' && meta.teamName !== this.teamName) return undefined;
      return typeof meta.name === 'string' ? meta.name : fromFileName;
    } catch {
      return fromFileName;
    }
  }

  /**
   * What every transcript of the team gained since the last poll. `ours` are the sender names
   * Teamdeck writes as: a turn whose prompts held a message from one of them yields an answer.
   * One poll at a time: two at once would read the same bytes from the same offsets and split
   * a turn's rows between them (the engine's first poll at start and a watcher's poll met so,
   * and a lead's answer was never found).
   */
  poll(leadName: string, ours: ReadonlySet<string> = new Set()): Promise<TranscriptFindings> {
    const next = this.polling.then(() => this.pollNow(leadName, ours));
    // Its caller gets this poll's failure from `next`; the chain only orders the polls.
    this.polling = next.catch(() => undefined);
    return next;
  }

  private polling: Promise<unknown> = Promise.resolve();

  private async pollNow(leadName: string, ours: ReadonlySet<string>): Promise<TranscriptFindings> {
    await this.discover(leadName);
    const found: TranscriptFindings = { prompts: [], sends: [], turnAnswers: [], activity: new Map(), rows: [] };
    const tails = [...this.tails.entries()];
    for (const [path, t] of tails) {
      // A subagent whose meta named no member of this team: look again later.
      if (t.agent === undefined) t.agent = await this.subagentName(path, SUBAGENT_FILE.exec(path.split('/').pop() ?? '')?.[1] ?? '');
    }
    // Every file is looked at together (a stat each, a read where one grew); rows are taken in order.
    const read = await Promise.all(tails.map(([, t]) => (t.agent === undefined ? [] : t.tail.read())));
    for (const [i, [, t]] of tails.entries()) {
      if (t.agent === undefined) continue;
      const agent = t.agent;
      const rows = read[i]!;
      if (rows.length) found.rows.push({ agent, rows, live: t.tail.wasLive });
      for (const row of rows) {
        const timestamp = typeof row.timestamp === 'string' ? row.timestamp : new Date().toISOString();
        const time = typeof row.timestamp === 'string' ? Date.parse(row.timestamp) : NaN;
        if (Number.isFinite(time) && time > (found.activity.get(agent) ?? 0)) found.activity.set(agent, time);
        const uuid = typeof row.uuid === 'string' ? row.uuid : undefined;
        const parent = typeof row.parentUuid === 'string' ? row.parentUuid : undefined;
        if (uuid && parent) {
          rememberParent(t, uuid, parent);
        }
        // A turn that may answer Teamdeck: a message from one of its names, a typed turn (the
        // terminal channel), a socket message. Which sends it answers is decided by the caller.
        const mayAnswer = (p: PromptRow) => p.typed || p.peerMsgId !== undefined || [...ours].some((name) => p.text.includes(`<teammate-message teammate_id="${name}"`));
        const text = promptText(row);
        if (text !== undefined) {
          const p: PromptRow = { agent, text, timestamp, ...promptOrigin(row) };
          found.prompts.push(p);
          // A typed prompt's row can reach the file after its turn's answer (Claude writes the
          // reply as it streams): the answer's parents lead back to it, so it is that turn's.
          const late = t.lastEnd && uuid && descends(t, t.lastEnd.parent, uuid) ? t.lastEnd : undefined;
          if (late) {
            if (mayAnswer(p)) found.turnAnswers.push({ id: `tx-${late.id}`, agent, to: '', text: late.text, timestamp: late.timestamp, prompts: [p.text], promptRows: [p] });
          } else t.prompts.push(p);
        }
        found.sends.push(...sendAttempts(row, agent));
        const end = turnEndText(row);
        if (!end) continue;
        // A later block of the reply that ended the turn (Claude writes a row per content block,
        // each with the reply's id and `end_turn`): the same answer, longer. Within one poll; a
        // reply split across two polls keeps the blocks the first one read.
        if (t.lastEnd?.id === end.id && t.prompts.length === 0) {
          t.lastEnd.text += `\n${end.text}`;
          const a = found.turnAnswers.find((x) => x.agent === agent && x.id === `tx-${end.id}`);
          if (a) a.text += `\n${end.text}`;
          continue;
        }
        // Messages found in one poll form one turn; its last text answers them (docs/claude-contract.md#inbox-reads).
        if (t.prompts.some(mayAnswer)) {
          found.turnAnswers.push({ id: `tx-${end.id}`, agent, to: '', text: end.text, timestamp, prompts: t.prompts.map((p) => p.text), promptRows: t.prompts });
        }
        t.prompts = [];
        t.lastEnd = { id: end.id, text: end.text, timestamp, parent };
      }
    }
    return found;
  }
}
