// What the soak does to the team and to Teamdeck, one primitive each: a send (through the
// `teamdeck` command or the engine's socket), an engine SIGKILL with a fold of every journal
// while nothing runs, a kill timed right after an inbox write, a foreign process holding an
// inbox lock, a member's shutdown, and the end of a lead with the provocations around it.
// Sends to one target on one channel (and every terminal send of a team) go one at a time, so
// the order they were made in is the order Teamdeck was asked for.
import { existsSync, readdirSync, statSync, watch } from 'node:fs';
import { join } from 'node:path';
import { Journal } from '../../src/main/core/delivery/journal.js';
import type { EngineSocketClient } from '../../src/main/core/engine-socket/client.js';
import type { Rng } from '../../src/sim/prng.js';
import { frameOf } from '../../test/claude/harness/entries.js';
import { holdInboxLock, type LockHolder } from '../../test/claude/harness/teamdeck-cli.js';
import { delay, waitFor } from '../../test/claude/harness/wait.js';
import { alive, type Deck } from './deck.js';
import { spells } from './models.js';
import type { Channel, EndKind, Happened, KillRecord, LockSpell, Purpose, SendRecord, TeamLife } from './record.js';

const WORDS = ['check', 'the', 'build', 'again', 'and', 'report', 'what', 'broke', 'in', 'auth.ts', 'naïve', 'déjà', '日本語', 'emoji 🚀', 'quotes "x"', '<tag>', 'back\\slash'];
export const LEAD = 'team-lead';

export interface SendSpec {
  team: string;
  to: string;
  channel: Channel;
  via: 'cli' | 'socket';
  purpose: Purpose;
  /** Appended to the text (a directive for the lead's model). */
  extra?: string;
  /** A connection to the engine to send on (else one per send). */
  client?: EngineSocketClient;
  /** Not one after another with the others to its target: its place in their order is Teamdeck's pick. */
  unordered?: boolean;
}

export class Soak {
  private inflight = new Map<string, Promise<void>>();
  private loose = new Set<Promise<void>>();
  private gate: Promise<void> | undefined;
  private openGate: (() => void) | undefined;
  /** Members the soak is doing something delicate with: the stream leaves them alone. */
  readonly reserved = new Set<string>();
  /** Members that shut down (team|member). */
  readonly gone = new Set<string>();
  private holders = new Map<string, LockHolder>();
  private killing: Promise<void> | undefined;
  /** Set while a kill right after a write is being set up: the random kills wait. */
  crashing = false;
  /** The first sign, seen during the run, that the account will fail (for --fail-fast). */
  failedEarly: string | undefined;

  constructor(
    readonly deck: Deck,
    readonly rng: Rng,
    readonly h: Happened,
    readonly log: (s: string) => void,
  ) {}

  // ------------------------------------------------------------------ sends

  static keyOf(team: string, to: string, channel: Channel): string {
    return channel === 'terminal' ? `${team}|terminal` : `${team}|${to}|inbox`;
  }

  busy(team: string, to: string, channel: Channel): boolean {
    return this.inflight.has(Soak.keyOf(team, to, channel));
  }

  inflightCount(): number {
    return this.inflight.size;
  }

  async idle(): Promise<void> {
    while (this.inflight.size || this.loose.size) await Promise.all([...this.inflight.values(), ...this.loose]);
  }

  textFor(seq: number, to: string, extra?: string): string {
    const n = this.rng.int(2, this.rng.chance(0.05) ? 120 : 14);
    const words = Array.from({ length: n }, () => this.rng.pick(WORDS)).join(' ');
    const more = this.rng.chance(0.15) ? `\nand a second line: ${this.rng.pick(WORDS)}` : '';
    return `soak-msg ${seq} for ${to}: ${words}${more}${extra ? ` ${extra}` : ''}`;
  }

  /** Starts a send (waiting for the one before it on the same queue); resolves with its record once answered. */
  send(spec: SendSpec): Promise<SendRecord> {
    const key = Soak.keyOf(spec.team, spec.to, spec.channel);
    const before = this.inflight.get(key);
    const seq = this.h.sends.length + 1;
    const rec: SendRecord = { seq, team: spec.team, to: spec.to, channel: spec.channel, via: spec.via, purpose: spec.purpose, text: this.textFor(seq, spec.to, spec.extra), startedAt: 0 };
    if (spec.unordered) rec.unordered = true;
    this.h.sends.push(rec);
    const run = (async () => {
      if (!spec.unordered) await before;
      await this.gate;
      rec.startedAt = Date.now();
      if (spec.via === 'socket') await this.sendOnSocket(rec, spec.client);
      else await this.sendWithCli(rec);
      rec.endedAt = Date.now();
    })();
    if (spec.unordered) {
      const done = run.finally(() => this.loose.delete(done));
      this.loose.add(done);
      return done.then(() => rec);
    }
    const done = run.finally(() => {
      if (this.inflight.get(key) === done) this.inflight.delete(key);
    });
    this.inflight.set(key, done);
    return done.then(() => rec);
  }

