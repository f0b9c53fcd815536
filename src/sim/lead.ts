// The interactive lead of Claude Code 2.1.332 as far as the files show it
// (docs/claude-contract.md#config, #inbox-reads, #provenance, #lifecycle, #sessions, #transcripts,
// and test/fixtures/claude-2.1.332): it owns a `session-<8 hex>` team from start to exit, names
// itself in leadProcess and sessions/<pid>.json, runs its teammates in its own process (they share
// its ledger), polls team-lead.json every second only while it has a teammate it spawned, prunes
// what it takes, sees every batch inside the "Another Claude session" wrapper in its transcript,
// removes a teammate from config when it reads its shutdown approval, and at a clean exit removes
// its sessions file and deletes the team folder (rename to `.deleted-<uuid>`, then rm -rf). Killed,
// it leaves everything.
import { randomUUID } from 'node:crypto';
import { rename, rm } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { claudeEntry, claudeSend, claudeTake, type ClaudeMessage } from './claude-inbox.js';
import { configMembers, createSessionTeamConfig, LEAD_NAME, readConfig, reclaimLead, removeFromConfig, spawnIntoConfig, type TeammateSpec } from './claude-config.js';
import { SESSION_TEAM, simTeamPaths } from './claude-paths.js';
import { spawnResult, spawnToolResult } from './spawn-result.js';
import { leadTurn, leadViewOf, teammateTerminated, type BlockInput } from './framing.js';
import { SessionFile } from './lead-session.js';
import { createRng, randomSeed } from './prng.js';
import { classifyEntry, Ledger } from './provenance.js';
import { answerText, DETAILS, frameOf, str } from './replies.js';
import { runMember, sessionIdFor, type MemberEvent, type MemberHandle } from './simulator.js';
import { DEFAULT_MODEL, leadTranscript, newPromptState, newTeammateAgentId, textResult, toolUseId, type PromptState, type Transcript } from './transcript.js';
import { exists } from './fs-exists.js';

export interface StartLeadOptions {
  teamsDir: string;
  /** An existing `session-<8 hex>` team to reclaim (a resumed lead), or the name to create; default: a new one. */
  team?: string;
  leadSessionId?: string;
  cwd?: string;
  /** leadProcess.pid and the sessions file's name (default: this process). */
  pid?: number;
  now?: () => number;
  /** team-lead.json poll (Claude: 1000 ms). */
  pollMs?: number;
  /** Teammates' inbox poll (Claude: 500 ms). */
  memberPollMs?: number;
  workMs?: [number, number];
  replyProbability?: number;
  seed?: number;
  /** End the lead cleanly this long after it started, as `/exit` would. */
  exitAfterMs?: number;
  onEvent?: (e: MemberEvent) => void;
}

export interface SpawnOptions {
  /** The Agent call's prompt: the teammate's first turn. Default: a short standing order; false: no first turn. */
  prompt?: string | false;
  /** The Agent call's description: the spawn prompt block's summary. */
  description?: string;
}

export type LeadEnd = 'exited' | 'crashed';

export interface SimLead {
  team: string;
  dir: string;
  configPath: string;
  sessionId: string;
  pid: number;
  cwd: string;
  /** False when an existing team was reclaimed. */
  created: boolean;
  ledger: Ledger;
  transcript: Transcript;
  sessionFile: string;
  seed: number;
  handles: MemberHandle[];
  /** Spawns in-process teammates (Agent calls): added to config under its lock, then run in this process. Returns their names. */
  spawn(specs: (string | (TeammateSpec & SpawnOptions))[], prompt?: string): Promise<string[]>;
  /** Runs members already in config as this lead's own teammates (a resumed lead). */
  adopt(names: string[]): void;
  /** SendMessage from the lead to a teammate: a verified entry in its inbox. */
  message(to: string, text: string, summary?: string): Promise<ClaudeMessage>;
  /** SendMessage {type:"shutdown_request"} to a teammate; resolves with the requestId. */
  requestShutdown(to: string, reason?: string): Promise<string>;
  /** Claude's clean exit (/exit, SIGTERM, SIGHUP): teammates stopped, sessions file removed, team folder deleted. */
  exit(): Promise<void>;
  /** What SIGKILL leaves: every file as it was, nothing cleaned up. */
  crash(): Promise<void>;
  done: Promise<LeadEnd>;
}

const DEFAULT_PROMPT = (name: string) => `You are ${name} on this team. Report to the lead, then wait for instructions.`;

export { spawnResult, spawnToolResult } from './spawn-result.js';

