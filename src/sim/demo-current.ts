// The current-era demo: a Claude Code 2.1.332 session thirty minutes in, written the way that
// Claude leaves it (docs/claude-contract.md#record): a `session-<8 hex>` team owned by this
// process, every inbox already pruned to [], the tester gone from config, and the whole
// conversation in the transcripts: the user's typed turns and the lead's answers, the spawn
// prompts, teammates writing to the lead and to each other (SendMessage with msg_id and
// routing), the lead taking several entries in one row, an `@tester` line, a SendMessage to
// `user` that Claude refused, idle reports with each turn's result, a shutdown, and a question
// from Teamdeck that the researcher answered 40 s ago.
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { configMembers, removeFromConfig } from './claude-config.js';
import { DEMO_RUNNING, DEMO_SENDER, type DemoOptions, type DemoTeam } from './demo-names.js';
import { str } from './replies.js';
import { createTeam, LEAD_NAME } from './simulator.js';
import { MemorySink, TeamRecord } from './team-record.js';
import { DEFAULT_MODEL } from './transcript-rows.js';

const MIN = 60_000;

/** Writes what a MemorySink holds: each transcript's lines, and the small files beside them. */
export async function writeSink(sink: MemorySink): Promise<void> {
  for (const [path, lines] of sink.lines) {
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, lines.join('\n') + '\n');
  }
  for (const [path, text] of sink.files) {
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, text);
  }
}

export async function createCurrentDemo(opts: DemoOptions): Promise<DemoTeam> {
  const now = (opts.now ?? Date.now)();
  const ago = (minutes: number) => now - minutes * MIN;
  const cwd = opts.cwd ?? process.cwd();
  const specs = [
    { name: 'researcher', agentType: 'Explore', description: 'Map token refresh', prompt: 'Map out how the auth module refreshes tokens and why sessions expire early.' },
    { name: 'implementer', model: 'sonnet', description: 'Upload retries', prompt: 'Add a retry with backoff to the upload client.' },
    { name: 'tester', model: 'haiku', description: 'Integration run', prompt: 'Run the integration suite against staging once the fixes are in.' },
  ];
  const team = await createTeam({ teamsDir: opts.teamsDir, era: 'current', now: () => ago(30), cwd, members: specs.map(({ name, agentType, model }) => ({ name, agentType, model })) });
  const entries = configMembers(team.config);
  const sink = new MemorySink();
  const r = new TeamRecord({ teamsDir: opts.teamsDir, sessionId: team.leadSessionId, cwd, sink, now: () => now });

  r.typed('Find out why sessions expire early, fix the upload retries, and run the integration suite.', ago(30));
  r.spawn(
    specs.map((s) => {
      const entry = entries.find((m) => m.name === s.name);
      return { ...s, color: str(entry?.color), model: str(entry?.model) ?? DEFAULT_MODEL };
    }),
    ago(29.9),
  );
  r.leadSays('Team is up: researcher, implementer, tester.', ago(29.5));

  // The researcher says where it starts; the implementer and the researcher settle who owns the retry budget.
  const starting = r.send('researcher', LEAD_NAME, 'Starting with the token refresh path in auth/session.ts; I will report what I find.', 'Starting on auth', ago(29));
  const ask = r.send('implementer', 'researcher', 'Does the upload client share the auth retry budget, or does it keep its own?', 'Retry budget owner?', ago(28.5));
  r.toMate('researcher', [ask], ago(28.4));
  const answer = r.send('researcher', 'implementer', 'Its own: upload.ts keeps a separate budget; auth only retries the refresh call.', 'Retry budget: separate', ago(28));
  r.toMate('implementer', [answer], ago(27.9));
  r.bash('implementer', 'grep -n retry src/upload.ts', 'src/upload.ts:42:  const retries = 0;', ago(27.5), 'Looking at the upload client.');
  // Claude has no agent named `user`: the researcher's attempt to tell the user directly is refused.
  r.sendToUser('researcher', 'Found it: the clock skew allowance is applied twice.', 'Found the bug', ago(26));
  const found = 'Refresh runs 60 s before expiry, but the clock skew allowance is applied twice, so long sessions expire about two minutes early. Details in notes/auth.md.';
  r.mateSays('researcher', found, ago(25));
  // The lead's poll took two entries at once: one row, two blocks.
  r.toLead([starting, r.idle('researcher', ago(25) + 300, found, { to: 'user', summary: 'Found the bug' })], ago(25) + 700, 'Good find. Implementer, keep the upload budget separate.');

  // The user asks the lead how it is going, in the lead's terminal; the lead answers in its turn.
  r.typed('How is it going? Keep it short.', ago(23));
  r.leadSays('Researcher found the cause: the clock skew allowance is applied twice. Implementer is on the upload retries; tester waits for both.', ago(22.9));

  const retries = 'Done: retries with exponential backoff (3 tries, 200 ms base) are in upload.ts.';
  r.bash('implementer', 'npm test -- upload', 'Tests: 18 passed, 18 total', ago(21), 'Running the upload tests.');
  r.mateSays('implementer', retries, ago(20));
  r.toLead([r.idle('implementer', ago(20) + 200, retries)], ago(20) + 700);

  // `@tester …` typed in the lead's terminal: only the tester's transcript has it.
  r.atMention('tester', 'Run the upload suite first, then the rest.', ago(18));
  r.bash('tester', 'npm run test:integration -- --suite upload,all', 'upload: 18 passed\nall: 212 passed, 0 failed', ago(17), 'Upload suite first, as asked.');
  const suite = 'Done: 212 passed, 0 failed. The report is in test-results/.';
  r.mateSays('tester', suite, ago(15));
  r.toLead([r.idle('tester', ago(15) + 200, suite)], ago(15) + 700, 'Suite is green. Letting the tester go.');

  // The lead lets the tester go; the lead removes it from config when it reads the approval.
  r.shutdown('tester', 'Suite is green; thanks.', ago(10));
  await removeFromConfig(team.configPath, 'tester');

  // Teamdeck asked the researcher a question two minutes ago; the answer came 40 s ago.
  r.toMate('researcher', [r.external(DEMO_SENDER, 'researcher', 'What happens when a refresh races a logout?', 'Refresh vs logout', ago(2))], ago(2));
  const races = 'The refresh wins and re-creates the session; logout should cancel in-flight refreshes.';
  r.mateSays('researcher', races, now - 40_000);
  r.toLead([r.idle('researcher', now - 40_000 + 200, races)], now - 40_000 + 700);
  await writeSink(sink);

  // Every inbox has been written and pruned by now: Claude leaves them as [].
  await mkdir(team.inboxesDir, { recursive: true });
  for (const owner of [LEAD_NAME, ...specs.map((s) => s.name)]) await writeFile(join(team.inboxesDir, `${owner}.json`), '[]');
  return { team: team.id, teamDir: team.dir, created: true, running: [...DEMO_RUNNING], era: 'current', leadSessionId: team.leadSessionId };
}
