// The soak's timeline. Team after team: `teamdeck launch` brings up a lead with three
// teammates; while it lives, a steady random stream of sends (inbox and terminal, through the
// command), engine SIGKILLs at random moments (some mid-send, some right after an inbox write),
// foreign processes holding inbox locks for short spells, and in some lives a teammate's
// shutdown; then the lead ends (/exit, SIGTERM or SIGKILL, sometimes while the engine is down),
// with sends landing right after. At the end a drain: one engine until nothing is queued,
// every delivered message read, every answer shown; then Teamdeck's own view is collected.
import { existsSync, statSync } from 'node:fs';
import type { ThreadMessage } from '../../src/shared/types.js';
import type { FoldedState } from '../../src/engine/journal/journal.js';
import { LEAD_TOKEN } from '../../test/claude/harness/api-standin.js';
import type { CliTeam } from '../../test/claude/harness/teamdeck-cli.js';
import { delay, waitFor } from '../../test/claude/harness/wait.js';
import { LEAD, Soak } from './actions.js';
import { checkFolder, endLead } from './ending.js';
import { arrivals, givenAnswers, MEMBER_LABEL, memberSends, modelsBusy, toolResults } from './models.js';
import type { Channel, EndKind, TeamLife } from './record.js';

export interface ScenarioOptions {
  seconds: number;
  teammates: string[];
  ends: EndKind[];
  /** End the last team too (short runs that must see an end). */
  endLast: boolean;
  /** One team for the whole stream (short runs that must see a crash right after a write). */
  oneTeam: boolean;
  /** How long each team lives (ms); random by default. */
  lifeMs?: number;
  /** Stop the stream at the first end that shows a failure (a folder made again, a held message written). */
  failFast: boolean;
}

/** Teamdeck's view at the end, read from its engine. */
export interface Views {
  teams: CliTeam[];
  /** `team|member` -> the thread, sent messages and answers. */
  threads: Map<string, ThreadMessage[]>;
  /** `team` -> its feed (every message of the team, as the window shows it). */
  feeds: Map<string, ThreadMessage[]>;
  /** Every team's journal, folded after the last engine stopped. */
  journals: Map<string, FoldedState>;
}

/** Waits `ms`, or less once `stop` holds. */
async function pause(ms: number, stop: () => boolean): Promise<void> {
  const end = Date.now() + ms;
  while (!stop() && Date.now() < end) await delay(Math.min(100, end - Date.now()));
}

async function launch(soak: Soak, teammates: string[]): Promise<TeamLife> {
  await soak.deck.startEngine();
  const prompt = `${LEAD_TOKEN} Start the team. ${teammates.map((n) => `[[SPAWN:${n}]]`).join(' ')}`;
  const l = await soak.deck.launch(prompt, teammates);
  const life: TeamLife = { team: l.team, pid: l.pid, terminal: l.terminal.id, launchedAt: l.launchedAt, teammates, shutdowns: [] };
  const ino = statSync(soak.deck.teamDir(l.team), { throwIfNoEntry: false })?.ino;
  if (ino !== undefined) life.folderIno = ino;
  soak.h.lives.push(life);
  soak.log(`launched ${life.team} (lead pid ${life.pid})`);
  return life;
}

async function streamLoop(soak: Soak, life: TeamLife, stop: () => boolean): Promise<void> {
  const { rng, deck } = soak;
  let toGoneSent = false;
  while (!stop()) {
    await pause(rng.int(200, 800), stop);
    if (stop()) break;
    const gone = life.teammates.find((m) => soak.gone.has(`${life.team}|${m}`));
    if (gone && !toGoneSent && !soak.reserved.has(gone)) {
      toGoneSent = true;
      void soak.send({ team: life.team, to: gone, channel: rng.chance(0.5) ? 'terminal' : 'inbox', via: 'cli', purpose: 'to-gone' });
      continue;
    }
    if (soak.inflightCount() >= 3) continue;
    const targets = soak.alive(life).filter((m) => !soak.reserved.has(m));
    if (targets.length === 0) continue;
    const to = rng.pick(targets);
    let channel: Channel = rng.chance(0.4) ? 'terminal' : 'inbox';
    // `@name` typed into the lead makes Claude write that inbox, and Claude gives up on a lock
    // after about 0.65 s (the text then stays in the lead's box): not while someone holds it.
    if (channel === 'terminal' && to !== LEAD && (existsSync(`${deck.inbox(life.team, to)}.lock`) || soak.holding(life, to))) channel = 'inbox';
    if (soak.busy(life.team, to, channel)) continue;
    void soak.send({ team: life.team, to, channel, via: 'cli', purpose: 'stream' });
  }
}

