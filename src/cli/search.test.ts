// `teamdeck search`: the real command in child processes over real temp dirs, on its own (it
// builds the index from the journals and waits for it) and through the socket of an engine
// that owns the state dir, where a message appended meanwhile is found too.
import { describe, expect, it } from 'vitest';
import type { SearchResult } from '../shared/contract.js';
import { claudeAppend } from '../sim/claude-inbox.js';
import { createTeam, simTeamPaths } from '../sim/simulator.js';
import { markedSnippet } from './commands/search.js';
import { useCliDirs } from '../../test/helpers/cli-kit.js';

const cli = useCliDirs('teamdeck-cli-search-');
const run = (args: string[]) => cli.run(args);

async function seed(): Promise<void> {
  await createTeam({ teamsDir: cli.teams, team: 'alpha', members: ['researcher', 'tester'] });
  const sent = await run(['send', '--team', 'alpha', '--to', 'researcher', 'Look into the flaky upload test']);
  expect(sent.code, sent.stderr).toBe(0);
  const later = new Date(Date.now() + 1000).toISOString();
  await claudeAppend(simTeamPaths(cli.teams, 'alpha').inbox('user'), { from: 'researcher', text: 'The flaky upload:\na \u001b[31mrace\u001b[0m', timestamp: later, read: false });
}

describe('teamdeck search', () => {
  it('prints hits newest first, plain when piped; --json has the ranges; a bad query is refused', async () => {
    await seed();
    const r = await run(['search', 'flaky', 'upload']);
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^time\s+team\s+who\s+message$/);
    expect(lines.slice(1).map((l) => l.replace(/^\S+ \S+\s+/, ''))).toEqual([
      expect.stringMatching(/^alpha\s+researcher -> you\s+The flaky upload: a \\x1b\[31mrace\\x1b\[0m$/),
      expect.stringMatching(/^alpha\s+you -> researcher\s+Look into the flaky upload test$/),
    ]);
    const j = await run(['search', '"upload test"', '--json', '--team', 'alpha']);
    expect(j.code, j.stderr).toBe(0);
    const doc = JSON.parse(j.stdout) as SearchResult;
    expect(doc.building).toBe(false);
    expect(doc.hits.map((h) => [h.direction, h.member, h.snippet.ranges.map(([a, b]) => h.snippet.text.slice(a, b))])).toEqual([['you', 'researcher', ['upload test']]]);
    const none = await run(['search', 'zebra']);
    expect(none.stdout.trim()).toBe('No messages match "zebra".');
    const bad = await run(['search', '"*"']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/refused: nothing to search for/);
    expect((await run(['search', 'x', '--limit', '201'])).code).toBe(2);
  });

  it('goes through the engine that owns the state dir, and finds what was appended since it started', async () => {
    await seed();
    await cli.watch();
    await claudeAppend(simTeamPaths(cli.teams, 'alpha').inbox('user'), { from: 'tester', text: 'the walrus suite is green', timestamp: new Date(Date.now() + 5000).toISOString(), read: false });
    let hits: SearchResult['hits'] = [];
    for (let i = 0; i < 40 && hits.length === 0; i++) {
      const r = await run(['search', 'walrus', '--json']);
      expect(r.code, r.stderr).toBe(0);
      hits = (JSON.parse(r.stdout) as SearchResult).hits;
      if (hits.length === 0) await new Promise((res) => setTimeout(res, 250));
    }
    expect(hits.map((h) => [h.team, h.member, h.direction])).toEqual([['alpha', 'tester', 'member']]);
  });
});

describe('markedSnippet', () => {
  it('bolds the matches on a terminal, never passes control characters through', () => {
    const hit = { snippet: { text: 'a \u001b]0;x\u0007 retry\nnow', ranges: [[9, 14]] as [number, number][] } };
    expect(markedSnippet(hit, true)).toBe('a \\x1b]0;x\\x07 \u001b[1mretry\u001b[22m now');
    expect(markedSnippet(hit, false)).toBe('a \\x1b]0;x\\x07 retry now');
  });
});
