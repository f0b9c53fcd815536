// The safety net's pass over the running teams, on a real team folder in a temp dir: what it
// schedules is what the engine then reads again.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTempDirs } from '../../../test/helpers/tmp.js';
import { scheduleInboxReads } from './rescan.js';
import type { InboxIngest } from '../ingest/inbox-ingest.js';
import type { TeamDirectory } from '../teams/team-directory.js';
import type { Team } from '../team/team.js';
import { fileSignature } from '../files/file-signature.js';

const tempDir = useTempDirs();
/** No inbox was ever read: the pass schedules each one (this test looks only at the config). */
const NEVER_READ = { seenOf: () => undefined } as unknown as InboxIngest;

/** A running team as far as the pass looks at it: its id and how its config looked when last read. */
async function team(root: string, id: string): Promise<{ id: string; ended: undefined; configLooks?: string }> {
  await mkdir(join(root, id, 'inboxes'), { recursive: true });
  await writeFile(join(root, id, 'config.json'), JSON.stringify({ name: id, members: [] }));
  return { id, ended: undefined };
}

describe('the safety net pass', () => {
  it("reads a team's config.json again when it changed since it was last read, and one never read", async () => {
    const root = await tempDir();
    const rt = await team(root, 'session-a');
    const config = join(root, rt.id, 'config.json');
    const dir = { teams: new Map([[rt.id, rt as unknown as Team]]) } as unknown as TeamDirectory;
    const pass = async () => {
      const keys: string[] = [];
      await scheduleInboxReads(root, dir, NEVER_READ, (k) => keys.push(k), false);
      return keys.filter((k) => k.startsWith('c\u0000'));
    };
    // Never read: read it.
    expect(await pass()).toEqual(['c\u0000session-a']);
    // Read (loadConfig notes how it looked): nothing to do.
    rt.configLooks = await fileSignature(config);
    expect(await pass()).toEqual([]);
    // The lead claims the team: config.json rewritten with its process (a write the watch can miss).
    await writeFile(config, JSON.stringify({ name: rt.id, members: [], leadProcess: { pid: 4242, procStart: '1' } }));
    expect(await pass()).toEqual(['c\u0000session-a']);
    expect(await pass()).toEqual(['c\u0000session-a']);
    rt.configLooks = await fileSignature(config);
    expect(await pass()).toEqual([]);
  });
});
