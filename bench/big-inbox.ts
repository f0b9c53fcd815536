// big-inbox: the lead's inbox at 10 MB (an older Claude that flags instead of pruning, after a
// long session). A teammate appends a report to it the way Claude does, and the report shows in
// the team feed open in Chromium; and the user's sends into that same inbox are admitted
// (`accepted`: locked, appended, fsync'd, verified) while teammates keep writing to it.
import { dirname, join } from 'node:path';
import { fsyncDir } from '../src/engine/files/atomic-write.js';
import { open, readFile, rename, stat } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import lockfile from 'proper-lockfile';
import { appendToArrayText, claudeLockOptions, userInboxEntry } from '../src/engine/claude/inbox-writer.js';
import { claudeAppend, type ClaudeMessage } from '../src/sim/claude-inbox.js';
import { createRng } from '../src/sim/prng.js';
import { deriveMessageId } from '../src/engine/claude/message-id.js';
import { clockOffset, ensureRendererBuilt, hostClient, launchBrowser, newBenchPage, nowMs, openApp, seenAt, sleep, startHost, waitQuiet } from './browser.js';
import { fixture } from './fixtures.js';
import { summarize, type Row } from './stats.js';

const BYTES = 10_000_000;

export async function benchBigInbox(detections = 20, sends = 30): Promise<Row[]> {
  ensureRendererBuilt();
  const fx = await fixture('big-inbox', { teams: 1, members: 4, messages: 200, inboxBytes: BYTES, inboxOwner: 'team-lead', seed: 21 });
  const team = fx.gen.teams[0]!;
  const lead = team.inboxes.find((i) => i.owner === 'team-lead')!;
  const inbox = join(team.dir, 'inboxes', 'team-lead.json');
  const writer = team.teammates[0]!;
  const browser = await launchBrowser();
  const host = await startHost(fx.teamsDir, fx.stateDir);
  const startMs = host.readyAt - host.spawnedAt;
  const client = await hostClient(host);
  try {
    const page = await newBenchPage(browser);
    await openApp(page, host.url);
    await page.click('[data-testid="open-feed"]');
    await page.waitForSelector('[data-testid^="feed-msg-"]', { timeout: 60_000 });
    await waitQuiet(page);
    const { offset } = await clockOffset(page);
    const rng = createRng(21, 'big-inbox');

    // A teammate's report appended by Claude's algorithm -> its row in the feed.
    const fromWritten: number[] = [];
    const fromStart: number[] = [];
    const claudeMs: number[] = [];
    for (let i = 0; i < detections + 2; i++) {
      const text = `Task complete: step ${i}.\n\n- \`src/cache/lru.ts\`: the eviction order is fixed\n- tests added\n\nAll tests pass.`;
      const msg: ClaudeMessage = { from: writer, text, summary: `step ${i} done`, timestamp: new Date().toISOString(), color: 'blue', read: false };
      const id = deriveMessageId(msg.from, msg.timestamp, msg.text);
      const t0 = nowMs();
      await claudeAppend(inbox, msg);
      const t1 = nowMs();
      const seen = await seenAt(page, `feed-msg-${id}`, offset, 30_000);
      if (i >= 2) {
        fromWritten.push(seen.dom - t1);
        fromStart.push(seen.dom - t0);
        claudeMs.push(t1 - t0);
      }
      await sleep(rng.int(100, 300));
    }

    // The user's sends into the same inbox, each after a teammate wrote to it (so the engine
    // cannot rely on what it wrote last), at an irregular pace. Alternating with them, under the
    // same conditions, the floor: what any correct writer must do for one message into this
    // inbox durably (Claude's lock, read, the new bytes, write, fsync, rename, fsync the folder).
    const admit: number[] = [];
    const floor: number[] = [];
    for (let i = 0; i < 2 * (sends + 2); i++) {
      await claudeAppend(inbox, {
        from: writer,
        text: JSON.stringify({ type: 'idle_notification', from: writer, timestamp: new Date().toISOString(), idleReason: 'available' }),
        timestamp: new Date().toISOString(),
        color: 'blue',
        read: false,
      });
      await sleep(rng.int(50, 400));
      const t0 = nowMs();
      if (i % 2 === 0) {
        const r = await client.call<{ status: string }>('send', { team: team.id, to: 'team-lead', text: `Please pick up item ${i} next; it blocks the release.` });
        if (r.status !== 'accepted') throw new Error(`send ${i} was ${r.status}`);
        if (i >= 4) admit.push(nowMs() - t0);
      } else {
        const release = await lockfile.lock(inbox, claudeLockOptions(inbox));
        const bytes = await readFile(inbox);
        const out = appendToArrayText(bytes, [userInboxEntry(`floor-${i}`, `floor ${i}`, new Date().toISOString())]);
        const tmp = `${inbox}.tmp.${randomBytes(4).toString('hex')}`;
        const fh = await open(tmp, 'wx');
        await fh.writeFile(out);
        await fh.sync();
        await fh.close();
        await rename(tmp, inbox);
        await fsyncDir(dirname(inbox));
        await release();
        if (i >= 4) floor.push(nowMs() - t0);
      }
    }
    const finalBytes = (await stat(inbox)).size;
    const d = summarize(fromWritten);
    const s = summarize(fromStart);
    const c = summarize(claudeMs);
    const a = summarize(admit);
    const f = summarize(floor);
    return [
      {
        scenario: 'big-inbox',
        figure: `10 MB inbox: appended report -> feed DOM (n=${d.n})`,
        unit: 'ms',
        median: d.median,
        p99: d.p99,
        compare: 'target',
        compareValue: 300,
        ratio: d.median / 300,
        target: '<= 300 ms',
        met: d.p99 <= 300,
        note: `from the moment Claude's write completed (the rename); ${(lead.bytes / 1e6).toFixed(1)} MB, ${lead.messages.toLocaleString('en')} messages in team-lead.json; target held by p99`,
      },
      {
        scenario: 'big-inbox',
        figure: "same, from the start of Claude's append",
        unit: 'ms',
        median: s.median,
        p99: s.p99,
        compare: "Claude's own append alone",
        compareValue: c.median,
        note: `Claude's read-parse-push-stringify-write of the 10 MB file takes ${c.median.toFixed(0)} ms by itself`,
      },
      {
        scenario: 'big-inbox',
        figure: `send accepted into the 10 MB inbox (n=${a.n})`,
        unit: 'ms',
        median: a.median,
        p99: a.p99,
        compare: 'floor: lock+read+write+fsync+rename+fsync dir',
        compareValue: f.median,
        ratio: a.median / f.median,
        target: 'p50 <= 100 ms',
        met: a.median <= 100,
        note: `over the host's WebSocket, a teammate writing to the inbox before each send; ends at ${(finalBytes / 1e6).toFixed(1)} MB`,
      },
      { scenario: 'big-inbox', figure: 'floor latency, same 10 MB inbox', unit: 'ms', median: f.median, p99: f.p99, note: 'what any correct writer pays for one message: the whole file is read and written back' },
      { scenario: 'big-inbox', figure: 'serve start to ready with the 10 MB inbox', unit: 'ms', median: startMs, note: 'fresh state dir; the host listens once the team is found and reads the 10 MB inbox right after' },
    ];
  } finally {
    client.close();
    await host.stop();
    await browser.close();
    await fx.cleanup();
  }
}