  private async sendWithCli(rec: SendRecord): Promise<void> {
    const r = await this.deck.cli.run(['send', '--team', rec.team, '--to', rec.to, '--via', rec.channel, '--json', '--', rec.text], { timeoutMs: 60_000 });
    rec.code = r.code;
    try {
      const out = r.stdout.trim() ? (JSON.parse(r.stdout) as { id: string; status: SendRecord['status'] }) : undefined;
      if (out) Object.assign(rec, { id: out.id, status: out.status });
    } catch {
      // no answer printed
    }
    const err = r.stderr.trim();
    if (r.code !== 0 || rec.status === 'undeliverable') rec.error = err.replace(/^teamdeck send: /, '') || `exit ${r.code ?? r.signal}`;
  }

  private async sendOnSocket(rec: SendRecord, shared?: EngineSocketClient): Promise<void> {
    try {
      const c = shared ?? (await this.deck.client());
      try {
        const r = await c.send({ team: rec.team, to: rec.to, text: rec.text, channel: rec.channel });
        rec.id = r.id;
        rec.status = r.status as SendRecord['status'];
        if (r.status === 'undeliverable') rec.error = r.reason ?? 'undeliverable';
      } finally {
        if (!shared) await c.stop().catch(() => undefined);
      }
    } catch (e) {
      rec.error = (e as Error).message;
      // Exit codes as `teamdeck send` would give them: 2 refused, 1 anything else.
      rec.code = (e as Error).name === 'SendRefusedError' ? 2 : 1;
    }
  }

  // ------------------------------------------------------------------ the engine

  /**
   * SIGKILL (now, or from `trigger`), then every journal is folded once nothing holds the state
   * dir, then after a short spell without an engine (sends start one-shot engines of their own)
   * a new engine starts. `restart: false` leaves it down.
   */
  async killEngine(why: KillRecord['why'], opts: { restart?: boolean; alreadyKilled?: number } = {}): Promise<KillRecord> {
    while (this.killing) await this.killing;
    let done!: () => void;
    this.killing = new Promise<void>((r) => (done = r));
    try {
      const at = opts.alreadyKilled ?? Date.now();
      await this.deck.killEngine();
      // No new send starts until the journals are folded; the ones under way finish first.
      this.gate = new Promise<void>((r) => (this.openGate = r));
      await this.idleBeforeGate();
      const kill: KillRecord = { n: this.h.kills.length + 1, at, why, pending: [], attempted: [], staleLocks: this.staleLocks() };
      await this.foldAll(kill);
      this.h.kills.push(kill);
      this.openGate?.();
      this.gate = undefined;
      if (opts.restart ?? true) {
        await delay(this.rng.int(0, 1_200));
        await this.deck.startEngine();
      }
      return kill;
    } finally {
      this.killing = undefined;
      done();
    }
  }

  private async idleBeforeGate(): Promise<void> {
    // Sends waiting at the gate have not started: only those past it hold the state dir.
    const deadline = Date.now() + 60_000;
    while (this.h.sends.some((s) => s.startedAt > 0 && s.endedAt === undefined) && Date.now() < deadline) await delay(20);
  }

  /** Folds every team's journal, as a restart would; with `kill`, notes what was still undelivered. */
  async foldAll(kill?: KillRecord): Promise<Map<string, Awaited<ReturnType<typeof Journal.open>>['state']>> {
    const root = join(this.deck.stateDir, 'journal');
    const out = new Map<string, Awaited<ReturnType<typeof Journal.open>>['state']>();
    const teams = existsSync(root) ? readdirSync(root) : [];
    for (const team of teams) {
      try {
        const r = await Journal.open(join(root, team));
        await r.journal.close();
        this.h.folds.ok++;
        if (r.tornBytes > 0) this.h.folds.tornTails++;
        out.set(team, r.state);
        for (const s of r.state.sent.values()) {
          if (s.deliveredAt !== undefined || s.undeliverableAt !== undefined) continue;
          const seq = Number(/^soak-msg (\d+) /.exec(s.text)?.[1]);
          if (!kill || !Number.isFinite(seq)) continue;
          kill.pending.push(seq);
          if (s.attemptedAt !== undefined) kill.attempted.push(seq);
        }
      } catch (e) {
        this.h.folds.failed++;
        this.h.folds.failures.push(`journal/${team}${kill ? ` after kill ${kill.n}` : ''}: ${(e as Error).message}`);
      }
    }
    return out;
  }

