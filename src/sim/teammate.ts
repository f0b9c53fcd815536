// An in-process teammate of Claude Code 2.1.332 (docs/claude-contract.md#inbox-reads to #frames,
// #transcripts, and the capture in test/fixtures/claude-2.1.332/team-lifecycle): polls its inbox
// every 500 ms while idle and once at each turn end; takes and prunes what it finds (one poll, one
// turn); rates each entry (verified, forged, unverifiable) and never acts on a forged frame;
// records what enters its context in its transcript; answers only through the `result` of its next
// idle_notification to the lead (there is no user mailbox). A non-forged shutdown_request from the
// lead jumps the queue (taken alone, the rest left unread); the teammate approves it and its loop
// ends; the lead removes it from config when it reads the approval.
import { randomUUID } from 'node:crypto';
import { access } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { claudeEntry, claudeHasWork, claudeLook, claudeSend, claudeTake, TeamGoneError, type ClaudeMessage } from './claude-inbox.js';
import { configMembers, LEAD_NAME, readConfig, removeFromConfig } from './claude-config.js';
import { shutdownAppendix, teammateBlock, teammateTurn, type BlockInput } from './framing.js';
import { createRng, randomSeed } from './prng.js';
import { classifyEntry, Ledger, type Provenance } from './provenance.js';
import { answerSummary, answerText, DETAILS, frameOf, str } from './replies.js';
import { findTeammateAgentId, newPromptState, newTeammateAgentId, teammateTranscript, textResult, toolUseId, writeTeammateMeta, type Transcript } from './transcript.js';
import { memberHandle, memberStart, type MemberExit, type MemberHandle, type RunMemberOptions } from './member-run.js';

/** Approved shutdown to leaving config when no lead runs in this process to do it (Claude's lead: its next poll, ~0.3-0.8 s). */
export const LEAVE_DELAY_MS = 800;

