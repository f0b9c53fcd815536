// The soak's timeline: the team and its helper processes (the members in one process, a foreign
// locker taking inboxes' locks for short spells), then the stream: random sends to random
// members while engines are started and SIGKILLed at random moments (sometimes right after a
// send, sometimes while still recovering); then the drain: no more foreign locks, one clean
// engine until nothing is queued, the members take what is left.
import { join, relative } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { createTeam } from '../../src/sim/simulator.js';
import { has, HELPERS, until } from '../../test/helpers/engine-proc.js';
import type { SoakMembersOptions } from '../soak-members.js';
import { spin, type Soak } from './actions.js';
import { unreadFromUser } from './inboxes.js';
import { FLAG, PRUNE, TARGETS, TEAM } from './team.js';

/** The drain after the stream (stale locks of killed engines take 10 s) must fit in this. */
export const DRAIN_BUDGET_MS = 120_000;
/** The helpers in bench/ are started like the engine helpers, by a path relative to test/helpers. */
const BENCH = relative(HELPERS, join(import.meta.dirname, '..'));

export interface Played {
  /** The members' log of what each took (TakenLine JSONL). */
  takenLog: string;
  inbox: (member: string) => string;
}

/** Plays the whole timeline; what went wrong on the way is in soak.h.problems. */
export async function runScenario(soak: Soak, seconds: number): Promise<Played> {
  const { t, h, rand, log } = soak;
  await createTeam({ teamsDir: t.root, team: TEAM, members: [...PRUNE, ...FLAG], cwd: t.base });
  const takenLog = join(t.base, 'taken.jsonl');
  soak.warmUp();

  const membersOpts: SoakMembersOptions = {
    teamsDir: t.root,
    team: TEAM,
    prune: PRUNE,
    flag: FLAG,
    lead: 'prune',
    log: takenLog,
    seed: h.seed,
    pollMs: 50,
    workMs: [0, 15],
    replyProbability: 0.25,
  };
  const members = soak.spawn(join(BENCH, 'soak-members.ts'), [JSON.stringify(membersOpts)]);
  const inbox = (m: string) => join(t.root, TEAM, 'inboxes', `${m}.json`);
  const locker = soak.spawn(join(BENCH, 'soak-locker.ts'), [JSON.stringify({ inboxes: TARGETS.map(inbox), seed: h.seed, holdMs: [20, 1500], gapMs: [100, 1500] })]);
  await members.waitFor(has('ready'), 60_000);
  await locker.waitFor(has('ready'), 60_000);

  // 1. The stream, with random kills and restarts, until the time is up.
  const streamEnd = Date.now() + seconds * 1000;
  let nextReport = Date.now() + 15_000;
  while (Date.now() < streamEnd) {
    const current = await soak.startEngine();
    const short = rand() < 0.2; // killed while it may still be recovering
    const lifeEnd = Math.min(streamEnd, Date.now() + (short ? 50 + rand() * 350 : 1000 + rand() * 6000));
    while (Date.now() < lifeEnd) {
      soak.sendOne(current);
      await sleep(Math.floor(rand() * 120));
    }
    if (rand() < 0.5) {
      soak.sendOne(current);
      spin(rand() * 6);
    }
    await soak.killEngine(current);
    if (Date.now() > nextReport) {
      nextReport = Date.now() + 15_000;
      log(`${Math.round((streamEnd - Date.now()) / 1000)} s left: ${h.sends.length} sent, ${h.lives.length} engines killed`);
    }
  }

  // 2. The drain: no more foreign locks, one clean engine until nothing is queued, members take the rest.
  log(`stream stopped after ${h.sends.length} sends and ${h.lives.length} kills; draining`);
  await locker.ask('stop', has('stopped'), 30_000);
  const drainEnd = Date.now() + DRAIN_BUDGET_MS;
  const last = await soak.startEngine();
  let queued = -1;
  while (Date.now() < drainEnd) {
    const r = await last.proc.ask<{ queued: number }>({ cmd: 'queued' }, has('queued'), 30_000);
    queued = r.queued;
    if (queued === 0) break;
    await sleep(100);
  }
  if (queued !== 0) h.problems.push(`the final engine still had ${queued} queued messages after the drain budget`);
  await last.proc.ask({ cmd: 'stop' }, has('stopped'), 30_000);
  await last.proc.exited;
  await until(async () => (await unreadFromUser(inbox)) === 0, Math.max(1_000, drainEnd - Date.now()), 'members taking every delivered message').catch((e: Error) =>
    h.problems.push(e.message),
  );
  await members.ask('stop', has('stopped'), 30_000);
  await members.exited;
  soak.dropSpare();
  return { takenLog, inbox };
}