  /** Lock folders in the live teams' inboxes that none of the soak's holders made. */
  staleLocks(): string[] {
    const out: string[] = [];
    for (const life of this.h.lives) {
      if (life.end) continue;
      const dir = join(this.deck.teamDir(life.team), 'inboxes');
      for (const f of existsSync(dir) ? readdirSync(dir) : []) {
        if (f.endsWith('.json.lock') && !this.holders.has(join(dir, f.slice(0, -5)))) out.push(`${life.team}/inboxes/${f}`);
      }
    }
    return out;
  }

  /**
   * The window the README names: a message written into a member's inbox, and the engine
   * killed the instant the file is in place, before it can journal the delivery (it dies holding
   * the inbox lock, which goes stale after 10 s). The member is kept busy past that (a spell of
   * work it was asked for), so the message is still in its inbox when the next engine may write
   * again: that engine must find it by its id and not write it a second time.
   */
  async crashAfterWrite(life: TeamLife, member: string): Promise<boolean> {
    const dir = join(this.deck.teamDir(life.team), 'inboxes');
    if (!this.deck.engine()) return false;
    this.log(`asking ${member} to work for 20 s, to crash the engine right after a write to it`);
    await this.send({ team: life.team, to: member, channel: 'inbox', via: 'cli', purpose: 'stream', extra: '[[WORK:20]]' });
    const busy = await waitFor(() => this.busyTeammates(life, 13_000).includes(member), { what: `${member} to start working`, timeoutMs: 8_000, intervalMs: 50 }).catch(() => false);
    while (this.killing) await this.killing;
    const unlocked = await waitFor(() => !existsSync(join(dir, `${member}.json.lock`)), { what: 'its inbox unlocked', timeoutMs: 3_000, intervalMs: 20 }).catch(() => false);
    const engine = this.deck.engine();
    if (!busy || !engine || !unlocked) {
      this.log(`no crash this time: ${member} ${busy ? 'works' : 'is not working'}, ${engine ? 'an' : 'no'} engine runs, its inbox is ${unlocked ? 'free' : 'locked'}`);
      return false;
    }
    const at: { killedAt: number } = { killedAt: 0 };
    const w = watch(dir, (_ev, name) => {
      if (at.killedAt === 0 && name === `${member}.json`) {
        process.kill(engine.pid, 'SIGKILL');
        at.killedAt = Date.now();
      }
    });
    try {
      void this.send({ team: life.team, to: member, channel: 'inbox', via: 'socket', purpose: 'after-write' });
      await waitFor(() => at.killedAt > 0, { what: 'the write to land', timeoutMs: 5_000, intervalMs: 2 }).catch(() => undefined);
    } finally {
      w.close();
    }
    if (at.killedAt === 0) return false;
    const kill = await this.killEngine('after-write', { alreadyKilled: at.killedAt });
    this.log(`engine killed right after a write to ${member}; ${kill.pending.length} undelivered at the kill, stale locks: ${kill.staleLocks.join(', ') || 'none'}`);
    // The member stays reserved until the lock the dead engine left is gone and the message is in.
    const rec = this.h.sends.findLast((x) => x.purpose === 'after-write' && x.team === life.team && x.to === member);
    await waitFor(() => !existsSync(join(dir, `${member}.json.lock`)), { what: 'the stale lock to go', timeoutMs: 20_000, intervalMs: 100 }).catch(() => undefined);
    if (rec) await this.settled(life, member, rec.text, 15_000);
    return true;
  }

  // ------------------------------------------------------------------ foreign locks

  async hold(life: TeamLife, member: string, why: LockSpell['why']): Promise<boolean> {
    const path = this.deck.inbox(life.team, member);
    if (!existsSync(path) || existsSync(`${path}.lock`) || this.holders.has(path)) return false;
    try {
      const holder = await holdInboxLock(path);
      this.holders.set(path, holder);
      this.h.spells.push({ team: life.team, member, from: Date.now(), why });
      return true;
    } catch {
      return false; // the folder went, or someone took the lock first
    }
  }

