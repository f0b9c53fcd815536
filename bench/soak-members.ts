// The soak's simulated team in one process: two simulations over the same team folder, one
// whose members prune what they read (Claude 2.1.19x) and one whose members flag it read
// (2.1.8x). Every message a member takes is logged with the member's own clock, so the soak
// can tell when a copy was taken relative to an engine kill and restart.
//
// Usage: soak-members.ts '<json {teamsDir, team, prune: string[], flag: string[], lead: "prune"|"flag"|"none", log, seed, pollMs, workMs}>'
// Prints {"ready":true} once every member polls; on the stdin line "stop" stops them all,
// waits for the rounds in progress (their log lines are written), prints {"stopped":n} and exits.
import { appendFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { startSimulation, type Simulation } from '../src/sim/main.js';
import type { MemberEvent } from '../src/sim/simulator.js';
import { inboxFileStem } from '../src/engine/claude/paths.js';

export interface SoakMembersOptions {
  teamsDir: string;
  team: string;
  prune: string[];
  flag: string[];
  /** Which mode the lead polls in, if it runs at all. */
  lead: 'prune' | 'flag' | 'none';
  /** JSONL file of TakenLine. */
  log: string;
  seed: number;
  pollMs: number;
  workMs: [number, number];
  replyProbability: number;
}

/** One message a member took from its inbox. */
export interface TakenLine {
  /** Inbox stem of the member that took it. */
  inbox: string;
  from: string;
  text: string;
  /** Member's Date.now() right after the locked read-and-rewrite that took it. */
  at: number;
}

const opts = JSON.parse(process.argv[2] ?? '{}') as SoakMembersOptions;
let taken = 0;
const onEvent = (e: MemberEvent) => {
  if (e.kind !== 'consumed') return;
  const at = Date.now();
  const inbox = inboxFileStem(e.member);
  // Synchronous, so a line exists before the member can start its next round.
  appendFileSync(opts.log, e.messages.map((m) => JSON.stringify({ inbox, from: m.from, text: m.text, at } satisfies TakenLine) + '\n').join(''));
  taken += e.messages.length;
};

const common = {
  teamsDir: opts.teamsDir,
  team: opts.team,
  seed: opts.seed,
  pollMs: opts.pollMs,
  workMs: opts.workMs,
  replyProbability: opts.replyProbability,
  onEvent,
};
const sims: Simulation[] = [];
sims.push(await startSimulation({ ...common, members: opts.prune, mode: 'prune', lead: opts.lead === 'prune' }));
sims.push(await startSimulation({ ...common, members: opts.flag, mode: 'flag', lead: opts.lead === 'flag' }));
process.stdout.write(JSON.stringify({ ready: true, members: sims.flatMap((s) => s.members.map((m) => ({ name: m, mode: s.mode }))) }) + '\n');

const rl = createInterface({ input: process.stdin });
for await (const line of rl) {
  if (line.trim() === 'stop') break;
}
await Promise.all(sims.map((s) => s.stop()));
process.stdout.write(JSON.stringify({ stopped: taken }) + '\n');
rl.close();
process.exit(0);