async function killLoop(soak: Soak, stop: () => boolean): Promise<void> {
  const { rng } = soak;
  while (!stop()) {
    await pause(rng.int(4_000, 11_000), stop);
    if (stop()) break;
    if (soak.crashing) continue;
    let why: 'random' | 'mid-send' = 'random';
    if (rng.chance(0.35)) {
      // None under way within 3 s: the crash comes anyway, between sends.
      await waitFor(() => soak.inflightCount() > 0 || stop(), { what: 'a send under way', timeoutMs: 3_000, intervalMs: 5 }).catch(() => undefined);
      await delay(rng.int(0, 250));
      why = 'mid-send';
    }
    await soak.killEngine(why);
  }
}

async function lockLoop(soak: Soak, life: TeamLife, stop: () => boolean): Promise<void> {
  const { rng } = soak;
  while (!stop()) {
    await pause(rng.int(400, 2_000), stop);
    if (stop()) break;
    const m = rng.pick(soak.alive(life));
    // Short spells: Claude's own writers wait up to ~0.65 s for a lock. Longer ones only on the
    // lead's inbox, where Claude writes idle notifications alone (Teamdeck reads answers elsewhere).
    if (soak.reserved.has(m) || (m !== LEAD && soak.busy(life.team, m, 'terminal'))) continue;
    const long = m === LEAD && rng.chance(0.4);
    if (!(await soak.hold(life, m, 'spell'))) continue;
    await delay(long ? rng.int(800, 2_500) : rng.int(50, 500));
    await soak.release(life, m);
  }
}

async function crashLoop(soak: Soak, life: TeamLife, until: number, stop: () => boolean): Promise<void> {
  const lifeMs = until - Date.now();
  // Needs a member busy for 20 s: once per life long enough, more often in long lives.
  const max = lifeMs < 19_000 ? 0 : Math.max(1, Math.floor(lifeMs / 40_000));
  let done = 0;
  let notBefore = Date.now() + 1_500;
  while (!stop() && done < max) {
    await pause(200, stop);
    if (stop() || Date.now() < notBefore || Date.now() > until - 14_000) continue;
    const m = soak.rng.pick(life.teammates);
    if (soak.reserved.has(m) || !soak.alive(life).includes(m)) continue;
    soak.reserved.add(m);
    soak.crashing = true;
    try {
      await soak.idle();
      if (await soak.crashAfterWrite(life, m)) done++;
      notBefore = Date.now() + 5_000;
    } finally {
      soak.reserved.delete(m);
      soak.crashing = false;
    }
  }
}

async function shutdownLater(soak: Soak, life: TeamLife, lifeMs: number, stop: () => boolean): Promise<void> {
  const { rng } = soak;
  if (lifeMs < 14_000 || !rng.chance(0.55)) return;
  await pause(Math.round(lifeMs * (rng.int(25, 50) / 100)), stop);
  // Never the last ones: a lead without teammates stops reading its inbox.
  while (!stop() && life.teammates.filter((m) => soak.alive(life).includes(m)).length >= 3) {
    const free = life.teammates.filter((m) => !soak.reserved.has(m) && !soak.keepAlive.has(`${life.team}|${m}`) && soak.alive(life).includes(m));
    if (free.length) return soak.shutdown(life, rng.pick(free));
    await pause(200, stop);
  }
}

async function live(soak: Soak, life: TeamLife, until: number): Promise<void> {
  const stop = () => Date.now() >= until;
  const lifeMs = until - Date.now();
  await Promise.all([streamLoop(soak, life, stop), killLoop(soak, stop), lockLoop(soak, life, stop), crashLoop(soak, life, until, stop), shutdownLater(soak, life, lifeMs, stop)]);
  await soak.idle();
}

export async function runScenario(soak: Soak, opts: ScenarioOptions): Promise<void> {
  const { rng, h } = soak;
  const streamEnd = h.startedAt + opts.seconds * 1000;
  const kinds: EndKind[] = [];
  for (let n = 1; ; n++) {
    const life = await launch(soak, opts.teammates);
    // Long enough for a crash right after a write (a teammate works 20 s for it), short enough
    // for several ends in a few minutes.
    const planned = opts.lifeMs ?? Math.min(45_000, Math.max(20_000, Math.round((rng.int(15, 30) / 100) * opts.seconds * 1000)));
    // The last life runs to the end of the stream (an end and a launch take some seconds): one
    // that would be left too short is folded into this one.
    const final = opts.oneTeam || streamEnd - Date.now() - planned < (opts.lifeMs ?? Math.max(6_000, opts.seconds * 70));
    await live(soak, life, final ? streamEnd : Date.now() + planned);
    if (final && !opts.endLast) break;
    // Every kind of end comes round before one comes again.
    if (kinds.length === 0) {
      kinds.push(...opts.ends);
      for (let i = kinds.length - 1; i > 0; i--) {
        const j = rng.int(0, i);
        [kinds[i], kinds[j]] = [kinds[j]!, kinds[i]!];
      }
    }
    await endLead(soak, life, kinds.shift()!, n > 1 && rng.chance(0.25));
    if (final) break;
    if (opts.failFast && soak.failedEarly) {
      soak.log(`stopping early: ${soak.failedEarly}`);
      break;
    }
  }
  h.streamEndedAt = Date.now();
}

