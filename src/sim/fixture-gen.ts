// Seeded fixture teams in Claude Code's exact on-disk format, for benchmarks and load tests:
// N teams x M members x K messages of history, with the protocol frames Claude mixes into the
// inboxes (task assignments, idle notifications, plan approvals, shutdowns), teammates' answers
// to the user in user.json, configs laid out the way Claude writes them, and optionally one
// inbox per team grown to a given size or one very long thread. The same options and seed
// always write the same bytes.
import { lstat, mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { inboxFileStem, teamDirName } from '../engine/claude/paths.js';
import { createRng, type Rng } from './prng.js';

export const LEAD = 'team-lead';
export const USER = 'user';

/** Claude hands teammates colours in this order. */
const COLORS = ['blue', 'green', 'yellow', 'purple', 'orange', 'pink', 'cyan', 'red'] as const;
/** Teammates in a real team are named for their role. */
const ROLES = [
  'researcher',
  'implementer',
  'tester',
  'reviewer',
  'frontend-dev',
  'backend-dev',
  'docs-writer',
  'security-auditor',
  'perf-analyst',
  'db-migrator',
  'api-designer',
  'release-manager',
] as const;
const ADJECTIVES = ['humble', 'moonlit', 'brisk', 'quiet', 'golden', 'rapid', 'patient', 'silver', 'clever', 'gentle', 'bold', 'misty', 'sunny', 'steady', 'eager', 'lucky'];
const VERBS = ['chasing', 'dancing', 'hopping', 'drifting', 'gliding', 'racing', 'digging', 'singing', 'weaving', 'roaming', 'climbing', 'diving'];
const ANIMALS = ['goose', 'meerkat', 'otter', 'falcon', 'badger', 'heron', 'lynx', 'marmot', 'puffin', 'gecko', 'walrus', 'koala', 'ibex', 'raven', 'tapir', 'yak'];
const PROJECTS = [
  'Harden the auth service and its session handling',
  'Move the billing webhooks to the new queue',
  'Cut p99 latency of the search API',
  'Migrate the orders tables without downtime',
  'Make the upload client resumable',
  'Bring the docs in line with the v3 API',
  'Stabilise the flaky integration suite',
  'Add rate limiting to the public endpoints',
];
const SUBJECTS = [
  'the auth middleware',
  'session refresh',
  'the upload client',
  'the retry policy',
  'the billing webhook handler',
  'the orders migration',
  'the flaky checkout test',
  'the LRU cache',
  'rate limiting',
  'the search indexer',
  'the CI pipeline',
  'error reporting',
  'the settings page',
  'the nightly export job',
  'websocket reconnects',
  'the config loader',
];
const ACTIONS = ['check', 'fix', 'profile', 'refactor', 'document', 'review', 'add tests for', 'trace', 'benchmark', 'simplify'];
const FILES = [
  'src/auth/session.ts',
  'src/api/upload.ts',
  'src/db/migrations/0042_orders.sql',
  'src/workers/export.ts',
  'test/integration/billing.test.ts',
  'src/cache/lru.ts',
  'src/server/ws.ts',
  'docs/architecture.md',
  'src/config/load.ts',
  'src/search/indexer.ts',
  'src/api/rate-limit.ts',
  'src/ui/settings/Page.tsx',
];
const FINDINGS = [
  'the refresh token is re-used after logout',
  'two requests race on the same cache key',
  'the retry loop never backs off past 200 ms',
  'the migration holds a table lock for the whole backfill',
  'an unawaited promise swallows the error',
  'the index is rebuilt on every deploy',
  'the test depends on wall-clock time',
  'the handler parses the body twice',
  'a missing index makes the lookup a full scan',
  'the reconnect timer is never cleared',
];
const OUTCOMES = ['All tests pass.', 'CI is green.', 'Two edge cases are left for review.', 'Nothing else changed.', 'Notes are in the task file.', 'Ready for the next step.', 'p99 went from 840 ms to 95 ms.', 'No schema change was needed.'];
const CODE = [
  "```ts\nconst res = await fetchWithRetry(url, { retries: 3, baseMs: 200 });\nif (!res.ok) throw new UploadError(res.status);\n```",
  "```sql\nCREATE INDEX CONCURRENTLY orders_customer_idx ON orders (customer_id);\n```",
  "```ts\nexport function backoff(attempt: number): number {\n  return Math.min(5_000, 200 * 2 ** attempt) * (0.5 + Math.random() / 2);\n}\n```",
  "```diff\n- await session.refresh();\n+ if (!session.revoked) await session.refresh();\n```",
  "```sh\nnpm test -- --run test/integration/billing.test.ts\n```",
];

export type GenMode = 'flag' | 'prune';

export interface GenOptions {
  teamsDir: string;
  /** N teams (default 1). */
  teams?: number;
  /** M members per team, the lead included, as in config.json's members (default 4, at least 2). */
  members?: number;
  /** K messages of history per team (default 200); per member with perMember. */
  messages?: number;
  perMember?: boolean;
  /** Grow inboxOwner's inbox in every team to about this many bytes with older history. */
  inboxBytes?: number;
  /** Whose inbox inboxBytes grows (default team-lead; `user` is the user's inbox). */
  inboxOwner?: string;
  /** Adds a thread of this many messages between the user and the first teammate of the team listed first (by folder name). */
  thread?: number;
  /**
   * flag (default): what members read stays in their inbox flagged read (Claude 2.1.8x), so the
   * whole history is on disk; prune: read messages are gone (2.1.19x), only the unread tail and
   * user.json (which nothing consumes) keep messages.
   */
  mode?: GenMode;
  /** Teammates per team that approved a shutdown at the end of the history (default 1 when the team has 3 or more). */
  shutdowns?: number;
  /** Default 1: the same seed writes the same bytes. */
  seed?: number;
  /** Time of the newest message, ms since epoch (default 2026-02-09T16:00:00Z). */
  end?: number;
  /** The project folder written into config.json. */
  cwd?: string;
  /** Replace team folders that already exist (default: refuse). */
  force?: boolean;
  /** Write only the teams with these indexes (from inclusive, to exclusive): the same bytes as the whole run writes for them. */
  only?: { from: number; to: number };
}

export interface GenInbox {
  owner: string;
  messages: number;
  bytes: number;
}

export interface GenTeam {
  id: string;
  name: string;
  dir: string;
  lead: string;
  /** Teammates in roster order (lead excluded), terminated ones included. */
  teammates: string[];
  terminated: string[];
  /** Messages written in this team's inboxes, filler and long thread included. */
  messages: number;
  /** Messages of history (K), without filler and long thread. */
  history: number;
  inboxes: GenInbox[];
  longThread?: { member: string; messages: number };
}

export interface GenResult {
  teamsDir: string;
  seed: number;
  mode: GenMode;
  teams: GenTeam[];
  messages: number;
  bytes: number;
}

export const DEFAULT_END = Date.parse('2026-02-09T16:00:00.000Z');

interface Msg {
  from: string;
  text: string;
  summary?: string;
  timestamp: string;
  color?: string;
  read: boolean;
  [k: string]: unknown;
}

/** A message before its time is fixed: history is generated forward, then shifted to end at `end`. */
interface Pending {
  owner: string;
  t: number;
  /** Whether the owner's poll has taken it (decides read:true or pruned). */
  consumed: boolean;
  make: (iso: string) => Msg;
}

function uuid(rng: Rng): string {
  const h = () => rng.int(0, 0xffff).toString(16).padStart(4, '0');
  return `${h()}${h()}-${h()}-4${h().slice(1)}-${(8 + rng.int(0, 3)).toString(16)}${h().slice(1)}-${h()}${h()}${h()}`;
}

/** Bytes one entry takes inside Claude's `JSON.stringify(array, null, 2)`, its separator included. */
function entryBytes(m: Msg): number {
  const s = JSON.stringify(m, null, 2);
  let lines = 1;
  for (let i = s.indexOf('\n'); i >= 0; i = s.indexOf('\n', i + 1)) lines++;
  return Buffer.byteLength(s, 'utf8') + lines * 2 + 2;
}

class Words {
  constructor(private readonly rng: Rng) {}
  pick<T>(list: readonly T[]): T {
    return this.rng.pick(list);
  }
  request(): { text: string; summary: string } {
    const subject = this.pick(SUBJECTS);
    const action = this.pick(ACTIONS);
    const forms = [
      () => `Please ${action} ${subject}.`,
      () => `Can you ${action} ${subject}? Start with \`${this.pick(FILES)}\`.`,
      () => `What happens to ${subject} when ${this.pick(FINDINGS)}?`,
      () => `Next: ${action} ${subject}, then tell me what you changed and why.\n\nKeep the public API as it is.`,
    ];
    return { text: this.pick(forms)(), summary: `${action[0]!.toUpperCase()}${action.slice(1)} ${subject}`.slice(0, 48) };
  }
  reply(): { text: string; summary: string } {
    const subject = this.pick(SUBJECTS);
    const file = this.pick(FILES);
    const finding = this.pick(FINDINGS);
    const forms = [
      () => `Done: ${subject} is fixed in \`${file}\`. ${this.pick(OUTCOMES)}`,
      () => `Found it: ${finding}.\n\n- cause: \`${file}\`\n- fix: guard the call and add a regression test\n- risk: low\n\n${this.pick(OUTCOMES)}`,
      () => `Done with ${subject}.\n\n${this.pick(CODE)}\n\n${this.pick(OUTCOMES)}`,
      () => `Short answer: ${finding}. Details are in \`${file}\`.`,
      () => `**${subject}**: three things changed.\n\n1. ${this.pick(FINDINGS)}\n2. ${this.pick(FINDINGS)}\n3. ${this.pick(FINDINGS)}\n\n${this.pick(OUTCOMES)} ${this.pick(OUTCOMES)}`,
    ];
    return { text: this.pick(forms)(), summary: `${subject}: ${this.pick(['done', 'fixed', 'findings', 'answer', 'report'])}`.slice(0, 48) };
  }
  report(): { text: string; summary: string } {
    const subject = this.pick(SUBJECTS);
    const lines = Array.from({ length: this.rng.int(2, 6) }, () => `- ${this.pick(FINDINGS)} (\`${this.pick(FILES)}\`)`);
    const code = this.rng.chance(0.3) ? `\n\n${this.pick(CODE)}` : '';
    const text = `Task complete: ${subject}.\n\nKey findings:\n${lines.join('\n')}${code}\n\n${this.pick(OUTCOMES)}`;
    return { text, summary: `${subject} done`.slice(0, 48) };
  }
  instruction(): { text: string; summary: string } {
    const subject = this.pick(SUBJECTS);
    return {
      text: `${this.pick(['Thanks.', 'Good.', 'Noted.'])} Now ${this.pick(ACTIONS)} ${subject}; coordinate with the others before touching \`${this.pick(FILES)}\`.`,
      summary: `Next: ${subject}`.slice(0, 48),
    };
  }
  peer(): string {
    return this.pick([
      `Heads up: I am changing \`${this.pick(FILES)}\`, please hold off for a few minutes.`,
      `Did you see that ${this.pick(FINDINGS)}? It may explain your failure.`,
      `Pushed my part of ${this.pick(SUBJECTS)}; your turn.`,
      `Can you review my change to ${this.pick(SUBJECTS)}?`,
    ]);
  }
}

interface TeamPlan {
  name: string;
  id: string;
  teammates: string[];
  terminated: Set<string>;
}

function teamName(rng: Rng, used: Set<string>): string {
  for (;;) {
    const n = `${rng.pick(ADJECTIVES)}-${rng.pick(VERBS)}-${rng.pick(ANIMALS)}`;
    if (!used.has(n)) {
      used.add(n);
      return n;
    }
    if (used.size >= ADJECTIVES.length * VERBS.length * ANIMALS.length) return `${n}-${used.size}`;
  }
}

function roleNames(n: number): string[] {
  return Array.from({ length: n }, (_, i) => (i < ROLES.length ? ROLES[i]! : `worker-${i + 1 - ROLES.length}`));
}

/** Generates one team's traffic in time order; returns pending messages per owner. */
function generateHistory(
  rng: Rng,
  words: Words,
  plan: TeamPlan,
  total: number,
  colorOf: (m: string) => string | undefined,
): { pending: Pending[]; end: number } {
  const pending: Pending[] = [];
  const mates = plan.teammates;
  const live = mates.filter((m) => !plan.terminated.has(m));
  // Some teammates are much busier than others, as in real teams.
  const weights = mates.map((_, i) => 1 / Math.pow(i + 1, 0.7));
  const sum = weights.reduce((a, b) => a + b, 0);
  const busy = (pool: string[]) => {
    for (;;) {
      let r = rng.next() * sum;
      for (let i = 0; i < mates.length; i++) {
        r -= weights[i]!;
        if (r <= 0) {
          if (pool.includes(mates[i]!)) return mates[i]!;
          break;
        }
      }
      if (pool.length === 1) return pool[0]!;
    }
  };
  let t = 0;
  let taskId = 0;
  let count = 0;
  const add = (owner: string, make: (iso: string) => Msg) => {
    t += rng.int(2_000, 90_000);
    pending.push({ owner, t, consumed: true, make });
    count++;
  };
  const idle = (m: string) => {
    const idleReason = rng.chance(0.85) ? 'available' : 'interrupted';
    add(LEAD, (iso) => ({
      from: m,
      text: JSON.stringify({ type: 'idle_notification', from: m, timestamp: iso, idleReason }),
      timestamp: iso,
      color: colorOf(m),
      read: true,
    }));
  };
  // Members that will shut down work until the end, then the shutdowns close the history.
  const closing = plan.terminated.size * 2;
  while (count < total - closing) {
    const roll = rng.next();
    const pool = live.length && rng.chance(0.85) ? live : mates;
    const m = busy(pool);
    if (roll < 0.3) {
      // The user asks, the member answers in user.json, then goes idle.
      const q = words.request();
      const id = uuid(rng);
      add(m, (iso) => ({ from: USER, text: q.text, summary: q.summary, timestamp: iso, read: true, type: 'message', msgV: 1, msg_id: id, messageId: id }));
      const a = words.reply();
      add(USER, (iso) => ({ from: m, text: a.text, summary: a.summary, timestamp: iso, color: colorOf(m), read: false }));
      if (rng.chance(0.7)) idle(m);
    } else if (roll < 0.55) {
      // The lead assigns a task; the member reports back and goes idle.
      const id = String(++taskId);
      const subject = `${words.pick(ACTIONS)} ${words.pick(SUBJECTS)}`;
      const description = `${words.request().text} Write what you find in the task file.`;
      add(m, (iso) => ({
        from: LEAD,
        text: JSON.stringify({
          type: 'task_assignment',
          taskId: id,
          subject: subject[0]!.toUpperCase() + subject.slice(1),
          description,
          assignedBy: LEAD,
          timestamp: iso,
        }),
        timestamp: iso,
        read: true,
      }));
      if (rng.chance(0.5)) {
        const r = words.report();
        add(LEAD, (iso) => ({ from: m, text: r.text, summary: r.summary, timestamp: iso, color: colorOf(m), read: true }));
      }
      idle(m);
    } else if (roll < 0.72) {
      // Idle notifications pile up in the lead's inbox.
      idle(m);
    } else if (roll < 0.84) {
      const ins = words.instruction();
      add(m, (iso) => ({ from: LEAD, text: ins.text, summary: ins.summary, timestamp: iso, read: true }));
    } else if (roll < 0.95 && mates.length > 1) {
      // Teammate to teammate.
      const others = pool.filter((x) => x !== m);
      const to = others.length ? rng.pick(others) : rng.pick(mates.filter((x) => x !== m));
      const text = words.peer();
      add(to, (iso) => ({ from: m, text, summary: text.slice(0, 40), timestamp: iso, color: colorOf(m), read: true }));
      if (rng.chance(0.5)) {
        const back = words.peer();
        add(m, (iso) => ({ from: to, text: back, summary: back.slice(0, 40), timestamp: iso, color: colorOf(to), read: true }));
      }
    } else {
      // A plan for approval, and the lead's answer.
      const requestId = `plan-${uuid(rng).slice(0, 8)}@${m}`;
      const subject = words.pick(SUBJECTS);
      const step = words.pick(FINDINGS);
      const approved = rng.chance(0.8);
      add(LEAD, (iso) => ({
        from: m,
        text: JSON.stringify({
          type: 'plan_approval_request',
          from: m,
          timestamp: iso,
          planFilePath: `.claude/plans/${inboxFileStem(m)}-${requestId.slice(5, 13)}.md`,
          planContent: `# Plan: ${subject}\n\n1. Reproduce\n2. ${step}\n3. Fix and test`,
          requestId,
        }),
        timestamp: iso,
        color: colorOf(m),
        read: true,
      }));
      add(m, (iso) => ({
        from: LEAD,
        text: JSON.stringify({ type: 'plan_approval_response', requestId, approved, ...(approved ? {} : { feedback: 'Split the migration into two steps first.' }), timestamp: iso }),
        timestamp: iso,
        read: true,
      }));
    }
  }
  // Episodes add a few messages at a time: the history stops at exactly K, mid-conversation.
  pending.length = Math.min(pending.length, Math.max(0, total - closing));
  for (const m of plan.terminated) {
    let requestMs = 0;
    add(m, (iso) => {
      requestMs = Date.parse(iso);
      return {
        from: LEAD,
        text: JSON.stringify({ type: 'shutdown_request', requestId: `shutdown-${requestMs}@${m}`, from: LEAD, reason: 'Work is complete. Shutting down the team. Thank you!', timestamp: iso }),
        timestamp: iso,
        read: true,
      };
    });
    add(LEAD, (iso) => ({
      from: m,
      text: JSON.stringify({ type: 'shutdown_approved', requestId: `shutdown-${requestMs}@${m}`, from: m, timestamp: iso, paneId: 'in-process', backendType: 'in-process' }),
      timestamp: iso,
      color: colorOf(m),
      read: true,
    }));
  }
  return { pending, end: t };
}

function configFor(plan: TeamPlan, rng: Rng, words: Words, createdAt: number, cwd: string, colorOf: (m: string) => string | undefined): Record<string, unknown> {
  const members: Record<string, unknown>[] = [
    {
      agentId: `${LEAD}@${plan.name}`,
      name: LEAD,
      agentType: 'team-lead',
      model: 'claude-opus-4-6',
      joinedAt: createdAt,
      tmuxPaneId: '',
      cwd,
      subscriptions: [],
    },
  ];
  plan.teammates.forEach((m, i) => {
    const joinedAt = createdAt + 30_000 + i * rng.int(4_000, 9_000);
    // The lead removes a member from the config once its shutdown is approved.
    if (plan.terminated.has(m)) return;
    const tmux = i % 3 === 2;
    const entry: Record<string, unknown> = {
      agentId: `${m}@${plan.name}`,
      name: m,
      agentType: i % 4 === 1 ? 'Explore' : 'general-purpose',
      model: rng.pick(['claude-opus-4-6', 'sonnet', 'haiku']),
      prompt: `You are part of the ${plan.name} team. ${words.request().text} Report to the lead when done.`,
      color: colorOf(m),
      planModeRequired: false,
      joinedAt,
      tmuxPaneId: tmux ? `%${i + 2}` : 'in-process',
      cwd,
      subscriptions: [],
      backendType: tmux ? 'tmux' : 'in-process',
    };
    if (tmux) entry.isActive = true;
    members.push(entry);
  });
  return {
    name: plan.name,
    description: words.pick(PROJECTS),
    createdAt,
    leadAgentId: `${LEAD}@${plan.name}`,
    leadSessionId: uuid(rng),
    members,
  };
}

/** Claude's current writer: the whole file to `<file>.tmp.<8 hex>`, renamed over the target. */
async function writeLikeClaude(path: string, text: string, rng: Rng): Promise<void> {
  const tmp = `${path}.tmp.${rng.int(0, 0xffffffff).toString(16).padStart(8, '0')}`;
  await writeFile(tmp, text);
  await rename(tmp, path);
}

async function exists(p: string): Promise<boolean> {
  return lstat(p).then(
    () => true,
    () => false,
  );
}

/** Filler addressed to `owner`, older than the history, until its inbox holds about `bytes`. */
function filler(rng: Rng, words: Words, owner: string, teammates: string[], colorOf: (m: string) => string | undefined): (iso: string) => Msg {
  const m = rng.pick(teammates.filter((x) => x !== owner).length ? teammates.filter((x) => x !== owner) : teammates);
  if (owner === USER) {
    const a = words.reply();
    return (iso) => ({ from: m, text: a.text, summary: a.summary, timestamp: iso, color: colorOf(m), read: false });
  }
  if (owner === LEAD) {
    if (rng.chance(0.55)) {
      return (iso) => ({ from: m, text: JSON.stringify({ type: 'idle_notification', from: m, timestamp: iso, idleReason: 'available' }), timestamp: iso, color: colorOf(m), read: true });
    }
    const r = words.report();
    return (iso) => ({ from: m, text: r.text, summary: r.summary, timestamp: iso, color: colorOf(m), read: true });
  }
  if (rng.chance(0.5)) {
    const ins = words.instruction();
    return (iso) => ({ from: LEAD, text: ins.text, summary: ins.summary, timestamp: iso, read: true });
  }
  const text = words.peer();
  return (iso) => ({ from: m, text, summary: text.slice(0, 40), timestamp: iso, color: colorOf(m), read: true });
}

export async function generateTeams(opts: GenOptions): Promise<GenResult> {
  const nTeams = opts.teams ?? 1;
  const nMembers = opts.members ?? 4;
  const perTeam = opts.messages ?? 200;
  const mode = opts.mode ?? 'flag';
  const seed = opts.seed ?? 1;
  const end = opts.end ?? DEFAULT_END;
  const cwd = opts.cwd ?? '/home/dev/projects/app';
  if (!Number.isInteger(nTeams) || nTeams < 1) throw new RangeError('teams must be an integer >= 1');
  if (!Number.isInteger(nMembers) || nMembers < 2) throw new RangeError('members must be an integer >= 2 (the lead and one teammate)');
  if (!Number.isInteger(perTeam) || perTeam < 0) throw new RangeError('messages must be an integer >= 0');
  const rootRng = createRng(seed, 'teams');
  const used = new Set<string>();
  const result: GenResult = { teamsDir: opts.teamsDir, seed, mode, teams: [], messages: 0, bytes: 0 };
  await mkdir(opts.teamsDir, { recursive: true });

  const names = Array.from({ length: nTeams }, () => teamName(rootRng, used));
  // The long thread goes to the team listed first (by folder name): the one the app opens first.
  const longIn = names.map(teamDirName).reduce((best, id, i, ids) => (id < ids[best]! ? i : best), 0);
  for (let ti = 0; ti < nTeams; ti++) {
    if (opts.only && (ti < opts.only.from || ti >= opts.only.to)) continue;
    const name = names[ti]!;
    const rng = createRng(seed, `team:${ti}`);
    const words = new Words(rng);
    const teammates = roleNames(nMembers - 1);
    const shutdowns = Math.min(opts.shutdowns ?? (teammates.length >= 3 ? 1 : 0), teammates.length - 1);
    const plan: TeamPlan = { name, id: teamDirName(name), teammates, terminated: new Set(teammates.slice(teammates.length - Math.max(0, shutdowns))) };
    const colorOf = (m: string) => {
      const i = teammates.indexOf(m);
      return i < 0 ? undefined : COLORS[i % COLORS.length];
    };
    const dir = join(opts.teamsDir, plan.id);
    if (await exists(dir)) {
      if (!opts.force) throw new Error(`${dir} already exists; pass force to replace it`);
      await rm(dir, { recursive: true, force: true });
    }
    const history = opts.perMember ? perTeam * nMembers : perTeam;
    const gen = generateHistory(rng, words, plan, history, colorOf);
    const pending = gen.pending;

    // One long thread between the user and the first teammate, spread over the same time span.
    let longThread: GenTeam['longThread'];
    if (ti === longIn && opts.thread && opts.thread > 0) {
      const who = teammates[0]!;
      const span = Math.max(gen.end, opts.thread * 30_000);
      for (let i = 0; i < opts.thread; i++) {
        const t = Math.floor(((i + rng.next() * 0.5) / opts.thread) * span);
        if (i % 2 === 0) {
          const q = words.request();
          const id = uuid(rng);
          pending.push({ owner: who, t, consumed: true, make: (iso) => ({ from: USER, text: q.text, summary: q.summary, timestamp: iso, read: true, type: 'message', msgV: 1, msg_id: id, messageId: id }) });
        } else {
          const a = words.reply();
          pending.push({ owner: USER, t, consumed: true, make: (iso) => ({ from: who, text: a.text, summary: a.summary, timestamp: iso, color: colorOf(who), read: false }) });
        }
      }
      longThread = { member: who, messages: opts.thread };
    }

    // The newest messages have not been polled yet: they are unread (and survive a prune).
    const last = pending.reduce((mx, p) => Math.max(mx, p.t), 0);
    const shift = end - last;
    const unreadAfter = last - Math.max(60_000, last * 0.01);
    for (const p of pending) if (p.t > unreadAfter && !plan.terminated.has(p.owner)) p.consumed = false;

    const byOwner = new Map<string, { t: number; msg: Msg }[]>();
    const ownerList = (o: string) => {
      let l = byOwner.get(o);
      if (!l) byOwner.set(o, (l = []));
      return l;
    };
    for (const o of [LEAD, ...teammates, USER]) ownerList(o);
    for (const p of pending) {
      const msg = p.make(new Date(p.t + shift).toISOString());
      if (msg.color === undefined) delete msg.color;
      if (p.owner !== USER) {
        if (mode === 'prune' && p.consumed) continue;
        msg.read = p.consumed;
      }
      ownerList(p.owner).push({ t: p.t, msg });
    }
    for (const list of byOwner.values()) list.sort((a, b) => a.t - b.t);

    // Grow one inbox with older traffic to the asked size.
    if (opts.inboxBytes && opts.inboxBytes > 0) {
      const owner = opts.inboxOwner ?? LEAD;
      const list = ownerList(owner);
      let size = 4 + list.reduce((n, e) => n + entryBytes(e.msg), 0);
      const older: { t: number; msg: Msg }[] = [];
      let t = (list[0]?.t ?? 0) + shift;
      while (size < opts.inboxBytes) {
        t -= rng.int(2_000, 90_000);
        const msg = filler(rng, words, owner, teammates, colorOf)(new Date(t).toISOString());
        if (owner !== USER) msg.read = mode === 'flag';
        const b = entryBytes(msg);
        if (size + b > opts.inboxBytes && older.length > 0) break;
        size += b;
        older.push({ t: t - shift, msg });
      }
      byOwner.set(owner, [...older.reverse(), ...list]);
    }

    await mkdir(join(dir, 'inboxes'), { recursive: true });
    let first = last;
    for (const list of byOwner.values()) if (list.length) first = Math.min(first, list[0]!.t);
    const createdAt = first + shift - 60 * 60_000;
    const config = configFor(plan, rng, words, createdAt, cwd, colorOf);
    await writeLikeClaude(join(dir, 'config.json'), JSON.stringify(config, null, 2), rng);
    const team: GenTeam = {
      id: plan.id,
      name,
      dir,
      lead: LEAD,
      teammates,
      terminated: [...plan.terminated],
      messages: 0,
      history,
      inboxes: [],
      ...(longThread ? { longThread } : {}),
    };
    for (const [owner, list] of byOwner) {
      // An inbox exists once someone wrote to it; Claude creates the lead's and each member's early.
      if (list.length === 0 && owner === USER) continue;
      const text = JSON.stringify(
        list.map((e) => e.msg),
        null,
        2,
      );
      await writeLikeClaude(join(dir, 'inboxes', `${inboxFileStem(owner)}.json`), text, rng);
      const bytes = Buffer.byteLength(text);
      team.inboxes.push({ owner, messages: list.length, bytes });
      team.messages += list.length;
      result.bytes += bytes;
    }
    result.messages += team.messages;
    result.teams.push(team);
  }
  return result;
}

/** "10MB", "512KB", "1.5 MiB" or a plain byte count; decimal units, as file managers show them. */
export function parseSize(s: string): number | undefined {
  const m = /^\s*(\d+(?:\.\d+)?)\s*(b|kb|kib|k|mb|mib|m|gb|gib|g)?\s*$/i.exec(s);
  if (!m) return undefined;
  const n = Number(m[1]);
  const unit = (m[2] ?? 'b').toLowerCase();
  const mult: Record<string, number> = { b: 1, k: 1e3, kb: 1e3, kib: 1024, m: 1e6, mb: 1e6, mib: 1024 ** 2, g: 1e9, gb: 1e9, gib: 1024 ** 3 };
  return Math.round(n * mult[unit]!);
}
