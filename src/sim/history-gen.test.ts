import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { appendHistory, writeHistory } from './history-gen.js';

let base: string;
beforeEach(async () => {
  base = await mkdtemp(join(tmpdir(), 'teamdeck-history-'));
});
afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

const DAY = 86_400_000;
const rows = async (path: string) =>
  (await readFile(path, 'utf8'))
    .trimEnd()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>);

describe('writeHistory: lead sessions with their teammates, as 2.1.332 leaves them in <config>/projects', () => {
  it('writes each session\'s lead transcript and its teammates\' transcripts and metas, about the bytes asked, dated across the days', async () => {
    const end = Date.now();
    const r = writeHistory({ configDir: base, sessions: 4, teammates: 2, bytes: 2_000_000, days: 10, end, seed: 3 });
    expect(r.sessions).toHaveLength(4);
    expect(r.files).toHaveLength(4 * (1 + 2 * 2));
    expect(r.bytes).toBeGreaterThanOrEqual(2_000_000);
    expect(r.bytes).toBeLessThan(2_600_000);
    // No team folder: every lead has exited.
    expect(await readdir(base)).toEqual(['projects']);
    for (const s of r.sessions) {
      expect(s.team).toBe(`session-${s.sessionId.slice(0, 8)}`);
      expect(s.start).toBeGreaterThanOrEqual(end - 10 * DAY);
      const lead = await rows(join(base, 'projects', s.cwd.replace(/\//g, '-'), `${s.sessionId}.jsonl`));
      expect(lead[0]).toMatchObject({ type: 'user', promptSource: 'typed', sessionId: s.sessionId });
      expect(lead.filter((x) => (x.toolUseResult as { status?: string } | undefined)?.status === 'teammate_spawned')).toHaveLength(2);
      const sub = join(base, 'projects', s.cwd.replace(/\//g, '-'), s.sessionId, 'subagents');
      const metas = (await readdir(sub)).filter((f) => f.endsWith('.meta.json'));
      expect(metas.map((f) => /^agent-a([a-z-]+?)-[0-9a-f]{16}\.meta\.json$/.exec(f)![1]).sort()).toEqual([...s.members].sort());
      const meta = JSON.parse(await readFile(join(sub, metas[0]!), 'utf8')) as Record<string, unknown>;
      expect(meta).toMatchObject({ teamName: s.team, taskKind: 'in_process_teammate' });
      expect(Math.abs((await stat(join(sub, metas[0]!))).mtimeMs - s.end)).toBeLessThan(1_000);
      expect(s.messages).toBeGreaterThan(3);
    }
  });

  it('the same options and seed make the same bytes', async () => {
    const a = writeHistory({ configDir: join(base, 'a'), sessions: 2, teammates: 2, bytes: 300_000, end: 1_800_000_000_000, seed: 9 });
    const b = writeHistory({ configDir: join(base, 'b'), sessions: 2, teammates: 2, bytes: 300_000, end: 1_800_000_000_000, seed: 9 });
    expect(b.files.map((f) => f.path.slice(join(base, 'b').length))).toEqual(a.files.map((f) => f.path.slice(join(base, 'a').length)));
    expect(await readFile(b.files[0]!.path, 'utf8')).toBe(await readFile(a.files[0]!.path, 'utf8'));
  });

  it('appendHistory continues the newest lead transcript and adds a teammate; it says how many bytes it added', async () => {
    const r = writeHistory({ configDir: base, sessions: 1, teammates: 1, bytes: 100_000, seed: 2 });
    const s = r.sessions[0]!;
    const leadPath = r.files.find((f) => f.path.endsWith(`${s.sessionId}.jsonl`))!.path;
    const before = await rows(leadPath);
    const added = appendHistory({ configDir: base, session: s });
    const after = await rows(leadPath);
    expect(after.length).toBeGreaterThan(before.length);
    expect(after[before.length]!.parentUuid).toBe(before.at(-1)!.uuid);
    expect(after[before.length]).toMatchObject({ promptSource: 'typed' });
    const total = r.bytes + added.bytes;
    let now = 0;
    for (const f of new Set([...r.files, ...added.files].map((f) => f.path))) now += (await stat(f)).size;
    expect(now).toBe(total);
  });
});