/**
 * The drain: no more sends, kills or foreign locks; one engine until nothing is queued; then
 * until every message delivered to a running team reached its model and every answer a running
 * team's models gave is in Teamdeck's threads (bounded: what is missing then is counted).
 */
export async function drain(soak: Soak): Promise<void> {
  const { deck } = soak;
  await soak.idle();
  await soak.releaseAll();
  await deck.startEngine();
  const queued = async () => {
    const c = await deck.client();
    try {
      return c.queuedCount();
    } finally {
      await c.stop();
    }
  };
  await waitFor(async () => (await queued()) === 0, { what: 'nothing queued', timeoutMs: 45_000, intervalMs: 250 }).catch(() =>
    soak.h.notes.push('the drain ended with messages still queued'),
  );
  const running = soak.h.lives.filter((l) => !l.end);
  const threads = async () => {
    const c = await deck.client();
    try {
      const out: ThreadMessage[] = [];
      for (const life of running) for (const m of [LEAD, ...life.teammates]) out.push(...(await c.thread(life.team, m)));
      return out;
    } finally {
      await c.stop();
    }
  };
  const gone = (team: string, to: string) => soak.gone.has(`${team}|${to}`);
  await waitFor(
    async () => {
      const seen = new Set(arrivals(deck.api.log).map((a) => a.seq));
      const sent = (await threads()).filter((m) => (m.status === 'accepted' || m.status === 'taken') && !gone(m.team, m.to));
      return sent.every((m) => {
        const seq = Number(/^soak-msg (\d+) /.exec(m.text)?.[1]);
        return !Number.isFinite(seq) || seen.has(seq);
      });
    },
    { what: 'every delivered message to reach its model', timeoutMs: 25_000, intervalMs: 500 },
  ).catch(() => soak.h.notes.push('the drain ended with delivered messages its models had not seen'));
  await waitFor(
    async () => {
      // A reply still on its way (or a spell's result still to come) is an answer not yet given:
      // the check passed before the last answer existed, and the account then found it missing.
      if (modelsBusy(deck.api.log, Date.now())) return false;
      const shown = (await threads()).map((m) => m.text);
      const answers = givenAnswers(deck.api.log).filter((a) => running.some((l) => (a.team ? a.team === l.team : a.at >= l.launchedAt)));
      return answers.every((a) => shown.some((t) => t.includes(`${a.agent} answer ${a.n}:`)));
    },
    { what: "every answer of the running team in Teamdeck's threads", timeoutMs: 15_000, intervalMs: 500 },
  ).catch(() => soak.h.notes.push('the drain ended with answers Teamdeck did not show yet'));
  // Every member's own message whose call came back to its model, in its team's feed (ended teams too).
  await waitFor(
    async () => {
      const ran = toolResults(deck.api.log);
      const want = memberSends(deck.api.log).filter((s) => ran.has(s.callId));
      const c = await deck.client();
      try {
        const shown = new Set<string>();
        for (const life of soak.h.lives) for (const m of await c.feed(life.team)) if (MEMBER_LABEL.test(m.text)) shown.add(m.text);
        return want.every((s) => shown.has(s.text));
      } finally {
        await c.stop();
      }
    },
    { what: "every member's own message in Teamdeck's feed", timeoutMs: 15_000, intervalMs: 500 },
  ).catch(() => soak.h.notes.push("the drain ended with members' own messages Teamdeck did not show yet"));
}

/** Teamdeck's view, then the last engine's clean stop and a fold of every journal. */
export async function collect(soak: Soak): Promise<Views> {
  const { deck } = soak;
  for (const life of soak.h.lives) if (life.end) checkFolder(soak, life);
  await deck.startEngine();
  const teams = await deck.cli.teams();
  const threads = new Map<string, ThreadMessage[]>();
  const feeds = new Map<string, ThreadMessage[]>();
  const c = await deck.client();
  try {
    for (const life of soak.h.lives) for (const m of [LEAD, ...life.teammates]) threads.set(`${life.team}|${m}`, await c.thread(life.team, m));
    for (const life of soak.h.lives) feeds.set(life.team, await c.feed(life.team));
  } finally {
    await c.stop();
  }
  await deck.stopEngine();
  const journals = await soak.foldAll();
  return { teams, threads, feeds, journals };
}
