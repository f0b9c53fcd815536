// What the soak does to Teamdeck, one primitive each: start a helper process, start an engine
// (a warm spare opens the state dir while the next spare warms), SIGKILL one and fold its journal
// as the kill left it, send one random message, and land a kill at a random phase of a delivery.
import { join } from 'node:path';
import { Journal, type FoldedState } from '../../src/engine/journal/journal.js';
import { has, spawnHelper, type Proc } from '../../test/helpers/engine-proc.js';
import type { TempTeams } from '../../test/helpers/team-fixture.js';
import type { Happened, Life } from './record.js';
import { TARGETS, TEAM } from './team.js';

const BACKOFF = { initialMs: 20, maxMs: 500 };
const WORDS = ['check', 'the', 'build', 'again', 'and', 'report', 'what', 'broke', 'in', 'auth.ts', 'naïve', 'déjà', '日本語', 'emoji 🚀', 'tab\there', 'line\nbreak'];

export class Soak {
  private readonly children: Proc[] = [];
  private warm: Proc | undefined;

  constructor(
    readonly h: Happened,
    readonly rand: () => number,
    readonly t: TempTeams,
    readonly log: (s: string) => void,
  ) {}

  /** Starts a helper (a path relative to test/helpers); killAll ends it if it is still running. */
  spawn(helper: string, args: string[] = []): Proc {
    const p = spawnHelper(helper, args);
    this.children.push(p);
    return p;
  }

  killAll(): void {
    for (const c of this.children) if (c.proc.exitCode === null && c.proc.signalCode === null) c.kill('SIGKILL');
  }

  /** Starts the spare engine that the next startEngine opens the state dir with. */
  warmUp(): void {
    this.warm = this.spawn('engine-runner.ts');
  }

  /** Kills the spare left warming when the soak ends. */
  dropSpare(): void {
    this.warm?.kill('SIGKILL');
  }

  /** Journal.open of the team's journal, counted; a journal that does not fold is a problem. */
  async fold(label: string): Promise<FoldedState | undefined> {
    const { folds, problems } = this.h;
    try {
      const r = await Journal.open(join(this.t.stateDir, 'journal', TEAM));
      await r.journal.close();
      folds.ok++;
      if (r.tornBytes > 0) folds.tornTails++;
      return r.state;
    } catch (e) {
      folds.failed++;
      problems.push(`${label}: the journal does not fold: ${(e as Error).message}`);
      return undefined;
    }
  }

  /** The warm spare opens the state dir; a new spare starts warming for the next restart. */
  async startEngine(): Promise<Life> {
    const proc = this.warm ?? this.spawn('engine-runner.ts');
    this.warm = this.spawn('engine-runner.ts');
    const life: Life = { n: this.h.lives.length + 1, proc, openedAt: Date.now() };
    this.h.lives.push(life);
    proc.send({ cmd: 'open', teamsRoot: this.t.root, stateDir: this.t.stateDir, backoff: BACKOFF, watch: true });
    await proc.waitFor(has('ready'), 60_000);
    return life;
  }

  async killEngine(life: Life): Promise<void> {
    life.proc.kill('SIGKILL');
    await life.proc.exited;
    life.killedAt = Date.now();
    const state = await this.fold(`after kill ${life.n}`);
    if (state) {
      const sent = [...state.sent.values()];
      life.fold = { journaled: new Set(sent.map((s) => s.id)), delivered: new Set(sent.filter((s) => s.deliveredAt !== undefined).map((s) => s.id)) };
    }
  }

  sendOne(life: Life): void {
    const rand = this.rand;
    const seq = this.h.sends.length + 1;
    const to = TARGETS[Math.floor(rand() * TARGETS.length)]!;
    const words = Array.from({ length: 1 + Math.floor(rand() * (rand() < 0.05 ? 600 : 20)) }, () => WORDS[Math.floor(rand() * WORDS.length)]);
    // Unique and plain (never a protocol frame): the text names the send, so any copy maps back to it.
    const text = `soak ${seq} to ${to}: ${words.join(' ')}`;
    this.h.sends.push({ seq, to, text });
    life.proc.send({ cmd: 'send', team: TEAM, to, text, tag: String(seq) });
  }
}

/** Busy-waits with sub-millisecond resolution, to land a kill at a random phase of one delivery. */
export function spin(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end) {
    // busy wait
  }
}
