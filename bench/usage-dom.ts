// usage-visible: a model reply appended to a teammate's transcript (as Claude appends its rows)
// until the open Usage view, served by `teamdeck serve` to Chromium, counts it in the member's
// row. Timed from the start of the append to the first animation frame whose DOM shows it
// (clocks aligned by round trip).
import { appendFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { liveTeam } from './activity.js';
import { clockOffset, ensureRendererBuilt, launchBrowser, newBenchPage, nowMs, openApp, sleep, startHost, waitQuiet } from './browser.js';
import { summarize, type Row } from './stats.js';

const reply = (n: number) =>
  JSON.stringify({
    type: 'assistant',
    uuid: `usage-${n}`,
    timestamp: new Date().toISOString(),
    message: { id: `msg_usage_${n}`, model: 'claude-opus-4-5', role: 'assistant', content: [{ type: 'text', text: `reply ${n}` }], stop_reason: 'end_turn', usage: { input_tokens: 100 + n, output_tokens: 20, cache_creation_input_tokens: 0, cache_read_input_tokens: 1_000 } },
  }) + '\n';

export async function benchUsageVisible(samples = 60): Promise<Row[]> {
  ensureRendererBuilt();
  const base = await mkdtemp(join(tmpdir(), 'teamdeck-bench-usage-dom-'));
  const config = join(base, '.claude');
  const { worker } = await liveTeam(config);
  await appendFile(worker, reply(0));
  const browser = await launchBrowser();
  const host = await startHost(join(config, 'teams'), join(base, 'state'));
  try {
    const page = await newBenchPage(browser);
    await openApp(page, host.url);
    await page.click('[data-testid="open-usage"]');
    await page.waitForSelector('[data-testid="usage-row"][data-member="worker"]');
    await waitQuiet(page);
    const { offset, uncertainty } = await clockOffset(page);
    const shown: number[] = [];
    for (let i = 1; i <= samples + 3; i++) {
      const t0 = nowMs();
      await appendFile(worker, reply(i));
      // The page's own clock at the first frame whose worker row counts the new reply.
      const h = await page.waitForFunction(
        (want) => {
          const doc = (globalThis as unknown as { document: { querySelector(s: string): { getAttribute(n: string): string | null } | null } }).document;
          const el = doc.querySelector('[data-testid="usage-row"][data-member="worker"]');
          return el?.getAttribute('data-messages') === want ? performance.timeOrigin + performance.now() : false;
        },
        String(i + 1),
        { timeout: 15_000, polling: 'raf' },
      );
      const at = ((await h.jsonValue()) as number) - offset;
      if (i > 3) shown.push(at - t0);
      await sleep(60);
    }
    const d = summarize(shown);
    return [
      {
        scenario: 'usage-visible',
        figure: `transcript reply -> its row in the Usage view (n=${d.n})`,
        unit: 'ms',
        median: d.median,
        p99: d.p99,
        compare: 'target',
        compareValue: 100,
        ratio: d.median / 100,
        target: 'p50 <= 100 ms',
        met: d.median <= 100,
        note: `from the start of the append to the first animation frame whose worker row counts the reply (polled each frame); clock alignment ±${uncertainty.toFixed(2)} ms`,
      },
    ];
  } finally {
    await browser.close();
    await host.stop();
    await rm(base, { recursive: true, force: true });
  }
}
