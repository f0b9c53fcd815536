// The ended-teams writer (`teamdeck gen --ended`): seeded like the rest of gen (the same options
// write the same bytes), in the engine's own formats (the journal folds, team.json and the
// index read back through the engine's readers).
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTempDirs } from '../../test/helpers/tmp.js';
import { Journal } from '../engine/journal/journal.js';
import { ENDED_INDEX_FILE, parseEndedIndex } from '../engine/journal/ended-index.js';
import { journalDirOf, readTeamMeta } from '../engine/journal/team-meta.js';
import { writeEndedTeams } from './ended-gen.js';

const temp = useTempDirs();

async function files(dir: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const e of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (e.isFile()) out.set(join(e.parentPath, e.name).slice(dir.length), await readFile(join(e.parentPath, e.name), 'utf8'));
  }
  return out;
}

describe('writeEndedTeams', () => {
  it('writes the same bytes for the same seed, and other bytes for another', async () => {
    const [a, b, c] = [await temp(), await temp(), await temp()];
    const opts = { teams: 3, members: 3, messages: 60, end: Date.parse('2026-03-01T12:00:00Z') };
    await writeEndedTeams({ stateDir: a, seed: 4, ...opts });
    await writeEndedTeams({ stateDir: b, seed: 4, ...opts });
    await writeEndedTeams({ stateDir: c, seed: 5, ...opts });
    const fa = await files(a);
    expect(fa.size).toBe(1 + 3 * 2);
    expect(await files(b)).toEqual(fa);
    expect(await files(c)).not.toEqual(fa);
  });

  it('writes journals, team.json files and index entries the engine reads back', async () => {
    const dir = await temp();
    const end = Date.parse('2026-03-01T12:00:00Z');
    const r = await writeEndedTeams({ stateDir: dir, teams: 2, members: 4, messages: 80, seed: 8, end });
    const index = parseEndedIndex(await readFile(join(dir, ENDED_INDEX_FILE), 'utf8'));
    if (!index.ok) throw new Error(index.reason);
    expect(index.entries.map((e) => [e.id, e.endedAt, e.messages])).toEqual(r.teams.map((t) => [t.id, t.endedAt, t.messages]).sort());
    expect(r.teams.map((t) => t.endedAt)).toEqual([end, end - 3_600_000]);
    for (const t of r.teams) {
      const opened = await Journal.open(journalDirOf(dir, t.id));
      await opened.journal.close();
      expect(opened.state.observed.size).toBe(t.messages);
      expect(t.messages).toBeGreaterThanOrEqual(80);
      const meta = await readTeamMeta(journalDirOf(dir, t.id));
      expect(meta).toMatchObject({ id: t.id, era: 'current', endedAt: t.endedAt, endedReason: 'the lead exited and Claude removed the team folder' });
      expect(meta!.members.map((m) => m.name)).toEqual(['team-lead', 'researcher', 'implementer', 'tester']);
      // Nothing in the history is newer than the team's end.
      for (const o of opened.state.observed.values()) expect(Date.parse(o.timestamp)).toBeLessThanOrEqual(t.endedAt);
    }
  });
});
