// How a lead ends in the soak, with the provocations around it: a message held behind a lock
// for up to two teammates, a burst of sends on the engine's socket from just before the key or
// signal until the team folder is gone, one send through the command after; the held locks let
// go only once Teamdeck shows the team ended, and then a folder of the team's name must not be
// back. /exit is typed as a user would (Claude may ask first, with teammates at work).
import { existsSync, statSync, watch } from 'node:fs';
import type { EngineSocketClient } from '../../src/engine/socket/client.js';
import { delay, waitFor } from '../../test/claude/harness/wait.js';
import { LEAD, type Soak } from './actions.js';
import { alive } from './deck.js';
import type { EndKind, SendRecord, TeamLife } from './record.js';

/**
 * Sends on one connection, every 2 ms without waiting for answers, to the members still
 * there, from now until `done` holds, Teamdeck refuses, or `maxMs` pass: messages that reach
 * the engine while the team ends, some after its folder is gone and before Teamdeck noticed.
 */
async function burst(soak: Soak, life: TeamLife, client: EngineSocketClient | undefined, done: () => boolean, maxMs: number): Promise<void> {
  if (!client) return;
  const until = Date.now() + maxMs;
  // Not to a member whose inbox the soak holds: those sends would wait out the lock.
  const to = soak.alive(life).filter((m) => !soak.holding(life, m));
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
      soak.send({ team: life.team, to: to[i % to.length]!, channel: 'inbox', via: 'socket', purpose: 'after-end', client, unordered: true }).then((r) => {
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
export async function endLead(soak: Soak, life: TeamLife, kind: EndKind, engineDown: boolean): Promise<void> {
  const held: string[] = [];
  // Only an inbox that exists can be held (Claude makes one at its first write, and a short run
  // may have sent nothing yet to the first teammate): those come first.
  const withInbox = life.teammates.filter((m) => existsSync(soak.deck.inbox(life.team, m)));
  const pool = [...withInbox, ...life.teammates.filter((m) => !withInbox.includes(m))];
  for (const m of soak.rng.pick([1, 2]) === 2 ? pool : pool.slice(0, 1)) {
    if (!soak.alive(life).includes(m) || held.length >= 2) continue;
    // Claude's own writer may hold the lock this moment: a few tries (else the broken-engine
    // run that needs a held message has nothing to catch).
    for (let i = 0; i < 40 && !soak.holding(life, m); i++) if (!(await soak.hold(life, m, 'held'))) await delay(25);
    if (soak.holding(life, m)) held.push(m);
  }
  await Promise.all(held.map((m) => soak.send({ team: life.team, to: m, channel: 'inbox', via: 'cli', purpose: 'held' })));
  if (engineDown) await soak.killEngine('before-end', { restart: false });
  // No client (the engine does not answer now): this end simply has no bursts through the socket.
  const client = engineDown ? undefined : await soak.deck.client().catch(() => undefined);
  const record: NonNullable<TeamLife['end']> = { kind, requested: kind, at: Date.now(), engineDown };
  life.end = record;
  const folder = soak.deck.teamDir(life.team);
  // Watched until the end is over: the folder going, and one of its name coming back.
  const w = watch(soak.deck.run.teamsDir, (_ev, name) => {
    if (name !== life.team) return;
    if (!existsSync(folder)) record.folderGoneAt ??= Date.now();
    else if (record.folderGoneAt !== undefined) checkFolder(soak, life);
  });
  try {
    await endNow(soak, life, kind, record, client, folder, held);
  } finally {
    w.close();
  }
  soak.log(`${life.team} ended by ${record.kind}${engineDown ? ' while the engine was down' : ''}`);
}

async function endNow(soak: Soak, life: TeamLife, kind: EndKind, record: NonNullable<TeamLife['end']>, client: EngineSocketClient | undefined, folder: string, held: string[]): Promise<void> {
  const bursts: Promise<void>[] = [];
  const folderGone = () => record.folderGoneAt !== undefined && Date.now() - record.folderGoneAt > 50;
  try {
    // A burst begins a moment before each key or signal that may end the lead, so the engine
    // is busy with sends as the folder goes; one that only brought up Claude's question stops.
    let current = { stop: false };
    const lead = async () => {
      current.stop = true;
      const token = (current = { stop: false });
      bursts.push(burst(soak, life, client, () => token.stop || folderGone(), 700));
      await delay(150);
    };
    if (kind === 'exit' && !(await typeExit(soak, life, record, lead, () => (current.stop = true)))) record.kind = 'sigterm';
    if (record.kind === 'sigterm') {
      await lead();
      record.at = Date.now();
      process.kill(life.pid, 'SIGTERM');
    }
    if (record.kind === 'sigkill') {
      record.at = Date.now();
      process.kill(life.pid, 'SIGKILL');
      bursts.push(burst(soak, life, client, () => false, 30));
    }
    await waitFor(() => !alive(life.pid), { what: `lead ${life.pid} to end`, timeoutMs: 15_000, intervalMs: 5 }).catch(() => {
      soak.h.notes.push(`lead ${life.pid} did not end by ${record.kind}; killed`);
      process.kill(life.pid, 'SIGKILL');
      record.kind = 'sigkill';
    });
    record.leadGoneAt = Date.now();
    if (record.kind !== 'sigkill') {
      // Still there after 5 s is an answer too: folderGoneAt stays unset, and the report shows it.
      await waitFor(() => !existsSync(folder), { what: 'the team folder to go', timeoutMs: 5_000, intervalMs: 5 }).catch(() => undefined);
      if (!existsSync(folder)) record.folderGoneAt ??= Date.now();
    }
    await Promise.all(bursts);
  } finally {
    // The sends' outcomes are recorded already; a client that fails to hang up changes none.
    await client?.stop().catch(() => undefined);
  }
  // And one through the command, a moment later: refused, or undeliverable.
  await soak.send({ team: life.team, to: soak.alive(life).find((m) => m !== LEAD) ?? LEAD, channel: 'inbox', via: 'cli', purpose: 'after-end' });
  if (record.engineDown) await soak.deck.startEngine();
  checkFolder(soak, life);
  // (A team folder made again looks like a running team: no use waiting long then.)
  const shown = await waitFor(
    async () => {
      // A command that failed this once is asked again on the next look.
      const t = (await soak.deck.cli.teams().catch(() => [])).find((x) => x.id === life.team);
      return t?.state === 'ended' ? 'ended' : record.folderBackAt !== undefined ? 'back' : undefined;
    },
    { what: `Teamdeck to show ${life.team} ended`, timeoutMs: 20_000, intervalMs: 100 },
    // Not within 20 s: noted just below.
  ).catch(() => undefined);
  if (shown === 'ended') record.shownEndedAt = Date.now();
  else soak.h.notes.push(`Teamdeck did not show ${life.team} ended${shown === 'back' ? ': its folder is back' : ' within 20 s'}`);
  checkFolder(soak, life);
  // Well after Teamdeck marked the end: a write now would go to a team it knows has ended.
  await delay(soak.rng.int(1_000, 2_000));
  for (const m of held) await soak.release(life, m);
  await soak.idle();
  for (const m of held) {
    const rec = soak.h.sends.findLast((s) => s.team === life.team && s.to === m && s.purpose === 'held');
    const status = rec ? await soak.settled(life, m, rec.text, 15_000) : undefined;
    if (rec && status !== 'undeliverable' && record.shownEndedAt !== undefined) soak.failedEarly ??= `soak-msg ${rec.seq} to ${m} was ${status ?? 'still queued'} after Teamdeck showed ${life.team} ended`;
  }
  if (record.folderBackAt !== undefined) soak.failedEarly ??= `the folder of ${life.team} was made again after Claude removed it`;
}

/** After its end: a folder of the team's name that Claude removed (or another one) is back. */
export function checkFolder(soak: Soak, life: TeamLife): void {
  const end = life.end;
  if (!end || end.folderBackAt !== undefined) return;
  const st = statSync(soak.deck.teamDir(life.team), { throwIfNoEntry: false });
  if (st && (end.kind !== 'sigkill' || st.ino !== life.folderIno)) end.folderBackAt = Date.now();
}

/**
 * Types /exit into the lead's terminal once its input box is empty; false when it could not.
 * With a teammate at work Claude asks first ("Background work is running … 1. Exit and stop
 * tasks"): Enter takes the highlighted first answer. `beforeEnter` runs before each Enter,
 * `asked` when Claude asked.
 */
async function typeExit(soak: Soak, life: TeamLife, record: { at: number }, beforeEnter: () => Promise<void>, asked: () => void): Promise<boolean> {
  const { inputBox, inputText } = await import('../../src/engine/claude/lead-screen.js');
  const screen = () => soak.deck.tmuxOut(['capture-pane', '-p', '-t', life.terminal]);
  const box = async () => {
    const b = inputBox(await screen());
    return b === undefined ? undefined : inputText(b);
  };
  const gone = (ms: number) => waitFor(() => !alive(life.pid), { what: 'the lead to take /exit', timeoutMs: ms, intervalMs: 5 }).then(() => true, () => false);
  // Not empty within 5 s: noted just below, and /exit is not typed.
  const empty = await waitFor(async () => (await box()) === '', { what: "the lead's input box to be empty", timeoutMs: 5_000, intervalMs: 50 }).catch(() => false);
  if (!empty) {
    soak.h.notes.push(`/exit not typed: the lead's input box held ${JSON.stringify(await box())}`);
    return false;
  }
  soak.deck.tmux(['send-keys', '-t', life.terminal, '-l', '/exit']);
  // Enter is pressed either way; the attempts below look at what the lead did with it.
  await waitFor(async () => (await box())?.startsWith('/exit'), { what: '/exit in the input box', timeoutMs: 3_000, intervalMs: 25 }).catch(() => undefined);
  await delay(250);
  for (let attempt = 1; attempt <= 3; attempt++) {
    await beforeEnter();
    if (attempt === 1) record.at = Date.now();
    soak.deck.tmux(['send-keys', '-t', life.terminal, 'Enter']);
    const next = await waitFor(async () => (!alive(life.pid) ? 'gone' : /Exit and stop tasks/.test(await screen()) ? 'asked' : undefined), {
      what: 'the lead to exit or ask',
      timeoutMs: 1_500,
      intervalMs: 10,
      // Neither within 1.5 s: looked at below.
    }).catch(() => undefined);
    if (next === 'gone') return true;
    if (next === 'asked') {
      // Answered once (after the dialog's key guard), then left to finish.
      asked();
      await delay(250);
      await beforeEnter();
      soak.deck.tmux(['send-keys', '-t', life.terminal, 'Enter']);
      if (await gone(10_000)) return true;
      continue;
    }
    // Neither the box nor the question: the lead is on its way out (stopping its teammates).
    if (!(await box())?.startsWith('/exit')) return gone(10_000);
  }
  soak.h.notes.push(`/exit typed but the lead did not exit; its screen:\n${await screen()}`);
  return !alive(life.pid);
}