  async release(life: TeamLife, member: string): Promise<void> {
    const path = this.deck.inbox(life.team, member);
    const holder = this.holders.get(path);
    if (!holder) return;
    this.holders.delete(path);
    await holder.release();
    const spell = this.h.spells.findLast((s) => s.team === life.team && s.member === member && s.to === undefined);
    if (spell) spell.to = Date.now();
  }

  async releaseAll(): Promise<void> {
    for (const life of this.h.lives) for (const m of [LEAD, ...life.teammates]) await this.release(life, m);
  }

  holding(life: TeamLife, member: string): boolean {
    return this.holders.has(this.deck.inbox(life.team, member));
  }

  // ------------------------------------------------------------------ the team

  alive(life: TeamLife): string[] {
    return [LEAD, ...life.teammates].filter((m) => !this.gone.has(`${life.team}|${m}`));
  }

  /** Teammates working in a Bash spell that lasts at least `ms` more. */
  busyTeammates(life: TeamLife, ms: number): string[] {
    const now = Date.now();
    const last = new Map<string, number>();
    for (const r of this.deck.api.log) if (r.headers['x-claude-code-agent-id'] === undefined || String(r.headers['x-claude-code-agent-id']).endsWith(`@${life.team}`)) last.set(r.agent, r.at);
    return spells(this.deck.api.log)
      .filter((s) => s.team === life.team && s.until - now > ms && (last.get(s.agent) ?? 0) <= s.from && life.teammates.includes(s.agent))
      .map((s) => s.agent);
  }

  /** Asks the lead (as the user, in its terminal) to shut `member` down; resolves when it approved. */
  async shutdown(life: TeamLife, member: string): Promise<void> {
    this.reserved.add(member);
    try {
      const sd = { member, requestedAt: Date.now() } as TeamLife['shutdowns'][number];
      life.shutdowns.push(sd);
      await this.send({ team: life.team, to: LEAD, channel: 'terminal', via: 'cli', purpose: 'shutdown', extra: `[[SHUTDOWN:${member}]]` });
      const rel = `teams/${life.team}/inboxes/${LEAD}.json`;
      const approved = await this.deck.observer
        .waitForEntry(rel, (e) => e.from === member && frameOf(e)?.type === 'shutdown_approved', 30_000)
        .catch(() => undefined);
      if (!approved) {
        this.h.notes.push(`${member} of ${life.team} did not approve its shutdown within 30 s`);
        return;
      }
      sd.approvedAt = approved.firstSeen;
      this.gone.add(`${life.team}|${member}`);
      // A message for it held up behind a lock: it must turn undeliverable, not be written later.
      if (await this.hold(life, member, 'after-shutdown')) {
        const rec = await this.send({ team: life.team, to: member, channel: 'inbox', via: 'socket', purpose: 'after-shutdown' });
        await this.settled(life, member, rec.text, 8_000);
        await this.release(life, member);
      }
      this.log(`${member} of ${life.team} shut down`);
    } finally {
      this.reserved.delete(member);
    }
  }

  /** Waits until Teamdeck has delivered or given up on the message with this text. */
  async settled(life: TeamLife, member: string, text: string, timeoutMs: number): Promise<string | undefined> {
    return waitFor(
      async () => {
        const c = await this.deck.client();
        try {
          const m = (await c.thread(life.team, member)).find((x) => x.text === text);
          return m !== undefined && m.status !== 'queued' ? m.status : undefined;
        } finally {
          await c.stop();
        }
      },
      { what: 'the message to be delivered or undeliverable', timeoutMs, intervalMs: 200 },
    ).catch(() => undefined);
  }

  /**
   * Sends on one connection, every 2 ms without waiting for answers, to the members still
   * there, from now until `done` holds, Teamdeck refuses, or `maxMs` pass: messages that reach
   * the engine while the team ends, some after its folder is gone and before Teamdeck noticed.
   */
  private async burst(life: TeamLife, client: EngineSocketClient | undefined, done: () => boolean, maxMs: number): Promise<void> {
    if (!client) return;
    const until = Date.now() + maxMs;
    // Not to a member whose inbox the soak holds: those sends would wait out the lock.
    const to = this.alive(life).filter((m) => !this.holding(life, m));
    const sent: Promise<SendRecord>[] = [];
    let refused = false;
    let open = 0;
    for (let i = 0; !done() && !refused && Date.now() < until && to.length; i++) {
      // The engine's socket runs at most 64 calls at once on one connection.
      if (open >= 48) {
        await delay(2);
        continue;
      }
      open++;
      sent.push(
        this.send({ team: life.team, to: to[i % to.length]!, channel: 'inbox', via: 'socket', purpose: 'after-end', client, unordered: true }).then((r) => {
          open--;
          if (r.code !== undefined) refused = true;
          return r;
        }),
      );
      await delay(2);
    }
    await Promise.all(sent);
  }

