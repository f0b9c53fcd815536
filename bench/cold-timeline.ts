// The cold start of `teamdeck serve` on a small fixture (1 team, 3 members, 20 messages), taken
// apart: spawn -> ready line -> HTML answered -> script and style loaded -> the socket open -> each
// call answered -> first roster row in the DOM -> painted. Not a scenario of `npm run bench`: a
// tool for finding where the cold start goes (the floor under the scale-ended rows).
//
//   node bin/run-ts.mjs bench/cold-timeline.ts [--runs=N] [--teams-dir=D --state-dir=S] [--against=DIR]
//
// --against=DIR: another checkout (built, with node_modules), run in turn with this one, each
// run of one followed by a run of the other, so both see the same load on the machine.
//
// BENCH_HOST_NODE_ARGS="--cpu-prof --cpu-prof-dir=prof" profiles each serve process too;
// --page-prof=FILE.cpuprofile the page's JavaScript in the last run, --trace=FILE.json its
// Chromium trace.
import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { REPO, clockOffset, ensureRendererBuilt, launchBrowser, newBenchPage, startHost } from './browser.js';
import { fixture } from './fixtures.js';
import { coldStart } from './scale.js';
import { summarize } from './stats.js';

/** Installed before the app's script: when the page's sockets opened, and each call sent and answered. */
const SOCKET_RECORDER = `(() => {
  const clock = () => performance.timeOrigin + performance.now();
  const log = [];
  window.__sockets = log;
  const Native = window.WebSocket;
  window.WebSocket = class extends Native {
    constructor(...a) {
      super(...a);
      log.push({ what: 'socket created', at: clock() });
      this.addEventListener('open', () => log.push({ what: 'socket open', at: clock() }));
      this.addEventListener('message', (e) => {
        try {
          const m = JSON.parse(e.data);
          log.push({ what: m.t === 'result' ? 'answer #' + m.id : m.t + (m.event ? ' ' + m.event.type : ''), at: clock(), bytes: e.data.length });
        } catch { log.push({ what: 'message', at: clock() }); }
      });
    }
    send(data) {
      try { const m = JSON.parse(data); log.push({ what: 'call #' + m.id + ' ' + m.name, at: clock() }); } catch {}
      return super.send(data);
    }
  };
})();`;

const PAGE_TIMES = `(() => {
  const o = performance.timeOrigin;
  const nav = performance.getEntriesByType('navigation')[0];
  const out = [
    { what: 'navigation start', at: o },
    { what: 'HTML first byte', at: o + nav.responseStart },
    { what: 'HTML done', at: o + nav.responseEnd },
  ];
  for (const r of performance.getEntriesByType('resource')) {
    const name = r.name.split('/').pop().split('?')[0];
    out.push({ what: name + ' requested', at: o + r.startTime });
    out.push({ what: name + ' loaded (' + Math.round(r.encodedBodySize / 1024) + ' KB)', at: o + r.responseEnd });
  }
  out.push({ what: 'DOMContentLoaded', at: o + nav.domContentLoadedEventEnd });
  for (const m of performance.getEntriesByType('mark')) out.push({ what: 'mark ' + m.name, at: o + m.startTime });
  for (const p of performance.getEntriesByType('paint')) out.push({ what: p.name, at: o + p.startTime });
  for (const l of window.__bench.longtasks) out.push({ what: 'long task ' + Math.round(l.duration) + ' ms', at: l.start });
  const b = window.__bench;
  const first = (m) => Math.min(...[...m].filter(([k]) => k.startsWith('member-')).map(([, t]) => t));
  out.push({ what: 'first roster row in DOM', at: first(b.dom) });
  out.push({ what: 'first roster row painted', at: first(b.paint) });
  out.push({ what: 'live app in DOM', at: b.live });
  return [...out, ...window.__sockets];
})()`;

const arg = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1];
const runs = Number(arg('runs') ?? 5);

ensureRendererBuilt();
const given = arg('teams-dir') && arg('state-dir');
const fx = given ? undefined : await fixture('cold-timeline', { teams: 1, members: 3, messages: 20, seed: 5 });
const teamsDir = arg('teams-dir') ?? fx!.teamsDir;
const stateDir = arg('state-dir') ?? fx!.stateDir;
const browser = await launchBrowser();
const against = arg('against');
const repos = against ? [REPO, resolve(against)] : [REPO];
const byRepo = repos.map(() => new Map<string, number[]>());
try {
  for (let i = 0; i < runs * repos.length; i++) {
    const r = i % repos.length;
    const byStep = byRepo[r]!;
    const page = await newBenchPage(browser);
    await page.context().addInitScript(SOCKET_RECORDER);
    const host = await startHost(teamsDir, stateDir, [], repos[r]);
    try {
      const trace = arg('trace');
      if (trace && i === repos.length * runs - 1) await browser.startTracing(page, { path: trace, categories: ['devtools.timeline', 'v8', 'blink', 'loading', 'netlog', 'disabled-by-default-devtools.timeline', 'toplevel', 'v8.execute'] });
      const pageProf = arg('page-prof');
      const cdp = pageProf && i === repos.length * runs - 1 ? await page.context().newCDPSession(page) : undefined;
      if (cdp) {
        await cdp.send('Profiler.enable');
        await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
        await cdp.send('Profiler.start');
      }
      await coldStart(host, page);
      if (cdp) await writeFile(pageProf!, JSON.stringify((await cdp.send('Profiler.stop')).profile));
      if (trace && i === repos.length * runs - 1) await browser.stopTracing();
      const { offset } = await clockOffset(page);
      const steps = [
        { what: 'spawn', at: 0 },
        { what: 'ready line read', at: host.readyAt - host.spawnedAt },
        ...((await page.evaluate(PAGE_TIMES)) as { what: string; at: number }[]).map((s) => ({ what: s.what, at: s.at - offset - host.spawnedAt })),
      ].sort((a, b) => a.at - b.at);
      for (const s of steps) {
        const key = s.what.replace(/ \(\d+ KB\)$/, '').replace(/-[\w-]{8}\.(js|css)/, '.$1').replace(/long task \d+ ms/, 'long task');
        byStep.set(key, [...(byStep.get(key) ?? []), s.at]);
      }
      if (i === runs * repos.length - 1) {
        process.stdout.write(`last run (${repos[r]}):\n`);
        for (const s of steps) process.stdout.write(`  ${s.at.toFixed(0).padStart(6)} ms  ${s.what}\n`);
      }
    } finally {
      await page.context().close();
      await host.stop();
    }
  }
} finally {
  await browser.close();
  await fx?.cleanup();
}
repos.forEach((repo, r) => {
  process.stdout.write(`\n${repo}: medians over ${runs} runs (ms since spawn):\n`);
  const medians = [...byRepo[r]!].map(([what, ts]) => ({ what, at: summarize(ts).median, n: ts.length })).sort((a, b) => a.at - b.at);
  for (const m of medians) process.stdout.write(`  ${m.at.toFixed(0).padStart(6)}  ${m.what}${m.n !== runs ? ` (n=${m.n})` : ''}\n`);
});
