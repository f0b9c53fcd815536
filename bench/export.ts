// export-md: a 10,000-message thread exported to Markdown by a running engine, the way the
// window's "Export…" and `teamdeck export` beside the app get it: TeamService.export builds the
// thread from the engine's history and writes the Markdown (history/export.ts). The fixture is
// the generator's long thread (the user's questions and the member's answers) in a legacy team,
// read once by a started engine; each run is one export call, the median of several is the
// figure. The same thread as JSON is measured too, for the note.
import { TeamService } from '../src/engine/service/team-service.js';
import { fixture } from './fixtures.js';
import { summarize, type Row } from './stats.js';

const THREAD = 10_000;
const TARGET_MS = 1_000;

export async function benchExportMd(runs = 9): Promise<Row[]> {
  const fx = await fixture('export-md', { teams: 1, members: 4, messages: 200, thread: THREAD, seed: 21 });
  const service = new TeamService({ teamsRoot: fx.teamsDir, stateDir: fx.stateDir, watch: false });
  try {
    await service.start();
    const team = fx.gen.teams.find((t) => t.longThread)!;
    const member = team.longThread!.member;
    const req = { team: team.id, member, timeZone: 'UTC' };
    // The first call warms the code paths (and Intl's formatter); it is not counted.
    const first = await service.export({ ...req, format: 'md' });
    if (first.count < THREAD) throw new Error(`the thread has ${first.count} messages, not ${THREAD}`);
    const md: number[] = [];
    const json: number[] = [];
    let bytes = 0;
    for (let i = 0; i < runs; i++) {
      let t0 = performance.now();
      const file = await service.export({ ...req, format: 'md' });
      md.push(performance.now() - t0);
      bytes = Buffer.byteLength(file.text);
      t0 = performance.now();
      await service.export({ ...req, format: 'json' });
      json.push(performance.now() - t0);
    }
    const m = summarize(md);
    const j = summarize(json);
    return [
      {
        scenario: 'export-md',
        figure: `${first.count.toLocaleString('en')}-message thread to Markdown (TeamService.export: thread + Markdown)`,
        unit: 'ms',
        median: m.median,
        p99: m.p99,
        compare: 'target',
        compareValue: TARGET_MS,
        ratio: m.median / TARGET_MS,
        target: `<= ${TARGET_MS} ms`,
        met: m.median <= TARGET_MS,
        note: `median of ${runs} runs after one warm-up; ${(bytes / 1e6).toFixed(1)} MB of Markdown; the same thread as JSON: median ${j.median.toFixed(0)} ms`,
      },
    ];
  } finally {
    await service.stop();
    await fx.cleanup();
  }
}
