// activity-visible: a tool call appended to a teammate's transcript (as Claude appends its
// rows) until the member's activity line in the open window, served by `teamdeck serve` to
// Chromium, names that call. Timed from the start of the append to the first animation frame
// whose DOM shows it (clocks aligned by round trip).
import { appendFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { callRow, liveTeam, resultRow } from './activity.js';
import { clockOffset, ensureRendererBuilt, launchBrowser, newBenchPage, nowMs, openApp, sleep, startHost, waitQuiet } from './browser.js';
import { summarize, type Row } from './stats.js';

export async function benchActivityVisible(samples = 60): Promise<Row[]> {
  ensureRendererBuilt();
  const base = await mkdtemp(join(tmpdir(), 'teamdeck-bench-activity-dom-'));
  const config = join(base, '.claude');
  const { worker } = await liveTeam(config);
  const browser = await launchBrowser();
  const host = await startHost(join(config, 'teams'), join(base, 'state'));
  try {
    const page = await newBenchPage(browser);
    await openApp(page, host.url);
    await page.click('[data-testid="member-worker"]');
    await page.waitForSelector('[data-testid="activity-line"]');
    await waitQuiet(page);
    const { offset, uncertainty } = await clockOffset(page);
    const shown: number[] = [];
    for (let i = 0; i < samples + 3; i++) {
      const id = `v${i}`;
      const t0 = nowMs();
      await appendFile(worker, callRow(id, `step ${id}`));
      // The page's own clock at the first frame whose activity line names the call.
      const h = await page.waitForFunction(
        (want) => {
          const doc = (globalThis as unknown as { document: { querySelector(s: string): { textContent: string | null } | null } }).document;
          const el = doc.querySelector('[data-testid="activity-line"]');
          return el?.textContent?.includes(want) ? performance.timeOrigin + performance.now() : false;
        },
        `step ${id}`,
        { timeout: 15_000, polling: 'raf' },
      );
      const at = ((await h.jsonValue()) as number) - offset;
      if (i >= 3) shown.push(at - t0);
      await appendFile(worker, resultRow(id));
      await sleep(60);
    }
    const d = summarize(shown);
    return [
      {
        scenario: 'activity-visible',
        figure: `transcript append -> activity line in the DOM (n=${d.n})`,
        unit: 'ms',
        median: d.median,
        p99: d.p99,
        compare: 'target',
        compareValue: 100,
        ratio: d.median / 100,
        target: 'p50 <= 100 ms',
        met: d.median <= 100,
        note: `from the start of the append to the first animation frame whose activity line names the call (polled each frame); clock alignment ±${uncertainty.toFixed(2)} ms`,
      },
    ];
  } finally {
    await host.stop();
    await browser.close();
    await rm(base, { recursive: true, force: true });
  }
}
