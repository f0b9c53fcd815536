// Current era (Claude Code 2.1.332): the members' transcripts are the only proof that a message
// reached a model (docs/claude-contract.md#transcripts), and where a member's attempts to answer
// Teamdeck are written. They are append-only JSON lines: each is tailed from its last offset (a
// torn last line waits for its newline; a file that shrank was rewritten and is read again from the
// start).
//   lead:                 <config>/projects/<slug>/<leadSessionId>.jsonl
//   in-process teammate:  <config>/projects/<slug>/<leadSessionId>/subagents/agent-a<name>-<hex>.jsonl
import { readdir, lstat } from 'node:fs/promises';
import { join } from 'node:path';
import { openNoFollow, readBounded } from '../files/read-whole.js';

/** Bytes read from one transcript in one poll, at most; the rest waits for the next poll. */
const MAX_READ_PER_POLL = 8 * 1024 * 1024;
/** A line longer than this is skipped (a pasted file, an image): never anything we look for. */
const MAX_LINE = 4 * 1024 * 1024;

/** Text that entered an agent's context as a prompt (a user row that is not only tool results). */
export interface PromptRow {
  agent: string;
  text: string;
  timestamp: string;
  /** Typed by a person in the lead's terminal (`origin.kind: "human"`, `promptSource: "typed"`). */
  typed?: boolean;
  /**
   * A socket message: the sender's `msg_id` from the row's peer origin
   * (docs/claude-contract.md#transcripts).
   */
  peerMsgId?: string;
}

/** An agent's SendMessage call, read from its transcript (it may have failed: `to:"user"` does). */
export interface SendAttempt {
  /** Stable id for the history: derived from the tool call's id. */
  id: string;
  agent: string;
  to: string;
  text: string;
  timestamp: string;
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

/** The text of an assistant row that ends a turn (`stop_reason: "end_turn"`), if it has text. */
export function turnEndText(row: Record<string, unknown>): { id: string; text: string } | undefined {
  if (row.type !== 'assistant') return undefined;
  const m = row.message as { id?: unknown; stop_reason?: unknown; content?: unknown } | undefined;
  if (m?.stop_reason !== 'end_turn' || !Array.isArray(m.content)) return undefined;
  const text = m.content
    .filter((b): b is { type: 'text'; text: string } => !!b && b.type === 'text' && typeof b.text === 'string')
    .map((b) => b.text)
    .join('\n')
    .trim();
  return text ? { id: typeof m.id === 'string' ? m.id : String(row.uuid ?? ''), text } : undefined;
}

/** One append-only JSON-lines file, read from where the last read stopped. */
export class JsonlTail {
  private offset = 0;
  private partial = Buffer.alloc(0);
  private ino: number | undefined;
  private atEnd = false;
  /** Inside a line longer than MAX_LINE: everything up to its newline is dropped. */
  private skipping = false;
  /** The last read began at the end of the file as the read before it left it. */
  wasLive = false;

  constructor(readonly path: string) {}

