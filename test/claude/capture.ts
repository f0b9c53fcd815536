// Captures what Claude Code writes during one representative team session, for readers built
// and tested without the binary:
//   node bin/run-ts.mjs test/claude/capture.ts [scenario-name]
// writes test/fixtures/claude-<version>/<scenario-name>/ (default name: team-lifecycle).
import { readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { CLAUDE_CODE_VERSION } from './harness/binary.js';
import { isFrame, isIdleFrom } from './harness/entries.js';
import { copyTree, findLeaks, makeScrubber, projectSlug, PLACEHOLDER_ROOT, writeSnapshots, type Scrubber } from './harness/fixtures.js';
import { startTeam, type Team } from './harness/team.js';
import { waitFor } from './harness/wait.js';

const scenario = process.argv[2] ?? 'team-lifecycle';
const out = join(import.meta.dirname, '..', 'fixtures', `claude-${CLAUDE_CODE_VERSION}`, scenario);

const PROMPTS = {
  researcher: 'You are the researcher. [[SEND:user:Hello user, researcher here.]] [[SEND:team-lead:Researcher is ready.]]',
  writer: 'You are the writer. [[BASH:sleep 3; echo writer-bash-done]]',
};
const DM_RESEARCHER = 'What is the answer? [[SAY:The answer is 42.]]';
const DM_WRITER = 'A note for the writer while it runs its Bash. [[SAY:Writer read the note after its Bash.]]';
const DM_LEAD = 'Teamdeck asks the lead for a status. [[SAY:Lead here: the team is working.]]';

async function play(team: Team): Promise<void> {
  const lead = team.inboxRel('team-lead');
  const S = 20_000;
  // The writer is inside its 3 s Bash: a DM now must wait for its whole turn.
  await team.api.waitForRequest('writer', (r) => r.reply?.some((b) => b.type === 'tool_use' && b.name === 'Bash') ?? false, S, 'the writer to start its Bash');
  await team.send('writer', DM_WRITER, { summary: 'note for the writer' });
  await team.observer.waitForEntry(lead, isIdleFrom('researcher'), S, "the researcher's first idle_notification");
  await team.send('researcher', DM_RESEARCHER, { summary: 'question from teamdeck' });
  await team.observer.waitForEntry(lead, isIdleFrom('researcher', 'The answer is 42.'), S, "the researcher's answer as idle_notification result");
  await team.send('team-lead', DM_LEAD, { summary: 'status request' });
  await team.api.waitForRequest('lead', (r) => r.newText.includes(DM_LEAD), S, 'the lead to receive the teamdeck DM');
  await team.observer.waitForEntry(lead, isIdleFrom('writer', 'Writer read the note after its Bash.'), S, "the writer's answer to the note");
  await team.type('Stop the writer. [[SHUTDOWN:writer]]');
  await team.observer.waitForEntry(lead, isFrame('shutdown_approved', 'writer'), S, 'the writer to approve the shutdown');
  await waitFor(async () => !(await team.memberNames()).includes('writer'), { what: 'the writer to leave config.json', timeoutMs: S });
  // Before /exit, the lead finishes the turns the shutdown started (its session file says idle).
  await waitFor(
    () => {
      const f = join(team.configDir, team.sessionRel);
      return existsSync(f) && JSON.parse(readFileSync(f, 'utf8')).status === 'idle' && Date.now() - (team.api.log.at(-1)?.at ?? 0) > 1500;
    },
    { what: 'the lead to be idle', timeoutMs: S, intervalMs: 100 },
  );
  await team.exit();
  await waitFor(() => !existsSync(team.teamDir), { what: 'the team folder to be removed', timeoutMs: 5_000 });
}

const DEBUG_LINES = /InboxPoller|inProcessRunner|markMessagesAsRead|writeToMailbox|cleanupSessionTeams|TeammateTool|spawnInProcessTeammate|queuing for later|shutdown|Session busy|teammate/i;

/** Debug lines left out of the README's timeline (they stay in the excerpt). */
const NOISE = /poll #\d+: checking mailbox|readMailbox: read \d+ message|readUnreadMessages|acquiring lock|lock acquired|messages after lock|unread of \d+ total|Ensured inbox directory/;

function debugExcerpt(team: Team, s: Scrubber): string[] {
  const log = readFileSync(team.lead.debugLog, 'utf8').split('\n');
  return log.filter((l) => DEBUG_LINES.test(l) && !/getInboxPath|readMailbox: (path|file does not)/.test(l)).map((l) => s.scrub(l));
}

function readme(team: Team, rows: Array<{ t: number; what: string }>, layout: string[]): string {
  const lines = rows.sort((a, b) => a.t - b.t).map((r) => `| ${(r.t / 1000).toFixed(3)} | ${r.what.replace(/\|/g, '\\|')} |`);
  return `# Claude Code ${CLAUDE_CODE_VERSION}: ${scenario}

Captured by \`node bin/run-ts.mjs test/claude/capture.ts ${scenario}\` from the real Claude Code
${CLAUDE_CODE_VERSION} (interactive lead in tmux, \`--teammate-mode in-process\`,
\`--dangerously-skip-permissions\`) against the scripted Messages API of \`test/claude/harness\`.
The run folder's path was replaced by \`${PLACEHOLDER_ROOT}\` everywhere (text and file names: HOME =
\`${PLACEHOLDER_ROOT}/home\`, cwd = \`${PLACEHOLDER_ROOT}/proj\`, TMPDIR = \`${PLACEHOLDER_ROOT}/tmp\`, project slug
\`${projectSlug(PLACEHOLDER_ROOT)}-proj\`); the \`.key\` file is named with the sha256 of the replaced
socket path. This machine's /etc/machine-id (in \`pidDomain\`) is replaced by 32 zeros. Every other byte is as Claude wrote it.

## What happened
1. The lead starts with \`--session-id ${team.lead.sessionId}\`: team \`${team.teamName}\`.
2. Typed prompt: the lead spawns \`researcher\` and \`writer\` with two Agent calls in one reply.
3. researcher's first turn: \`SendMessage(to:"user")\` (fails: no agent named 'user') and
   \`SendMessage(to:"team-lead")\` in one reply, then a text answer (its idle_notification).
4. writer's first turn: \`Bash sleep 3\`. A \`from:"teamdeck"\` DM written into writer.json during the
   Bash reaches its model only after the whole turn (two idle_notifications).
5. A \`from:"teamdeck"\` DM to researcher; it answers with text: "The answer is 42." becomes the
   \`result\` of its idle_notification in team-lead.json.
6. A \`from:"teamdeck"\` DM to the lead (it has teammates, so it polls team-lead.json).
7. Typed prompt: the lead sends writer a shutdown_request; writer approves; writer leaves config.json.
8. \`/exit\`: sessions file and key removed, team folder renamed \`*.deleted-<uuid>\` and removed.

Exact texts: spawn prompts ${JSON.stringify(PROMPTS)}; DMs: researcher ${JSON.stringify(DM_RESEARCHER)},
writer ${JSON.stringify(DM_WRITER)}, lead ${JSON.stringify(DM_LEAD)}. The \`[[...]]\` tokens steer the scripted model.

## Files
- \`teams/<team>/config.NNN.json\`, \`teams/<team>/inboxes/<member>.NNN.json\`: every distinct state seen
  (sampled every 10 ms, keyed on content + inode + mtime), numbered in order. \`timeline.json\` gives
  each snapshot's time (ms since launch), inode, and when a file was removed (\`snapshot: null\`);
  \`dirs\` lists team folders appearing and vanishing (the transient startup team, \`.deleted-\`).
- \`sessions/<pid>.NNN.json\`, \`sessions/<pid>.<sha256>.NNN.key\`: the lead's session file versions.
- \`projects/${projectSlug(PLACEHOLDER_ROOT)}-proj/<sessionId>.jsonl\`: the lead's transcript;
  \`<sessionId>/subagents/agent-a<name>-<16 hex>.jsonl\` + \`.meta.json\`: the teammates'. (Claude also
  symlinks each as \`$TMPDIR/claude-<uid>/<slug>/<sessionId>/tasks/<agentId>.output\`: not copied.)
- \`model-requests.jsonl\`: each Messages API request: time, agent, the agent headers, the new
  content (everything after the last assistant message) and the scripted reply.
- \`lead-debug.excerpt.txt\` (not .log: the repository ignores *.log): the lines of Claude's \`--debug-file\` about mailboxes, teammates and cleanup.
- \`tasks/${team.teamName}/\` existed, empty, from start to after exit (not committable: empty).

${layout.map((f) => `    ${f}`).join('\n')}

## Timeline (s since launch)
Test actions, Claude's debug log (\`debug:\`), model requests (\`api:\`) and file states (\`file:\`).

| t | event |
|---|---|
${lines.join('\n')}
`;
}

function describeState(file: string, text: string | undefined): string {
  if (text === undefined) return 'removed';
  try {
    const v = JSON.parse(text);
    if (Array.isArray(v)) return `${v.length} entr${v.length === 1 ? 'y' : 'ies'}${v.length ? ': ' + v.map((e) => `${e.from}${e.text?.startsWith('{') ? ' ' + (JSON.parse(e.text).type ?? '') : ''}`).join(', ') : ''}`;
    if (file.endsWith('config.json')) return `members: ${v.members.map((m: { name: string }) => m.name).join(', ')}`;
    if (file.startsWith('sessions/') && file.endsWith('.json')) return `status: ${v.status ?? '(none)'}`;
  } catch {
    return 'unparseable (torn)';
  }
  return `${text.length} bytes`;
}

async function main(): Promise<void> {
  const team = await startTeam({ teammates: ['researcher', 'writer'], prompts: PROMPTS });
  try {
    await play(team);
  } catch (e) {
    process.stderr.write(`${team.report()}\n`);
    await team.stop();
    throw e;
  }
  team.observer.stop();
  const t0 = team.startedAt;
  const s = makeScrubber(team.run.run);
  rmSync(out, { recursive: true, force: true });
  const { files, dirs } = writeSnapshots(team.observer, out, t0, s);
  const transcripts = copyTree(team.run.projectsDir, out, 'projects', s);
  const requests = team.api.log.map((r) => ({
    t: r.at - t0,
    agent: r.agent,
    url: r.url,
    headers: Object.fromEntries(Object.entries(r.headers).filter(([k]) => k.startsWith('x-claude-code') || k === 'user-agent')),
    newContent: r.newContent,
    reply: r.reply,
  }));
  writeFileSync(join(out, 'model-requests.jsonl'), requests.map((r) => s.scrub(JSON.stringify(r))).join('\n') + '\n');
  const excerpt = debugExcerpt(team, s);
  writeFileSync(join(out, 'lead-debug.excerpt.txt'), excerpt.join('\n') + '\n');
  writeFileSync(join(out, 'timeline.json'), JSON.stringify({ files, dirs }, null, 2) + '\n');

  const rows: Array<{ t: number; what: string }> = [
    ...team.actions.map((a) => ({ t: a.t - t0, what: `**test:** ${a.what}` })),
    ...dirs.map((d) => ({ t: d.t, what: `dir: ${d.dir} ${d.present === 'watch' ? 'named in a teams/ watch event' : d.present ? 'appears' : 'gone'}` })),
    ...files.map((f) => ({ t: f.t, what: `file: ${f.snapshot ?? f.file} (${describeState(f.file, f.snapshot ? readFileSync(join(out, f.snapshot), 'utf8') : undefined)})` })),
    ...requests.map((r) => ({ t: r.t, what: `api: ${r.agent} ← ${JSON.stringify(s.scrub(team.api.log.find((x) => x.at - t0 === r.t && x.agent === r.agent)?.newText ?? '').replace(/<system-reminder>[\s\S]*?<\/system-reminder>\s*/g, '').slice(0, 120))} → ${(r.reply ?? []).map((b) => (b.type === 'text' ? JSON.stringify(b.text) : b.name)).join(' + ')}` })),
    ...excerpt.filter((l) => !NOISE.test(l)).map((l) => ({ t: Date.parse(l.slice(0, 24)) - t0, what: `debug: ${l.slice(25, 260)}` })).filter((r) => Number.isFinite(r.t)),
  ];
  const layout = [...files.flatMap((f) => (f.snapshot ? [f.snapshot] : [])), ...transcripts, 'model-requests.jsonl', 'lead-debug.excerpt.txt', 'timeline.json'].sort();
  writeFileSync(join(out, 'README.md'), readme(team, rows, layout));
  const leaks = findLeaks(out, s);
  await team.stop();
  if (leaks.length) throw new Error(`machine paths left in the fixtures:\n${leaks.join('\n')}`);
  process.stdout.write(`wrote ${layout.length + 1} files to ${out}\n`);
}

await main();
