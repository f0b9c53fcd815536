// Teamdeck's writer and a teammate following Claude Code's inbox algorithms, as two real
// processes on one inbox: nothing may be lost or duplicated, and no reader may ever see a
// state of the file that is not a JSON array.
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnTs, type TsChild } from './helpers/child.js';
import { makeTempDir, REPO_ROOT } from './helpers/tmp.js';

/** Operations per side: 2,000 in total. */
const TEAMDECK_SENDS = 1000;
const CLAUDE_OPS = 1000;

interface Observed {
  samples: number;
  /** States that were not a whole JSON array. */
  bad: string[];
  /**
   * Reads of a still-empty file before its first content: the exclusive create of step 2
   * (`wx`, then `[]`) is not atomic in Claude Code either, so a reader can catch the new
   * file before its two bytes land. Allowed only before the inbox ever held an array.
   */
  creationWindow: number;
  /** Snapshots in which one id appeared twice. */
  doubled: number;
  maxEntries: number;
}

/** The third loop: reads the inbox, without any lock, as fast as it can while the two sides run. */
async function sample(path: string, running: () => boolean): Promise<Observed> {
  const o: Observed = { samples: 0, bad: [], creationWindow: 0, doubled: 0, maxEntries: 0 };
  let existed = false;
  let valid = false;
  while (running()) {
    let text: string;
    try {
      text = await readFile(path, 'utf8');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT' && !existed) continue;
      o.bad.push(`read failed: ${(e as Error).message}`);
      continue;
    }
    existed = true;
    o.samples++;
    if (text === '' && !valid) {
      o.creationWindow++;
      continue;
    }
    try {
      const v: unknown = JSON.parse(text);
      if (!Array.isArray(v)) {
        o.bad.push(`not an array: ${text.slice(0, 80)}`);
        continue;
      }
      valid = true;
      o.maxEntries = Math.max(o.maxEntries, v.length);
      const ids = v.map((m: { msg_id?: string }) => m.msg_id);
      if (new Set(ids).size !== ids.length) o.doubled++;
    } catch {
      o.bad.push(`not JSON (${text.length} bytes) at sample ${o.samples}: ${text.slice(0, 80)}`);
    }
  }
  return o;
}

describe('interop with Claude Code\'s inbox algorithms, across processes', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await makeTempDir('teamdeck-interop-');
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it(`loses and duplicates nothing over ${TEAMDECK_SENDS + CLAUDE_OPS} interleaved operations`, { timeout: 120_000 }, async () => {
    const inbox = join(dir, 'my-team', 'inboxes', 'researcher.json');
    const log = join(dir, 'consumed.log');
    const started = Date.now();
    const children: TsChild[] = [
      spawnTs(join(REPO_ROOT, 'test', 'helpers', 'interop-teamdeck.ts'), [inbox, String(TEAMDECK_SENDS)]),
      spawnTs(join(REPO_ROOT, 'test', 'helpers', 'interop-claude.ts'), [inbox, String(CLAUDE_OPS), log]),
    ];
    try {
      await Promise.all(children.map((c) => c.waitForLine(/^ready$/)));
      let running = true;
      const sampling = sample(inbox, () => running);
      for (const c of children) c.send('go');
      const summaries = await Promise.all(children.map((c) => c.waitForLine(/^\{.*"side"/, 110_000)));
      running = false;
      const observed = await sampling;
      const codes = await Promise.all(children.map((c) => c.exited));
      expect(codes, children.map((c) => c.stderr()).join('\n')).toEqual([0, 0]);

      const [td, cl] = summaries.map((s) => JSON.parse(s) as Record<string, number>) as [Record<string, number>, Record<string, number>];
      expect(td.sent).toBe(TEAMDECK_SENDS);
      expect(td.duplicates).toBe(0);
      expect(cl.appended).toBe(CLAUDE_OPS / 2);
      expect(cl.consumes).toBe(CLAUDE_OPS / 2);

      // The two sides really ran at the same time: their runs overlap for most of the shorter one.
      const overlap = Math.min(td.end!, cl.end!) - Math.max(td.start!, cl.start!);
      expect(overlap).toBeGreaterThan(0.5 * Math.min(td.end! - td.start!, cl.end! - cl.start!));

      // Every state a reader could observe was a whole JSON array without a doubled id.
      expect(observed.bad).toEqual([]);
      expect(observed.doubled).toBe(0);
      expect(observed.samples).toBeGreaterThan(100);
      expect(observed.creationWindow).toBeLessThan(observed.samples / 10);

      // Every message either side appended was consumed exactly once or is still there exactly once.
      const consumed = (await readFile(log, 'utf8'))
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as { msg_id: string; from: string });
      const remaining = JSON.parse(await readFile(inbox, 'utf8')) as Array<{ msg_id: string; from: string }>;
      expect(consumed.length).toBe(cl.consumed);
      const seen = new Map<string, number>();
      for (const m of [...consumed, ...remaining]) seen.set(m.msg_id, (seen.get(m.msg_id) ?? 0) + 1);
      const expected = [...Array.from({ length: TEAMDECK_SENDS }, (_, i) => `teamdeck-${i}`), ...Array.from({ length: CLAUDE_OPS / 2 }, (_, i) => `claude-${i}`)];
      const lost = expected.filter((id) => !seen.has(id));
      const duplicated = [...seen].filter(([, n]) => n > 1).map(([id]) => id);
      const unknown = [...seen.keys()].filter((id) => !expected.includes(id));
      expect({ lost, duplicated, unknown }).toEqual({ lost: [], duplicated: [], unknown: [] });
      expect(seen.size).toBe(TEAMDECK_SENDS + CLAUDE_OPS / 2);
      // Both kinds of message were really consumed while the other side was writing, and the
      // last operation (an append) left at least one in the file.
      expect(remaining.length).toBeGreaterThan(0);
      expect(consumed.filter((m) => m.from === 'user').length).toBeGreaterThan(0);
      expect(consumed.filter((m) => m.from === 'researcher').length).toBeGreaterThan(0);

      // The inbox is a queue: each side's messages come out in the order they went in.
      const order = (from: string) => [...consumed, ...remaining].filter((m) => m.from === from).map((m) => Number(m.msg_id.split('-').pop()));
      expect(order('user')).toEqual(Array.from({ length: TEAMDECK_SENDS }, (_, i) => i));
      expect(order('researcher')).toEqual(Array.from({ length: CLAUDE_OPS / 2 }, (_, i) => i));

      // No temp file or lock was left behind.
      const { readdir } = await import('node:fs/promises');
      expect(await readdir(join(dir, 'my-team', 'inboxes'))).toEqual(['researcher.json']);

      console.info(
        `interop: ${TEAMDECK_SENDS + CLAUDE_OPS} operations in ${Date.now() - started} ms; ` +
          `${consumed.length} consumed, ${remaining.length} left; ${observed.samples} samples (${observed.creationWindow} before creation completed), ` +
          `up to ${observed.maxEntries} entries; ` +
          `retries teamdeck ${td.retries} ${JSON.stringify(td.retryCodes)}, claude ${cl.retries}`,
      );
    } finally {
      for (const c of children) if (c.proc.exitCode === null) c.proc.kill();
    }
  });
});