  /** Rows appended since the last call; unparsable lines are skipped. */
  async read(): Promise<Record<string, unknown>[]> {
    let st;
    try {
      st = await lstat(this.path);
    } catch {
      return [];
    }
    // Never followed: a link could lead anywhere outside Claude's folder.
    if (!st.isFile()) return [];
    if (this.ino !== undefined && (st.ino !== this.ino || st.size < this.offset)) {
      // Rewritten or truncated: read once more from the start.
      this.offset = 0;
      this.partial = Buffer.alloc(0);
      this.atEnd = false;
      this.skipping = false;
    }
    this.ino = st.ino;
    this.wasLive = this.atEnd;
    if (st.size <= this.offset) {
      this.atEnd = true;
      return [];
    }
    const length = Math.min(st.size - this.offset, MAX_READ_PER_POLL);
    const buf = Buffer.alloc(length);
    let n: number;
    try {
      const fh = await openNoFollow(this.path);
      try {
        if (!(await fh.stat()).isFile()) return [];
        ({ bytesRead: n } = await fh.read(buf, 0, length, this.offset));
      } finally {
        await fh.close();
      }
    } catch {
      return []; // swapped for a link or gone since the lstat
    }
    this.offset += n;
    this.atEnd = this.offset >= st.size;
    let data = this.partial.length ? Buffer.concat([this.partial, buf.subarray(0, n)]) : buf.subarray(0, n);
    const rows: Record<string, unknown>[] = [];
    if (this.skipping) {
      // The rest of a line too long to read: none of it is a row, up to its newline.
      const nl = data.indexOf(0x0a);
      if (nl < 0) return rows;
      data = data.subarray(nl + 1);
      this.skipping = false;
    }
    const lastNl = data.lastIndexOf(0x0a);
    this.partial = Buffer.from(lastNl < 0 ? data : data.subarray(lastNl + 1));
    if (this.partial.length > MAX_LINE) {
      this.partial = Buffer.alloc(0);
      this.skipping = true;
    }
    if (lastNl < 0) return rows;
    for (const line of data.subarray(0, lastNl).toString('utf8').split('\n')) {
      if (line.length === 0 || line.length > MAX_LINE) continue;
      try {
        const v: unknown = JSON.parse(line);
        if (v && typeof v === 'object' && !Array.isArray(v)) rows.push(v as Record<string, unknown>);
      } catch {
        // a line that is not JSON says nothing
      }
    }
    return rows;
  }
}

/**
 * Whether a prompt holds a `<teammate-message teammate_id="<from>" …>` block whose body is
 * exactly `body`: how an inbox message appears in its recipient's context
 * (docs/claude-contract.md#provenance, #transcripts).
 */
export function holdsTeammateBlock(prompt: string, from: string, body: string): boolean {
  const tail = `>\n${body}\n</teammate-message>`;
  for (let at = prompt.indexOf(tail); at >= 0; at = prompt.indexOf(tail, at + 1)) {
    const open = prompt.lastIndexOf('<teammate-message ', at);
    if (open >= 0 && prompt.slice(open, at).startsWith(`<teammate-message teammate_id="${from}"`)) return true;
  }
  return false;
}

/** The text of a user row that is a prompt; undefined for tool results and other rows. */
export function promptText(row: Record<string, unknown>): string | undefined {
  // Typed while a tool ran: Claude hands it to the model inside the running turn, recorded only
  // as a `queued_command` attachment (no user row carries it).
  if (row.type === 'attachment') {
    const a = row.attachment as { type?: unknown; prompt?: unknown } | undefined;
    return a?.type === 'queued_command' && typeof a.prompt === 'string' ? a.prompt : undefined;
  }
  if (row.type !== 'user') return undefined;
  const content = (row.message as { content?: unknown } | undefined)?.content;
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return undefined;
  const texts = content.filter((b): b is { type: 'text'; text: string } => !!b && b.type === 'text' && typeof b.text === 'string').map((b) => b.text);
  return texts.length ? texts.join('\n') : undefined;
}

/** How a prompt row came in: typed in the terminal, or a peer's socket message (with its id). */
export function promptOrigin(row: Record<string, unknown>): { typed?: boolean; peerMsgId?: string } {
  const origin = (row.type === 'attachment' ? (row.attachment as { origin?: unknown } | undefined)?.origin : row.origin) as { kind?: unknown; msg_id?: unknown } | undefined;
  if (origin?.kind === 'human' || row.promptSource === 'typed') return { typed: true };
  if (origin?.kind === 'peer' && typeof origin.msg_id === 'string') return { peerMsgId: origin.msg_id };
  return {};
}

/** SendMessage calls with a text message in an assistant row. */
export function sendAttempts(row: Record<string, unknown>, agent: string): SendAttempt[] {
  if (row.type !== 'assistant') return [];
  const content = (row.message as { content?: unknown } | undefined)?.content;
  if (!Array.isArray(content)) return [];
  const out: SendAttempt[] = [];
  for (const b of content) {
    if (!b || b.type !== 'tool_use' || b.name !== 'SendMessage' || typeof b.id !== 'string') continue;
    const input = b.input as { to?: unknown; message?: unknown } | undefined;
    if (typeof input?.to !== 'string' || typeof input.message !== 'string' || input.message.trim() === '') continue;
    out.push({ id: `tx-${b.id}`, agent, to: input.to, text: input.message, timestamp: typeof row.timestamp === 'string' ? row.timestamp : new Date().toISOString() });
  }
  return out;
}

async function isDir(p: string): Promise<boolean> {
  try {
    return (await lstat(p)).isDirectory();
  } catch {
    return false;
  }
}

const SUBAGENT_FILE = /^agent-a(.+)-[0-9a-f]{16}\.jsonl$/;

/** Rows' parents remembered per transcript, to tie a prompt row written late to its turn's end. */
const MAX_PARENTS = 512;

interface Tail {
  tail: JsonlTail;
  agent: string | undefined;
  prompts: PromptRow[];
  /** uuid → parentUuid of the latest rows (bounded). */
  parents: Map<string, string>;
  /** The latest turn end, until a prompt row of its own turn can no longer come late. */
  lastEnd?: { id: string; text: string; timestamp: string; parent: string | undefined };
}

/** Whether `uuid` is `from` or one of its ancestors, as far as the remembered rows go. */
function descends(parents: Map<string, string>, from: string | undefined, uuid: string): boolean {
  for (let at = from, n = 0; at !== undefined && n < MAX_PARENTS; at = parents.get(at), n++) if (at === uuid) return true;
  return false;
}

/** Tails the transcripts of one current-era team: the lead's and its in-process teammates'. */
export class TranscriptWatch {
  private projectDir: string | undefined;
  private tails = new Map<string, Tail>();
  /** The subagents folder as last listed (inode and mtime). */
  private subagentsSeen = '';

  constructor(
    private readonly configDir: string,
    readonly leadSessionId: string,
    private readonly teamName: string,
  ) {}

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
    const dir = await this.findProjectDir();
    if (!dir) return;
    const lead = join(dir, `${this.leadSessionId}.jsonl`);
    if (!this.tails.has(lead)) this.tails.set(lead, { tail: new JsonlTail(lead), agent: leadName, prompts: [], parents: new Map() });
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
      this.tails.set(path, { tail: new JsonlTail(path), agent: await this.subagentName(path, m[1]!), prompts: [], parents: new Map() });
    }
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
          t.parents.set(uuid, parent);
          if (t.parents.size > MAX_PARENTS) t.parents.delete(t.parents.keys().next().value!);
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
          const late = t.lastEnd && uuid && descends(t.parents, t.lastEnd.parent, uuid) ? t.lastEnd : undefined;
          if (late) {
            if (mayAnswer(p)) found.turnAnswers.push({ id: `tx-${late.id}`, agent, to: '', text: late.text, timestamp: late.timestamp, prompts: [p.text], promptRows: [p] });
          } else t.prompts.push(p);
        }
        found.sends.push(...sendAttempts(row, agent));
        const end = turnEndText(row);
        if (!end) continue;
        // Messages found in one poll form one turn; its last text answers them
        // (docs/claude-contract.md#inbox-reads).
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
