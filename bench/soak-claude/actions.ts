// What the soak does to the team and to Teamdeck, one primitive each: a send (through the
// `teamdeck` command or the engine's socket), an engine SIGKILL with a fold of every journal
// as it left them, a kill timed right after an inbox write, a foreign process holding an
// inbox lock, a member's shutdown (a lead's end is in ending.ts). Sends to one target on one
// channel (and every terminal send of a team) go one at a time, so the order they were made in
// is the order Teamdeck was asked for.
import { cpSync, existsSync, readdirSync, watch } from 'node:fs';
import { join } from 'node:path';
import { errorCode } from '../../src/engine/errors.js';
import { Journal } from '../../src/engine/journal/journal.js';
import type { EngineSocketClient } from '../../src/engine/socket/client.js';
import type { Rng } from '../../src/sim/prng.js';
import { frameOf } from '../../test/claude/harness/entries.js';
import { holdInboxLock, type LockHolder } from '../../test/claude/harness/teamdeck-cli.js';
import { delay, waitFor } from '../../test/claude/harness/wait.js';
import type { Deck } from './deck.js';
import { spells } from './models.js';
import type { Channel, Happened, KillRecord, LockSpell, Purpose, SendRecord, TeamLife } from './record.js';

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
  /** Members the soak is doing something delicate with: the stream leaves them alone. */
  readonly reserved = new Set<string>();
  /** Members that must stay (team|member): a message from a crash right after a write is theirs to read. */
  readonly keepAlive = new Set<string>();
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
    /** Members the models do not message now (models.ts): a write of theirs would set off a crash meant for Teamdeck's. */
    readonly quiet = new Set<string>(),
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
        // The send's outcome is recorded above; a client that fails to hang up changes nothing.
        if (!shared) await c.stop().catch(() => undefined);
      }
    } catch (e) {
      rec.error = (e as Error).message;
      // Exit codes as `teamdeck send` would give them: 2 refused (or invalid there), 1 anything else.
      const code = errorCode(e);
      rec.code = code === 'refused' || code === 'invalid' ? 2 : 1;
    }
  }

  // ------------------------------------------------------------------ the engine

  /**
   * SIGKILL (unless `alreadyKilled` says when it was done), then every journal as the dead
   * engine left it is copied at once (before a send's own engine can open the state dir and
   * recover) and folded; after a short spell without an engine (each send then runs an engine of
   * its own) a new one starts. `restart: false` leaves it down.
   */
  async killEngine(why: KillRecord['why'], opts: { restart?: boolean; alreadyKilled?: number } = {}): Promise<KillRecord> {
    while (this.killing) await this.killing;
    let done!: () => void;
    this.killing = new Promise<void>((r) => (done = r));
    try {
      const at = opts.alreadyKilled ?? Date.now();
      await this.deck.killEngine();
      const kill: KillRecord = { n: this.h.kills.length + 1, at, why, pending: [], attempted: [], staleLocks: this.staleLocks() };
      const copy = join(this.deck.run.run, 'folds', `kill-${kill.n}`);
      const root = join(this.deck.stateDir, 'journal');
      if (existsSync(root)) cpSync(root, copy, { recursive: true });
      await this.foldAll(kill, copy);
      this.h.kills.push(kill);
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

  /**
   * Folds every team's journal (in `root`, default the state dir's: only while no engine runs),
   * as a restart would; with `kill`, notes what was still undelivered.
   */
  async foldAll(kill?: KillRecord, root = join(this.deck.stateDir, 'journal')): Promise<Map<string, Awaited<ReturnType<typeof Journal.open>>['state']>> {
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
   * The window docs/delivery.md#duplicate-window names: a message written into a member's inbox,
   * and the engine killed the instant the file is in place, before it can journal the delivery (it
   * dies holding the inbox lock, which goes stale after 10 s). The member is kept busy past that (a
   * spell of work it was asked for), so the message is still in its inbox when the next engine may
   * write again: that engine must find it by its id and not write it a second time.
   */
  async crashAfterWrite(life: TeamLife, member: string): Promise<boolean> {
    if (!this.deck.engine()) return false;
    this.quiet.add(member);
    try {
      return await this.crashAfterWriteTo(life, member);
    } finally {
      this.quiet.delete(member);
    }
  }

  private async crashAfterWriteTo(life: TeamLife, member: string): Promise<boolean> {
    const dir = join(this.deck.teamDir(life.team), 'inboxes');
    this.log(`asking ${member} to work for 20 s, to crash the engine right after a write to it`);
    await this.send({ team: life.team, to: member, channel: 'inbox', via: 'cli', purpose: 'stream', extra: '[[WORK:20]]' });
    // Each wait that runs out is a "no": this time there is no crash to cause, as logged below.
    const busy = await waitFor(() => this.busyTeammates(life, 13_000).includes(member), { what: `${member} to start working`, timeoutMs: 8_000, intervalMs: 50 }).catch(() => false);
    while (this.killing) await this.killing;
    // (A "no" too, logged below.)
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
      // No write within 5 s: no crash this time (killedAt stays 0, checked below).
      await waitFor(() => at.killedAt > 0, { what: 'the write to land', timeoutMs: 5_000, intervalMs: 2 }).catch(() => undefined);
    } finally {
      w.close();
    }
    if (at.killedAt === 0) return false;
    const kill = await this.killEngine('after-write', { alreadyKilled: at.killedAt });
    const rec = this.h.sends.findLast((x) => x.purpose === 'after-write' && x.team === life.team && x.to === member);
    const hit = rec !== undefined && kill.pending.includes(rec.seq);
    this.log(`engine killed right after a write to ${member}, ${hit ? 'before' : 'after'} it journaled the delivery; stale locks: ${kill.staleLocks.join(', ') || 'none'}`);
    // It must read that message in the end: no shutdown for it in this team.
    if (hit) this.keepAlive.add(`${life.team}|${member}`);
    // The member stays reserved until the lock the dead engine left is gone and the message is in.
    await waitFor(() => !existsSync(join(dir, `${member}.json.lock`)), { what: 'the stale lock to go', timeoutMs: 20_000, intervalMs: 100 }).catch(() => undefined);
    if (rec) await this.settled(life, member, rec.text, 15_000);
    return hit;
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

  /**
   * Asks the lead (as the user, in its terminal) to shut `member` down; resolves when it
   * approved. Once the member's model has the request, and while it thinks it over, its inbox
   * lock is held and a message sent to it: queued, it must turn undeliverable
   * once Teamdeck sees the approval, never be written after.
   */
  async shutdown(life: TeamLife, member: string): Promise<void> {
    this.reserved.add(member);
    const obs = this.deck.observer;
    try {
      const sd = { member, requestedAt: Date.now() } as TeamLife['shutdowns'][number];
      life.shutdowns.push(sd);
      // (A send can fail outright while an engine starts and holds the state dir: ask again.)
      for (let i = 0; i < 3; i++) {
        const asked = await this.send({ team: life.team, to: LEAD, channel: 'terminal', via: 'cli', purpose: 'shutdown', extra: `[[SHUTDOWN:${member}]]` });
        if (asked.id) break;
        await delay(1_000);
      }
      // Its model has the request (Claude is done with the inbox): it answers after a moment.
      const asked = (r: { agent: string; newText: string; headers: Record<string, unknown> }) =>
        r.agent === member && String(r.headers['x-claude-code-agent-id']).endsWith(`@${life.team}`) && r.newText.includes('shutdown_request');
      // Not taken within 30 s: nothing is held for it, and its approval is waited for all the same.
      const taken = await waitFor(() => this.deck.api.log.some(asked), { what: `${member}'s model to get its shutdown request`, timeoutMs: 30_000, intervalMs: 5 }).catch(() => false);
      const held = taken && (await this.hold(life, member, 'after-shutdown'));
      const rec = held ? this.send({ team: life.team, to: member, channel: 'inbox', via: 'socket', purpose: 'after-shutdown' }) : undefined;
      const approved = await obs
        .waitForEntry(`teams/${life.team}/inboxes/${LEAD}.json`, (e) => e.from === member && frameOf(e)?.type === 'shutdown_approved', 30_000)
        // Not within 30 s: noted just below.
        .catch(() => undefined);
      if (approved) {
        sd.approvedAt = approved.firstSeen;
        this.gone.add(`${life.team}|${member}`);
      } else this.h.notes.push(`${member} of ${life.team} did not approve its shutdown within 30 s`);
      if (rec) await this.settled(life, member, (await rec).text, 8_000);
      if (held) await this.release(life, member);
      if (approved) this.log(`${member} of ${life.team} shut down`);
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
      // Neither in time: undefined (still queued), for the caller to judge.
    ).catch(() => undefined);
  }
}