  /**
   * Ends the lead. Around it: a message queued behind a held lock for up to two teammates,
   * messages on the engine's socket while the team goes (a burst from the moment of the end),
   * one through the command after; the held locks let go only after Teamdeck shows the team ended.
   */
  async end(life: TeamLife, kind: EndKind, engineDown: boolean): Promise<void> {
    const held: string[] = [];
    for (const m of this.rng.pick([1, 2]) === 2 ? life.teammates : life.teammates.slice(0, 1)) {
      if (!this.alive(life).includes(m) || held.length >= 2) continue;
      if (await this.hold(life, m, 'held')) held.push(m);
    }
    await Promise.all(held.map((m) => this.send({ team: life.team, to: m, channel: 'inbox', via: 'cli', purpose: 'held' })));
    if (engineDown) await this.killEngine('before-end', { restart: false });
    const client = engineDown ? undefined : await this.deck.client().catch(() => undefined);
    const record: NonNullable<TeamLife['end']> = { kind, requested: kind, at: Date.now(), engineDown };
    life.end = record;
    const folder = this.deck.teamDir(life.team);
    // Watched until the end is over: the folder going, and one of its name coming back.
    const w = watch(this.deck.run.teamsDir, (_ev, name) => {
      if (name !== life.team) return;
      if (!existsSync(folder)) record.folderGoneAt ??= Date.now();
      else if (record.folderGoneAt !== undefined) this.checkFolder(life);
    });
    try {
      await this.endNow(life, kind, record, client, folder, held);
    } finally {
      w.close();
    }
    this.log(`${life.team} ended by ${record.kind}${engineDown ? ' while the engine was down' : ''}`);
  }

  private async endNow(life: TeamLife, kind: EndKind, record: NonNullable<TeamLife['end']>, client: EngineSocketClient | undefined, folder: string, held: string[]): Promise<void> {
    const bursts: Promise<void>[] = [];
    const folderGone = () => record.folderGoneAt !== undefined && Date.now() - record.folderGoneAt > 50;
    try {
      // A burst begins a moment before each key or signal that may end the lead, so the engine
      // is busy with sends as the folder goes; one that only brought up Claude's question stops.
      let current = { stop: false };
      const lead = async () => {
        current.stop = true;
        const token = (current = { stop: false });
        bursts.push(this.burst(life, client, () => token.stop || folderGone(), 700));
        await delay(150);
      };
      if (kind === 'exit' && !(await this.typeExit(life, record, lead, () => (current.stop = true)))) record.kind = 'sigterm';
      if (record.kind === 'sigterm') {
        await lead();
        record.at = Date.now();
        process.kill(life.pid, 'SIGTERM');
      }
      if (record.kind === 'sigkill') {
        record.at = Date.now();
        process.kill(life.pid, 'SIGKILL');
        bursts.push(this.burst(life, client, () => false, 30));
      }
      await waitFor(() => !alive(life.pid), { what: `lead ${life.pid} to end`, timeoutMs: 15_000, intervalMs: 5 }).catch(() => {
        this.h.notes.push(`lead ${life.pid} did not end by ${record.kind}; killed`);
        process.kill(life.pid, 'SIGKILL');
        record.kind = 'sigkill';
      });
      record.leadGoneAt = Date.now();
      if (record.kind !== 'sigkill') {
        await waitFor(() => !existsSync(folder), { what: 'the team folder to go', timeoutMs: 5_000, intervalMs: 5 }).catch(() => undefined);
        if (!existsSync(folder)) record.folderGoneAt ??= Date.now();
      }
      await Promise.all(bursts);
    } finally {
      await client?.stop().catch(() => undefined);
    }
    // And one through the command, a moment later: refused, or undeliverable.
    await this.send({ team: life.team, to: this.alive(life).find((m) => m !== LEAD) ?? LEAD, channel: 'inbox', via: 'cli', purpose: 'after-end' });
    if (record.engineDown) await this.deck.startEngine();
    this.checkFolder(life);
    // (A team folder made again looks like a running team: no use waiting long then.)
    const shown = await waitFor(
      async () => {
        const t = (await this.deck.cli.teams().catch(() => [])).find((x) => x.id === life.team);
        return t?.state === 'ended' ? 'ended' : record.folderBackAt !== undefined ? 'back' : undefined;
      },
      { what: `Teamdeck to show ${life.team} ended`, timeoutMs: 20_000, intervalMs: 100 },
    ).catch(() => undefined);
    if (shown === 'ended') record.shownEndedAt = Date.now();
    else this.h.notes.push(`Teamdeck did not show ${life.team} ended${shown === 'back' ? ': its folder is back' : ' within 20 s'}`);
    this.checkFolder(life);
    // Well after Teamdeck marked the end: a write now would go to a team it knows has ended.
    await delay(this.rng.int(1_000, 2_000));
    for (const m of held) await this.release(life, m);
    await this.idle();
    for (const m of held) {
      const rec = this.h.sends.findLast((s) => s.team === life.team && s.to === m && s.purpose === 'held');
      const status = rec ? await this.settled(life, m, rec.text, 15_000) : undefined;
      if (rec && status !== 'undeliverable' && record.shownEndedAt !== undefined) this.failedEarly ??= `soak-msg ${rec.seq} to ${m} was ${status ?? 'still queued'} after Teamdeck showed ${life.team} ended`;
    }
    if (record.folderBackAt !== undefined) this.failedEarly ??= `the folder of ${life.team} was made again after Claude removed it`;
  }

