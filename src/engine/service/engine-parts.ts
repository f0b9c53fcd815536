// How the engine's parts are made and joined. Each part is given, by name, the few functions it
// needs of the others (closures over `p`, which resolve when they are called, once every part
// exists); nothing else crosses between them. The facade (team-service.ts) holds the parts and
// routes each call to one of them.
import { lstat } from 'node:fs/promises';
import { join } from 'node:path';
import type { AppEvent } from '../../shared/contract.js';
import type { NeedItem } from '../../shared/types.js';
import { Deliveries } from '../delivery/deliveries.js';
import { DEFAULT_BACKOFF, type BackoffOptions } from '../delivery/outbox.js';
import { InboxIngest } from '../ingest/inbox-ingest.js';
import { answerToSocket } from '../ingest/socket-answers.js';
import { pollTeam, pollTranscripts, type ReceiptsContext } from '../ingest/transcript-receipts.js';
import { LiveViews } from '../live/live-views.js';
import { SearchIndex } from '../search/search-index.js';
import { TeamDirectory } from '../teams/team-directory.js';
import { UsageBook } from '../usage/usage-book.js';
import { TranscriptImport } from '../teams/transcript-import.js';
import { LeadActions } from './lead-actions.js';
import { MemberChannels } from './member-channels.js';
import { ReadSchedule } from './read-schedule.js';
import type { TeamServiceOptions } from './service-types.js';

export const DEFAULT_MAX_PENDING = 64;

export interface EngineParts {
  /** The hosted lead terminals and Claude's messaging sockets, and which one a send takes. */
  memberChannels: MemberChannels;
  /** The Steer model: every send, its queue and its states. */
  delivery: Deliveries;
  /** The teams' inboxes, read into their histories. */
  inboxes: InboxIngest;
  /** Which teams there are, running or ended, and telling the window about them. */
  dir: TeamDirectory;
  /** Every team's history, searchable: follows the journals. */
  searchIndex: SearchIndex;
  /** Activity, timelines, tasks and needs: Claude's files outside the teams root. */
  live: LiveViews;
  /** The first read, the watcher, the tick and its safety net, the seen poll. */
  reading: ReadSchedule;
  /** What each team spent, its prices and budgets (usage/). */
  usage: UsageBook;
  /** Reads what the teams' transcripts gained now (a one-shot command reads them to their end). */
  pollTranscripts: () => Promise<void>;
  /** Teams found in Claude's transcripts, read in the background and listed as ended. */
  importer: TranscriptImport;
  /** Answers, interrupts and plan answers typed into a lead's terminal for the user. */
  leadActions: LeadActions;
}

export interface PartsOptions extends TeamServiceOptions {
  configDir: string;
  now: () => number;
  watch: boolean;
  backoff?: BackoffOptions;
  rescanMs?: number;
  safetyNetMs?: number;
}

/** What the facade holds that the parts read when they ask: its events, and its settings as they are now. */
export interface FacadeState {
  emit: (e: AppEvent) => void;
  senderName: () => string;
  idleMs: () => number;
  stopping: () => boolean;
}

