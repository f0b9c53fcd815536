// A Claude-like member in its own process: polls inboxes and takes unread messages the way
// Claude Code does (the independent implementation in src/sim/claude-inbox.ts), logging every
// message it took, in the order it took them, one JSON line each.
//
// Driven by JSON lines on stdin:
//   {"cmd":"start","inboxes":["/…/a.json"],"log":"/…/consumed.jsonl","pollMs":5,"mode":"prune"}
//       -> prints {"ok":"started"} and starts polling
//   {"cmd":"stop"}  -> finishes the round in progress (its log lines are written), stops
//                      polling, prints {"ok":"stopped","consumed":<total>}
//   {"cmd":"exit"}  -> stops and exits
// A message is logged before the next round starts, so once "stopped" is printed the log
// holds every message this process removed from (or flagged in) an inbox.
import { appendFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import { claudeConsume, type ConsumeMode } from '../../src/sim/claude-inbox.js';

export interface ConsumedLine {
  /** The inbox file name without `.json`. */
  inbox: string;
  id: string;
  text: string;
  from: string;
}

interface StartCmd {
  cmd: 'start';
  inboxes: string[];
  log: string;
  pollMs?: number;
  mode?: ConsumeMode;
}

let loop: Promise<void> | undefined;
let running = false;
let total = 0;

function idOf(m: Record<string, unknown>): string {
  if (typeof m.messageId === 'string') return m.messageId;
  if (typeof m.msg_id === 'string') return m.msg_id;
  return `${String(m.from)}|${String(m.timestamp)}|${String(m.text)}`;
}

async function poll(cmd: StartCmd): Promise<void> {
  const pollMs = cmd.pollMs ?? 5;
  const mode = cmd.mode ?? 'prune';
  while (running) {
    for (const inbox of cmd.inboxes) {
      let taken;
      try {
        taken = await claudeConsume(inbox, mode);
      } catch {
        continue; // lock busy (ELOCKED) or the folder is briefly unusable: next round
      }
      if (taken.length === 0) continue;
      const name = basename(inbox, '.json');
      const lines = taken.map((m) => JSON.stringify({ inbox: name, id: idOf(m), text: m.text, from: m.from } satisfies ConsumedLine) + '\n');
      await appendFile(cmd.log, lines.join(''));
      total += taken.length;
    }
    await sleep(pollMs);
  }
}

async function stop(): Promise<void> {
  running = false;
  await loop;
  loop = undefined;
}

const rl = createInterface({ input: process.stdin });
for await (const line of rl) {
  if (!line.trim()) continue;
  const cmd = JSON.parse(line) as StartCmd | { cmd: 'stop' } | { cmd: 'exit' };
  if (cmd.cmd === 'start') {
    await stop();
    running = true;
    loop = poll(cmd);
    process.stdout.write(JSON.stringify({ ok: 'started' }) + '\n');
  } else if (cmd.cmd === 'stop') {
    await stop();
    process.stdout.write(JSON.stringify({ ok: 'stopped', consumed: total }) + '\n');
  } else if (cmd.cmd === 'exit') {
    break;
  }
}
await stop();
rl.close();
process.exit(0);
