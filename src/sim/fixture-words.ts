// The seeded text of a fixture team's messages: what the user asks, what teammates answer and
// report, the lead's instructions, and the words those are made of.
import type { Rng } from './prng.js';

export const PROJECTS = [
  'Harden the auth service and its session handling',
  'Move the billing webhooks to the new queue',
  'Cut p99 latency of the search API',
  'Migrate the orders tables without downtime',
  'Make the upload client resumable',
  'Bring the docs in line with the v3 API',
  'Stabilise the flaky integration suite',
  'Add rate limiting to the public endpoints',
];
export const SUBJECTS = [
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
export const ACTIONS = ['check', 'fix', 'profile', 'refactor', 'document', 'review', 'add tests for', 'trace', 'benchmark', 'simplify'];
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
export const FINDINGS = [
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

export class Words {
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