  /** After its end: a folder of the team's name that Claude removed (or another one) is back. */
  checkFolder(life: TeamLife): void {
    const end = life.end;
    if (!end || end.folderBackAt !== undefined) return;
    const st = statSync(this.deck.teamDir(life.team), { throwIfNoEntry: false });
    if (st && (end.kind !== 'sigkill' || st.ino !== life.folderIno)) end.folderBackAt = Date.now();
  }

  /**
   * Types /exit into the lead's terminal once its input box is empty; false when it could not.
   * With a teammate at work Claude asks first ("Background work is running … 1. Exit and stop
   * tasks"): Enter takes the highlighted first answer. `beforeEnter` runs before each Enter,
   * `asked` when Claude asked.
   */
  private async typeExit(life: TeamLife, record: { at: number }, beforeEnter: () => Promise<void>, asked: () => void): Promise<boolean> {
    const { inputBox, inputText } = await import('../../src/main/core/claude/lead-screen.js');
    const screen = () => this.deck.tmuxOut(['capture-pane', '-p', '-t', life.terminal]);
    const box = async () => {
      const b = inputBox(await screen());
      return b === undefined ? undefined : inputText(b);
    };
    const gone = (ms: number) => waitFor(() => !alive(life.pid), { what: 'the lead to take /exit', timeoutMs: ms, intervalMs: 5 }).then(() => true, () => false);
    const empty = await waitFor(async () => (await box()) === '', { what: "the lead's input box to be empty", timeoutMs: 5_000, intervalMs: 50 }).catch(() => false);
    if (!empty) {
      this.h.notes.push(`/exit not typed: the lead's input box held ${JSON.stringify(await box())}`);
      return false;
    }
    this.deck.tmux(['send-keys', '-t', life.terminal, '-l', '/exit']);
    await waitFor(async () => (await box())?.startsWith('/exit'), { what: '/exit in the input box', timeoutMs: 3_000, intervalMs: 25 }).catch(() => undefined);
    await delay(250);
    for (let attempt = 1; attempt <= 3; attempt++) {
      await beforeEnter();
      if (attempt === 1) record.at = Date.now();
      this.deck.tmux(['send-keys', '-t', life.terminal, 'Enter']);
      const next = await waitFor(async () => (!alive(life.pid) ? 'gone' : /Exit and stop tasks/.test(await screen()) ? 'asked' : undefined), {
        what: 'the lead to exit or ask',
        timeoutMs: 1_500,
        intervalMs: 10,
      }).catch(() => undefined);
      if (next === 'gone') return true;
      if (next === 'asked') {
        // Answered once (after the dialog's key guard), then left to finish.
        asked();
        await delay(250);
        await beforeEnter();
        this.deck.tmux(['send-keys', '-t', life.terminal, 'Enter']);
        if (await gone(10_000)) return true;
        continue;
      }
      // Neither the box nor the question: the lead is on its way out (stopping its teammates).
      if (!(await box())?.startsWith('/exit')) return gone(10_000);
    }
    this.h.notes.push(`/exit typed but the lead did not exit; its screen:\n${await screen()}`);
    return !alive(life.pid);
  }
}