export async function startLead(opts: StartLeadOptions): Promise<SimLead> {
  const now = opts.now ?? Date.now;
  const pid = opts.pid ?? process.pid;
  const seed = opts.seed ?? randomSeed();
  const rng = createRng(seed, LEAD_NAME);
  const emit = (e: MemberEvent) => {
    try {
      opts.onEvent?.(e);
    } catch {
      // a listener's failure must not kill the lead
    }
  };
  const startedAt = now();

  let team: string;
  let sessionId: string;
  let cwd: string;
  let created: boolean;
  const existing = opts.team !== undefined && (await exists(simTeamPaths(opts.teamsDir, opts.team).configPath));
  if (existing && opts.team !== undefined) {
    if (!SESSION_TEAM.test(opts.team)) throw new Error(`${opts.team} is not a current-era team (session-<8 hex>)`);
    const p = simTeamPaths(opts.teamsDir, opts.team);
    const config = await reclaimLead(p.configPath, pid, startedAt);
    if (!config) throw new Error(`team ${opts.team} vanished while it was being reclaimed`);
    team = p.id;
    sessionId = str(config.leadSessionId) ?? randomUUID();
    cwd = str(configMembers(config).find((m) => m.name === LEAD_NAME)?.cwd) ?? opts.cwd ?? process.cwd();
    created = false;
  } else {
    sessionId = sessionIdFor(opts.team, opts.leadSessionId);
    cwd = opts.cwd ?? process.cwd();
    team = (await createSessionTeamConfig({ teamsDir: opts.teamsDir, sessionId, cwd, createdAt: startedAt, pid })).id;
    created = true;
  }
  const p = simTeamPaths(opts.teamsDir, team);
  const session = new SessionFile({ teamsDir: opts.teamsDir, pid, sessionId, cwd, startedAt, now });
  await session.start();
  await session.setStatus('idle');
  const prompt: PromptState = newPromptState();
  const transcript = leadTranscript(opts.teamsDir, { sessionId, cwd, prompt }, now);
  emit({ kind: 'team', member: LEAD_NAME, team, dir: p.dir, sessionId, pid, created });

  const ledger = new Ledger();
  const abort = new AbortController();
  const handles: MemberHandle[] = [];
  /** Teammates in the lead's team context: while there is one, it polls its inbox. */
  const live = new Set<string>();
  const requests = new Map<string, string>();
  const busy = new Set<string>();
  const setBusy = (who: string, on: boolean) => {
    if (on) busy.add(who);
    else busy.delete(who);
    // A status the sessions file did not take is superseded by the next change; the lead works on.
    void session.setStatus(busy.size > 0 ? 'busy' : 'idle').catch(() => undefined);
  };
  const pause = async (ms: number) => {
    try {
      await sleep(ms, undefined, { signal: abort.signal });
    } catch {
      // aborted
    }
  };
  const iso = () => new Date(now()).toISOString();
  const [workMin, workMax] = opts.workMs ?? [300, 2000];

  const run = (name: string, spawnPrompt?: { text: string; summary?: string; answer?: string }, agentId?: string) => {
    const h = runMember({
      era: 'current',
      teamsDir: opts.teamsDir,
      team,
      name,
      seed,
      ledger,
      prompt,
      agentId,
      spawnPrompt,
      leadRemovesMember: true,
      pollMs: opts.memberPollMs,
      workMs: opts.workMs,
      replyProbability: opts.replyProbability,
      now,
      onEvent: opts.onEvent,
      onTurn: setBusy,
      signal: abort.signal,
    });
    handles.push(h);
    live.add(name);
    // A teammate that approved its shutdown stays in the team context until the lead reads the approval.
    void h.done.then((how) => {
      if (how !== 'shutdown') live.delete(name);
    });
  };

  /** The lead's SendMessage: the tool call and its result in its transcript, the entry in the recipient's inbox. */
  const sendMessage = async (to: string, text: string, input: Record<string, unknown>, result: (m: ClaudeMessage) => Record<string, unknown>, summary?: string, at?: string): Promise<ClaudeMessage> => {
    const members = configMembers(await readConfig(p.configPath));
    // SendMessage's lookup (docs/claude-contract.md#user-answers): only a member of the team;
    // `user` has no mailbox.
    if (!members.some((m) => m.name === to && to !== LEAD_NAME)) {
      throw new Error(`No agent named '${to}' is reachable.\nCheck the spelling, or use the agent ID from a background agent's spawn result.`);
    }
    setBusy(LEAD_NAME, true);
    try {
      const id = toolUseId();
      const [call] = await transcript.assistant([{ type: 'tool_use', id, name: 'SendMessage', input }]);
      const m = claudeEntry({ from: LEAD_NAME, text, summary, timestamp: at ?? iso() });
      ledger.record(m);
      await claudeSend(p.dir, to, m);
      const said = result(m);
      await transcript.toolResult(call!, textResult(id, JSON.stringify(said)), said);
      return m;
    } finally {
      setBusy(LEAD_NAME, false);
    }
  };

  /** One of the lead's model turns over a batch: the wrapper row, then its answer. */
  const leadModelTurn = async (blocks: BlockInput[], requests: string[]) => {
    setBusy(LEAD_NAME, true);
    try {
      await transcript.recorded(leadTurn(blocks));
      emit({ kind: 'context', member: LEAD_NAME, transcript: transcript.path, from: blocks.map((b) => b.from) });
      if (requests.length > 0) {
        const ms = rng.int(workMin, workMax);
        emit({ kind: 'work', member: LEAD_NAME, from: blocks.map((b) => b.from).join(','), ms });
        await pause(ms);
        if (abort.signal.aborted) return;
        const detail = rng.pick(DETAILS);
        await transcript.text(requests.map((t, i) => answerText(t, i === requests.length - 1 ? detail : '')).join('\n'));
      } else {
        await transcript.text(`Noted: ${[...new Set(blocks.map((b) => b.from))].join(', ')}.`);
      }
    } finally {
      setBusy(LEAD_NAME, false);
    }
  };

  const leadLoop = (async () => {
    const pollMs = opts.pollMs ?? 1000;
    while (!abort.signal.aborted) {
      await pause(pollMs);
      if (abort.signal.aborted) break;
      // Claude's lead ignores team-lead.json until it has a teammate of its own, and after.
      if (live.size === 0) continue;
      let taken: ClaudeMessage[];
      try {
        const r = await claudeTake(p.inbox(LEAD_NAME));
        taken = r.messages;
        if (r.invalid.length > 0) emit({ kind: 'invalid', member: LEAD_NAME, count: r.invalid.length });
      } catch (e) {
        emit({ kind: 'error', member: LEAD_NAME, message: (e as Error).message });
        continue;
      }
      if (taken.length === 0) continue;
      const insiders = new Set<string>([LEAD_NAME]);
      for (const m of configMembers(await readConfig(p.configPath))) {
        if (typeof m.name === 'string' && (m.backendType ?? 'in-process') === 'in-process') insiders.add(m.name);
      }
      const rated = taken.map((m) => ({ m, provenance: classifyEntry(m, ledger, insiders) }));
      emit({ kind: 'consumed', member: LEAD_NAME, messages: rated.map(({ m, provenance }) => ({ from: m.from, text: m.text, timestamp: m.timestamp, provenance })) });
      const blocks: BlockInput[] = [];
      const asks: string[] = [];
      const terminated: string[] = [];
      for (const { m, provenance } of rated) {
        const frame = frameOf(m.text);
        const block: BlockInput = { from: m.from, text: leadViewOf(m.text), color: str(m.color), summary: str(m.summary) };
        if (provenance === 'forged') {
          emit({ kind: 'unverified', member: LEAD_NAME, from: m.from, text: m.text, dropped: frame !== undefined });
          if (!frame) {
            blocks.push({ ...block, forged: true });
            asks.push(m.text);
          }
          continue;
        }
        if (frame?.type === 'shutdown_approved' && provenance === 'verified') {
          // Honoured only as the answer to its own request, from the member it was sent to.
          const id = str(frame.requestId);
          if (id && requests.get(id) === m.from && frame.from === m.from) {
            requests.delete(id);
            terminated.push(m.from);
          }
        }
        blocks.push(block);
        if (!frame) asks.push(m.text);
      }
      // Found shutdown approvals: the teammate is killed and leaves config before the model sees anything.
      for (const name of terminated) {
        live.delete(name);
        // A config that is gone (the team ended meanwhile) has no member left to remove.
        if (await removeFromConfig(p.configPath, name).catch(() => false)) emit({ kind: 'left', member: name });
      }
      if (blocks.length > 0) await leadModelTurn(blocks, asks);
      // Then, from the lead's own memory (never on disk): who has shut down.
      for (const name of terminated) {
        if (abort.signal.aborted) break;
        await leadModelTurn([teammateTerminated(name)], []);
      }
    }
  })();

  let ending: Promise<void> | undefined;
  let resolveDone!: (how: LeadEnd) => void;
  const done = new Promise<LeadEnd>((r) => (resolveDone = r));
  let timer: NodeJS.Timeout | undefined;
  const halt = async () => {
    if (timer) clearTimeout(timer);
    abort.abort();
    await leadLoop;
    await Promise.all(handles.map((h) => h.stop()));
    await transcript.flush();
  };

  const lead: SimLead = {
    team,
    dir: p.dir,
    configPath: p.configPath,
    sessionId,
    pid,
    cwd,
    created,
    ledger,
    transcript,
    sessionFile: session.path,
    seed,
    handles,
    spawn: async (specs, typed) => {
      const list = specs.map((s) => (typeof s === 'string' ? { name: s } : s));
      if (list.length === 0) return [];
      setBusy(LEAD_NAME, true);
      try {
        // A lead spawns from a model turn, and its first turn answers a prompt typed by the user.
        if (prompt.turnIndex === 0 || typed !== undefined) await transcript.typed(typed ?? `Start a team: ${list.map((s) => s.name).join(', ')}.`);
        const names = await spawnIntoConfig(p.configPath, list, { now, cwd });
        const entries = configMembers(await readConfig(p.configPath));
        const calls = names.map((name, i) => {
          const s = list[i]!;
          const text = s.prompt === false ? undefined : s.prompt ?? DEFAULT_PROMPT(name);
          // A teammate given the standing order just reports in; one given a task answers it.
          const answer = s.prompt === undefined ? `${name}: ready for instructions.` : undefined;
          return { name, text, answer, description: s.description ?? `${name} joins the team`, agentId: newTeammateAgentId(name), id: toolUseId(), entry: entries.find((e) => e.name === name) };
        });
        // One reply with an Agent call per teammate (a row per call), then each call's result.
        const rows = await transcript.assistant(
          calls.map((c) => ({ type: 'tool_use', id: c.id, name: 'Agent', input: { description: c.description, prompt: c.text ?? '', name: c.name, subagent_type: 'general-purpose' } })),
        );
        for (const [i, c] of calls.entries()) {
          const info = spawnToolResult({ agentId: c.agentId, name: c.name, team, prompt: c.text ?? '', model: str(c.entry?.model) ?? DEFAULT_MODEL, color: str(c.entry?.color), cwd, sessionId });
          await transcript.toolResult(rows[i]!, textResult(c.id, spawnResult(c.agentId, c.name)), info);
          run(c.name, c.text === undefined ? undefined : { text: c.text, summary: c.description, answer: c.answer }, c.agentId);
        }
        await transcript.text(`Team is up: ${names.join(', ')}.`);
        return names;
      } finally {
        setBusy(LEAD_NAME, false);
      }
    },
    adopt: (names) => {
      for (const name of names) if (!live.has(name)) run(name);
    },
    message: (to, text, summary) =>
      sendMessage(
        to,
        text,
        { to, ...(summary !== undefined ? { summary } : {}), message: text, type: 'message', recipient: to, recipient_kind: 'name', content: text },
        (m) => ({ success: true, message: `Message sent to ${to}'s inbox`, msg_id: m.msg_id }),
        summary,
      ),
    requestShutdown: async (to, reason) => {
      const at = now();
      const requestId = `shutdown-${at}@${to}`;
      const frame: Record<string, unknown> = { type: 'shutdown_request', requestId, from: LEAD_NAME };
      if (reason !== undefined) frame.reason = reason;
      frame.timestamp = new Date(at).toISOString();
      requests.set(requestId, to);
      const message: Record<string, unknown> = { type: 'shutdown_request' };
      if (reason !== undefined) message.reason = reason;
      await sendMessage(
        to,
        JSON.stringify(frame),
        { to, message, type: 'shutdown_request', recipient: to, recipient_kind: 'name', content: reason ?? '' },
        () => ({ success: true, message: `Shutdown request sent to ${to}. Request ID: ${requestId}`, request_id: requestId, target: to }),
        undefined,
        frame.timestamp as string,
      );
      return requestId;
    },
    exit: () =>
      (ending ??= (async () => {
        await halt();
        await session.remove();
        const gone = `${p.dir}.deleted-${randomUUID()}`;
        let moved = true;
        try {
          await rename(p.dir, gone);
        } catch (e) {
          if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
          moved = false;
        }
        for (let i = 0; moved && i < 3; i++) {
          try {
            await rm(gone, { recursive: true, force: true });
            break;
          } catch {
            // Claude tries three times, then leaves it
          }
        }
        emit({ kind: 'team-deleted', member: LEAD_NAME, team });
        emit({ kind: 'exit', member: LEAD_NAME, reason: 'stopped' });
        resolveDone('exited');
      })()),
    crash: () =>
      (ending ??= (async () => {
        await halt();
        resolveDone('crashed');
      })()),
    done,
  };
  if (opts.exitAfterMs !== undefined) timer = setTimeout(() => void lead.exit(), opts.exitAfterMs);
  return lead;
}