export function buildEngine(opts: PartsOptions, f: FacadeState): EngineParts {
  const { teamsRoot, stateDir, configDir, now, watch } = opts;
  const { emit, senderName, stopping } = f;
  const p = {} as EngineParts;
  const teams = () => p.dir.teams.values();
  const schedule = (key: string) => p.reading.schedule(key);
  p.memberChannels = new MemberChannels({
    configDir, teamsRoot, now, senderName, teams, emit, terminalHost: opts.terminalHost,
    // Nobody waits on a socket answer: one the journal did not take is lost from the thread, said as the team's problem.
    onReply: (rt, line, replyTo) =>
      void answerToSocket({ now, senderName, emit, delivery: p.delivery }, rt, line, replyTo).catch((e: Error) =>
        p.dir.teamProblem(rt, 'socket-answer', { kind: 'journal', file: `journal/${rt.id}`, message: `${rt.lead?.name ?? 'the lead'}'s answer on Teamdeck's messaging socket could not be written to the journal (${e.message}), so it is not in the thread` }, true),
      ),
    onStatus: (rt, id) => p.delivery.announceMessage(rt, id),
    sessionOf: (rt) => p.live.sessionOf(rt),
    readSession: (rt, pid) => p.live.readSessionNow(rt, pid),
    onIdle: () => schedule('seen'),
    kick: (team) => {
      const rt = p.dir.teams.get(team);
      if (rt) p.delivery.kickTerminal(rt);
    },
  });
  p.delivery = new Deliveries({
    teamsRoot, stateDir, now, emit, terminal: p.memberChannels.hosted.channelContext(), socket: p.memberChannels.sockets,
    backoff: opts.backoff ?? DEFAULT_BACKOFF,
    maxPending: opts.maxPendingPerTarget ?? DEFAULT_MAX_PENDING,
  });
  p.inboxes = new InboxIngest({
    teamsRoot, stateDir, now, emit, delivery: p.delivery,
    problem: (rt, key, problem, announce) => p.dir.teamProblem(rt, key, problem, announce),
    problemGone: (rt, key, announce) => p.dir.problemGone(rt, key, announce),
    membersChanged: (rt) => p.dir.refreshMembers(rt),
    compact: (rt) => p.dir.compactJournal(rt, true),
    scheduleSeenPoll: () => p.reading.scheduleSeenPoll(),
  });
  p.dir = new TeamDirectory({
    teamsRoot, stateDir, configDir, now, emit, senderName, stopping, schedule, delivery: p.delivery, inboxes: p.inboxes,
    idleMs: f.idleMs,
    // A team's line in the list names the terminal its lead runs in, where this engine hosts it.
    decorate: (summaries) => p.live.withVersions(p.memberChannels.decorate(summaries)),
    // What members do follows from the roster.
    onRoster: (rt) => p.live.announceActivity(rt),
    onClose: (rt) => p.live.forget(rt.id),
    onJournalWritten: (dir) => p.searchIndex.noteWritten(dir),
    claudeVersionOf: (rt) => p.live.versionOf(rt),
  });
  p.searchIndex = new SearchIndex({
    stateDir,
    onProblem: (message) => p.dir.problem({ kind: 'journal', file: 'search/index.sqlite', message }),
  });
  p.live = new LiveViews({
    configDir, now, emit, senderName, teams, schedule, stopping, watch,
    waitReason: (rt, id) => p.delivery.waitReasonOf(rt, id),
    inboxes: (rt) => p.inboxes.owners(rt).map((owner) => ({ owner, messages: p.inboxes.countOf(rt, owner) })),
    // The messages Claude holds for its user's approval join the queue; a permission prompt of
    // a lead this engine hosts opens its terminal.
    withChannels: (needs) => p.leadActions.decorateNeeds(p.memberChannels.needs(withBudgets(needs, p))),
    decorateActivity: (rt, activity) => p.leadActions.decorateActivity(rt, activity),
    // The lead's sessions status moved (a dialog opened or closed): typed messages may go now.
    onActivity: (rt) => p.delivery.kickTerminal(rt),
    // An ended team's version is learned as it is read (an import reads hundreds): remembered, and told soon, once.
    onVersion: (rt) => void p.dir.versionChanged(rt),
  });
  const receipts: ReceiptsContext = {
    now, emit, senderName, teams, delivery: p.delivery,
    onRows: (rt, rows) => {
      p.live.onTranscriptRows(rt, rows);
      p.usage.onTranscriptRows(rt.id, rows);
    },
    addAgents: (rt, agents) => p.dir.addTranscriptAgents(rt, agents),
    rosterChanged: (rt) => p.dir.announceRoster(rt),
    scheduleSeenPoll: () => p.reading.scheduleSeenPoll(),
    // An ended team's line counts its messages: it follows what its transcripts added.
    recorded: (rt) => p.dir.recorded(rt),
  };
  p.usage = new UsageBook({
    stateDir, now,
    changed: (team) => {
      emit({ type: 'usage', team, usage: p.usage.report(team, { series: true, order: rosterOrder(p, team) }) });
      // A spend may have crossed a budget's mark.
      p.live.scheduleNeeds();
    },
    // A prices file that parses again takes its problem away (the next snapshot shows none).
    pricesProblem: (message) => (message ? p.dir.problem({ kind: 'prices', file: 'prices.json', message }) : void p.dir.globalProblems.delete('prices:prices.json')),
  });
  p.pollTranscripts = () => pollTranscripts(receipts);
  p.importer = new TranscriptImport({
    configDir, stateDir, emit, stopping,
    isRunning: (id) => {
      const rt = p.dir.teams.get(id);
      return rt !== undefined && !rt.ended;
    },
    inTeamsRoot: (id) => lstat(join(teamsRoot, id)).then(() => true, () => false),
    openTeam: (id) => p.dir.openTeam(id),
    poll: async (rt) => (await pollTeam(receipts, rt)).rows,
    noteEnded: (rt) => {
      p.usage.settle(rt.id);
      p.dir.ended.note(rt);
      p.dir.announceTeamsSoon();
    },
  });
  p.leadActions = new LeadActions({
    stateDir, now, emit,
    resolve: (team) => p.dir.resolveTeam(team),
    team: (id) => p.dir.teams.get(id),
    teams,
    needs: async () => {
      // A one-shot engine follows no watch: the sessions are read as they are now.
      if (!watch) await p.live.readSessions();
      return p.live.needs();
    },
    hosted: p.memberChannels.hosted,
    sessionOf: (rt) => p.live.sessionOf(rt),
    changed: (rt) => p.live.announceActivity(rt),
  });
  p.reading = new ReadSchedule({
    teamsRoot, now, stopping, dir: p.dir, inboxes: p.inboxes, live: p.live, watch,
    pollTranscripts: () => pollTranscripts(receipts),
    openInBackground: opts.openInBackground ?? false,
    rescanMs: opts.rescanMs ?? 2_000,
    safetyNetMs: opts.safetyNetMs,
  });
  return p;
}

/** The members of a team in its roster's order, for its usage table. */
export function rosterOrder(p: EngineParts, team: string): string[] {
  const rt = p.dir.teams.get(team);
  return rt?.config?.members.map((m) => m.name) ?? [];
}

/** The needs with the budgets' (only running teams' budgets: an ended team spends no more), newest first. */
function withBudgets(needs: NeedItem[], p: EngineParts): NeedItem[] {
  const budget = p.usage.needs((team) => {
    const rt = p.dir.teams.get(team);
    return rt !== undefined && !rt.ended;
  });
  if (budget.length === 0) return needs;
  return [...needs, ...budget].sort((a, b) => b.since - a.since || a.id.localeCompare(b.id));
}