export function runTeammate(opts: RunMemberOptions): MemberHandle {
  const seed = opts.seed ?? randomSeed();
  const rng = createRng(seed, opts.name);
  const now = opts.now ?? Date.now;
  const ledger = opts.ledger ?? new Ledger();
  const { emit, abort, paths: p, own } = memberStart(opts);
  const pause = async (ms: number) => {
    try {
      await sleep(ms, undefined, { signal: abort.signal });
    } catch {
      // aborted: the loop checks the signal
    }
  };
  const iso = () => new Date(now()).toISOString();

  const done = (async (): Promise<MemberExit> => {
    const config = await readConfig(p.configPath);
    const members = configMembers(config);
    const entry = members.find((m) => m.name === opts.name);
    const lead = members.find((m) => m.name === LEAD_NAME);
    const teamName = str(config?.name) ?? p.id;
    const leadSessionId = str(config?.leadSessionId) ?? randomUUID();
    const cwd = str(lead?.cwd) ?? str(entry?.cwd) ?? process.cwd();
    const color = opts.color ?? str(entry?.color);
    const model = str(entry?.model);
    const pollMs = opts.pollMs ?? 500;
    const [workMin, workMax] = opts.workMs ?? [300, 2000];
    const replyProbability = opts.replyProbability ?? 1;
    const prompt = opts.prompt ?? newPromptState();
    const tOpts = { teamsDir: opts.teamsDir, cwd, leadSessionId, model, prompt, now };
    const known = opts.agentId ?? (await findTeammateAgentId({ ...tOpts, name: opts.name }));
    const agentId = known ?? newTeammateAgentId(opts.name);
    const transcript: Transcript = teammateTranscript({ ...tOpts, agentId });
    const there = (path: string) =>
      access(path).then(
        () => true,
        () => false,
      );
    // A transcript already there is a teammate resumed, not spawned: no spawn turn, meta kept.
    const fresh = !(await there(transcript.path));
    if (!(await there(transcript.path.replace(/\.jsonl$/, '.meta.json')))) {
      await writeTeammateMeta(transcript, {
        name: opts.name,
        teamName,
        description: opts.spawnPrompt?.summary ?? `${opts.name} joins the team`,
        model,
        color,
        planModeRequired: entry?.planModeRequired === true,
        agentType: str(entry?.agentType),
      });
    }

    /** Everything this member writes goes to the lead, and into the process's ledger. */
    const toLead = async (frame: Record<string, unknown>): Promise<boolean> => {
      // The entry's timestamp is the frame's own.
      const m = claudeEntry({ from: opts.name, text: JSON.stringify(frame), timestamp: str(frame.timestamp) ?? iso(), color });
      ledger.record(m);
      for (let attempt = 0; ; attempt++) {
        try {
          await claudeSend(p.dir, LEAD_NAME, m);
          return true;
        } catch (e) {
          emit({ kind: 'error', member: opts.name, message: `cannot write team-lead.json: ${(e as Error).message}` });
          if (e instanceof TeamGoneError || attempt >= 2) return false;
          await pause(50 * (attempt + 1));
        }
      }
    };
    const insiders = async (): Promise<Set<string>> => {
      const list = configMembers(await readConfig(p.configPath));
      const names = new Set<string>([LEAD_NAME]);
      for (const m of list) if (typeof m.name === 'string' && (m.backendType ?? 'in-process') === 'in-process') names.add(m.name);
      return names;
    };

    /** One turn: what entered the context is in the transcript first, then the answer, then the idle report. */
    const turn = async (delivered: BlockInput[], work: string[], reminder?: string, ownWords?: string): Promise<boolean> => {
      opts.onTurn?.(opts.name, true);
      try {
        await transcript.recorded(teammateTurn(delivered));
        // The harness names the other agents on a teammate's first turn ("main" is the lead).
        if (reminder !== undefined) await transcript.harness(reminder);
        emit({ kind: 'context', member: opts.name, transcript: transcript.path, from: delivered.map((b) => b.from) });
        const ms = rng.int(workMin, workMax);
        emit({ kind: 'work', member: opts.name, from: delivered.map((b) => b.from).join(','), ms });
        await pause(ms);
        if (abort.signal.aborted) return false;
        const replies = rng.chance(replyProbability);
        const detail = rng.pick(DETAILS);
        const lines = ownWords !== undefined ? [ownWords] : work.map((t, i) => answerText(t, i === work.length - 1 ? detail : ''));
        const result = replies && lines.length > 0 ? lines.join('\n').slice(0, 4000) : undefined;
        if (result !== undefined) await transcript.text(result);
        // Mail already waiting at turn end: this report has no idleReason, the next one says "available".
        const waiting = (await claudeLook(own).catch(() => [])).length > 0;
        const frame: Record<string, unknown> = { type: 'idle_notification', from: opts.name, timestamp: iso() };
        if (!waiting) frame.idleReason = 'available';
        if (result !== undefined) frame.result = result;
        if (!(await toLead(frame))) return false;
        if (result !== undefined) emit({ kind: 'replied', member: opts.name, to: LEAD_NAME, text: result, summary: answerSummary(work[work.length - 1] ?? '') });
        else if (work.length > 0) emit({ kind: 'no-reply', member: opts.name, from: delivered.map((b) => b.from).join(',') });
        emit({ kind: 'idle', member: opts.name });
        return true;
      } finally {
        opts.onTurn?.(opts.name, false);
      }
    };

    /** The approval: a SendMessage call, its result, the frame in team-lead.json; then the loop ends. */
    const shutdown = async (m: ClaudeMessage, requestId: string): Promise<MemberExit | undefined> => {
      opts.onTurn?.(opts.name, true);
      try {
        await transcript.recorded(teammateBlock({ from: m.from, text: m.text, color: str(m.color), summary: str(m.summary), appendix: shutdownAppendix(requestId, LEAD_NAME) }));
        emit({ kind: 'context', member: opts.name, transcript: transcript.path, from: [m.from] });
        const id = toolUseId();
        const message = { type: 'shutdown_response', request_id: requestId, approve: true };
        const [call] = await transcript.assistant([
          { type: 'tool_use', id, name: 'SendMessage', input: { to: LEAD_NAME, message, type: 'shutdown_response', recipient: LEAD_NAME, recipient_kind: 'name', request_id: requestId, approve: true } },
        ]);
        const ok = await toLead({ type: 'shutdown_approved', requestId, from: opts.name, timestamp: iso(), paneId: 'in-process', backendType: 'in-process' });
        if (!ok) return undefined;
        const said = { success: true, message: `Shutdown approved. Sent confirmation to ${LEAD_NAME}. Agent ${opts.name} is now exiting.`, request_id: requestId };
        await transcript.toolResult(call!, textResult(id, JSON.stringify(said)), said);
        emit({ kind: 'shutdown', member: opts.name, requestId });
      } finally {
        opts.onTurn?.(opts.name, false);
      }
      if (!opts.leadRemovesMember) {
        // No lead in this process to read the approval: leave config the way it would have done.
        await pause(opts.leaveDelayMs ?? LEAVE_DELAY_MS);
        // A config that is gone (the team ended meanwhile) has no member left to remove.
        if (!abort.signal.aborted && (await removeFromConfig(p.configPath, opts.name).catch(() => false))) emit({ kind: 'left', member: opts.name });
      }
      await transcript.flush();
      emit({ kind: 'exit', member: opts.name, reason: 'shutdown' });
      return 'shutdown';
    };

    emit({ kind: 'started', member: opts.name, seed, mode: 'prune', pollMs });
    if (opts.spawnPrompt && fresh) {
      // The first turn: the Agent call's prompt, handed over in memory, recorded like inbox text.
      const others = [...(await insiders())].filter((n) => n !== LEAD_NAME && n !== opts.name);
      const reminder = others.length > 0 ? `<system-reminder>\nOther agents active in this session, addressable via SendMessage({to: name, message}): main, ${others.join(', ')}.\n</system-reminder>` : undefined;
      if (!(await turn([{ from: LEAD_NAME, text: opts.spawnPrompt.text, summary: opts.spawnPrompt.summary }], [opts.spawnPrompt.text], reminder, opts.spawnPrompt.answer)) && !abort.signal.aborted) {
        await transcript.flush();
        emit({ kind: 'exit', member: opts.name, reason: 'stopped' });
        return 'stopped';
      }
    } else if (opts.idleOnStart) {
      if (await toLead({ type: 'idle_notification', from: opts.name, timestamp: iso(), idleReason: 'available' })) emit({ kind: 'idle', member: opts.name });
    }

    while (!abort.signal.aborted) {
      let taken: ClaudeMessage[];
      try {
        // Idle polls are a plain read: no lock, no config.
        if (!(await claudeHasWork(own))) {
          await pause(pollMs);
          continue;
        }
        // A shutdown request the lead really sent is taken alone, ahead of anything else.
        const names = await insiders();
        const r = await claudeTake(own, (m) => m.from === LEAD_NAME && frameOf(m.text)?.type === 'shutdown_request' && classifyEntry(m, ledger, names) === 'verified');
        if (r.alone) {
          const request = r.messages[0]!;
          emit({ kind: 'consumed', member: opts.name, messages: [{ from: request.from, text: request.text, timestamp: request.timestamp, provenance: 'verified' }] });
          const how = await shutdown(request, str(frameOf(request.text)?.requestId) ?? '');
          if (how) return how;
          continue;
        }
        taken = r.messages;
        if (r.invalid.length > 0) emit({ kind: 'invalid', member: opts.name, count: r.invalid.length });
      } catch (e) {
        // A busy lock: Claude tries again at the next poll.
        emit({ kind: 'error', member: opts.name, message: (e as Error).message });
        await pause(pollMs);
        continue;
      }
      if (taken.length === 0) {
        await pause(pollMs);
        continue;
      }
      const names = await insiders();
      const rated: { m: ClaudeMessage; provenance: Provenance }[] = taken.map((m) => ({ m, provenance: classifyEntry(m, ledger, names) }));
      emit({
        kind: 'consumed',
        member: opts.name,
        messages: rated.map(({ m, provenance }) => ({ from: m.from, text: m.text, timestamp: m.timestamp, provenance })),
      });
      const delivered: BlockInput[] = [];
      const work: string[] = [];
      for (const { m, provenance } of rated) {
        const frame = frameOf(m.text);
        const block: BlockInput = { from: m.from, text: m.text, color: str(m.color), summary: str(m.summary) };
        if (provenance === 'forged') {
          // Claude drops forged frames unseen; forged text reaches the model marked verified="false".
          emit({ kind: 'unverified', member: opts.name, from: m.from, text: m.text, dropped: frame !== undefined });
          if (!frame) {
            delivered.push({ ...block, forged: true });
            work.push(m.text);
          }
          continue;
        }
        // Other frames (a shutdown request from anyone but the lead, stray notifications) need no turn.
        if (frame) continue;
        delivered.push(block);
        work.push(m.text);
      }
      if (delivered.length > 0) {
        const ok = await turn(delivered, work);
        if (!ok && !abort.signal.aborted) break;
        // After a turn the member looks at its inbox once more straight away.
        continue;
      }
      await pause(pollMs);
    }
    await transcript.flush();
    emit({ kind: 'exit', member: opts.name, reason: 'stopped' });
    return 'stopped';
  })();

  return memberHandle(opts.name, seed, done, abort);
}
