// A member of a legacy team (Claude Code 2.1.8x-2.1.19x): polls its inbox, "works" on each
// message, answers the user in inboxes/user.json, reports idle to the lead, and approves a
// shutdown request, which ends it. Read messages are flagged read:true or pruned.
import { basename } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { claudeAppend, claudeConsume, type ClaudeMessage } from './claude-inbox.js';
import { createRng, randomSeed, type Rng } from './prng.js';
import { LEAD_NAME } from './claude-config.js';
import { answerSummary, answerText, DETAILS, frameOf, str } from './replies.js';
import { readSimConfig } from './team-setup.js';
import { memberHandle, memberStart, type MemberExit, type MemberHandle, type RunMemberOptions } from './member-run.js';

/** The user's mailbox: a legacy team's members answer the user there. */
export const USER_NAME = 'user';

function memberConfigEntry(config: Record<string, unknown> | undefined, name: string): Record<string, unknown> | undefined {
  const list = Array.isArray(config?.members) ? (config.members as unknown[]) : [];
  return list.find((m): m is Record<string, unknown> => !!m && typeof m === 'object' && (m as Record<string, unknown>).name === name);
}

export function runLegacyMember(opts: RunMemberOptions): MemberHandle {
  const seed = opts.seed ?? randomSeed();
  const rng: Rng = createRng(seed, opts.name);
  const mode = opts.mode ?? 'prune';
  const now = opts.now ?? Date.now;
  const { emit, abort, paths: p, own } = memberStart(opts);
  const isLead = opts.name === LEAD_NAME;

  const done = (async (): Promise<MemberExit> => {
    const entry = memberConfigEntry(await readSimConfig(opts.teamsDir, opts.team), opts.name);
    const color = opts.color ?? str(entry?.color);
    const backendType = opts.backendType ?? str(entry?.backendType) ?? 'in-process';
    const paneId = opts.paneId ?? str(entry?.tmuxPaneId) ?? 'in-process';
    const pollMs = opts.pollMs ?? (backendType === 'tmux' ? 1000 : 500);
    const [workMin, workMax] = opts.workMs ?? [300, 2000];
    const replyProbability = opts.replyProbability ?? 1;

    const envelope = (text: string, summary?: string): ClaudeMessage => {
      const m: ClaudeMessage = { from: opts.name, text, timestamp: new Date(now()).toISOString(), read: false };
      if (summary !== undefined) m.summary = summary;
      if (color !== undefined) m.color = color;
      return m;
    };
    const pause = async (ms: number) => {
      try {
        await sleep(ms, undefined, { signal: abort.signal });
      } catch {
        // aborted: the loop checks the signal
      }
    };
    /** Appends like Claude; a failed write is reported and retried a couple of times, never fatal. */
    const append = async (inbox: string, message: ClaudeMessage): Promise<boolean> => {
      for (let attempt = 0; ; attempt++) {
        try {
          await claudeAppend(inbox, message);
          return true;
        } catch (e) {
          emit({ kind: 'error', member: opts.name, message: `cannot write ${basename(inbox)}: ${(e as Error).message}` });
          if (attempt >= 2) return false;
          await pause(50 * (attempt + 1));
        }
      }
    };
    const toLead = (frame: Record<string, unknown>) => append(p.inbox(LEAD_NAME), envelope(JSON.stringify(frame)));
    const sendIdle = () =>
      toLead({ type: 'idle_notification', from: opts.name, timestamp: new Date(now()).toISOString(), idleReason: 'available' });

    emit({ kind: 'started', member: opts.name, seed, mode, pollMs });
    if (opts.idleOnStart && !isLead) {
      await sendIdle();
      emit({ kind: 'idle', member: opts.name });
    }

    while (!abort.signal.aborted) {
      let batch: ClaudeMessage[];
      try {
        batch = await claudeConsume(own, mode);
      } catch (e) {
        // A busy lock or a vanished folder: Claude just tries again at the next poll.
        emit({ kind: 'error', member: opts.name, message: (e as Error).message });
        await pause(pollMs);
        continue;
      }
      if (batch.length > 0) {
        emit({ kind: 'consumed', member: opts.name, messages: batch.map((m) => ({ from: m.from, text: m.text, timestamp: m.timestamp })) });
      }
      let worked = false;
      for (const msg of batch) {
        if (abort.signal.aborted) break;
        const frame = frameOf(String(msg.text));
        if (frame) {
          if (frame.type === 'shutdown_request' && !isLead) {
            const requestId = str(frame.requestId) ?? '';
            await toLead({
              type: 'shutdown_approved',
              requestId,
              from: opts.name,
              timestamp: new Date(now()).toISOString(),
              paneId,
              backendType,
            });
            emit({ kind: 'shutdown', member: opts.name, requestId });
            emit({ kind: 'exit', member: opts.name, reason: 'shutdown' });
            return 'shutdown';
          }
          // Other frames (idle notifications to the lead, approvals...) need no turn here.
          continue;
        }
        const ms = rng.int(workMin, workMax);
        emit({ kind: 'work', member: opts.name, from: msg.from, ms });
        await pause(ms);
        if (abort.signal.aborted) break;
        worked = true;
        const replies = rng.chance(replyProbability);
        const detail = rng.pick(DETAILS);
        // Only the user gets an answer: answering teammates would let two simulated members loop forever.
        if (msg.from !== USER_NAME) continue;
        if (!replies) {
          emit({ kind: 'no-reply', member: opts.name, from: msg.from });
          continue;
        }
        const text = answerText(String(msg.text), detail);
        const summary = answerSummary(String(msg.text));
        if (!(await append(p.inbox(USER_NAME), envelope(text, summary)))) continue;
        emit({ kind: 'replied', member: opts.name, to: USER_NAME, text, summary });
      }
      if (worked && !isLead && !abort.signal.aborted) {
        await sendIdle();
        emit({ kind: 'idle', member: opts.name });
      }
      await pause(pollMs);
    }
    emit({ kind: 'exit', member: opts.name, reason: 'stopped' });
    return 'stopped';
  })();

  return memberHandle(opts.name, seed, done, abort);
}
