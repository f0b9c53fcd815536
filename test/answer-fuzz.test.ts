// Hostile input for answering and stopping from Teamdeck, over a real engine with a real
// waiting permission prompt (a simulated current-era team: a teammate's Bash call in flight, the
// lead's sessions file at `waiting`). The lead "runs" in this test process, which is not Claude
// Code: whatever the id, choice, reason or size, every call ends in a clean refusal (a stable
// code, one line of words), no key is pressed anywhere and nothing is journaled.
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TeamService } from '../src/engine/service/team-service.js';
import { errorCode } from '../src/engine/errors.js';
import { startSimulation, type Simulation } from '../src/sim/main.js';
import { teammateTranscriptPath, toolRows } from '../e2e/helpers/claude-rows.js';
import { rng } from './helpers/engine-proc.js';
import { tempTeams, type TempTeams } from './helpers/team-fixture.js';

const ROUNDS = 300;

describe('answer, interrupt and answerPlan under hostile input', () => {
  let t: TempTeams;
  let sim: Simulation;
  let service: TeamService;
  let needId: string;

  beforeAll(async () => {
    t = await tempTeams();
    sim = await startSimulation({ teamsDir: t.root, era: 'current', members: ['researcher'], pollMs: 100, leadPollMs: 200, workMs: [200, 300], seed: 7 });
    // The teammate's transcript exists once its first turn is written.
    let path: string | undefined;
    for (let i = 0; i < 200 && !path; i++) {
      path = await teammateTranscriptPath(sim, 'researcher');
      if (!path) await new Promise((r) => setTimeout(r, 50));
    }
    const now = Date.now();
    await toolRows(sim, path!).call('Bash', { command: 'rm -rf build/' }, now - 500);
    const file = sim.lead!.sessionFile;
    const body = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;
    await writeFile(file, JSON.stringify({ ...body, status: 'waiting', waitingFor: 'permission prompt', updatedAt: now, statusUpdatedAt: now }));
    service = new TeamService({ teamsRoot: t.root, stateDir: t.stateDir, watch: false });
    await service.start();
    const need = (await service.needs()).find((n) => n.kind === 'permission');
    expect(need).toMatchObject({ member: 'researcher', ask: { tool: 'Bash', subject: 'rm -rf build/' }, answer: { available: false } });
    needId = need!.id;
  }, 30_000);

  afterAll(async () => {
    await service?.stop();
    await sim?.crash().catch(() => {});
    await t?.cleanup();
  });

  it('a real waiting prompt whose lead is not a Claude process this user can reach: refused, saying why, nothing typed', async () => {
    const e = await service.answer({ need: needId, choice: 'allow' }).catch((x: Error) => x);
    expect(errorCode(e)).toBe('refused');
    expect((e as Error).message).toMatch(/is not Claude Code|does not run in tmux|not running as this user/);
    expect((e as Error).message).toMatch(/answer it in the lead's terminal$/);
  });

  it(`${ROUNDS} random ids, choices, reasons and sizes: only clean refusals, no journal of keys`, async () => {
    const r = rng(29);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
    const junk = (n: number) => Array.from({ length: n }, () => String.fromCodePoint(Math.floor(r() * 0x2fff))).join('');
    const ids = () =>
      pick([needId, `${needId}x`, needId.toUpperCase(), `permission:${sim.teamId}:researcher`, `plan:${sim.teamId}:x`, '', ' ', '\u0000', 'a'.repeat(1_025), 'a'.repeat(100_000), '../../etc/passwd', junk(Math.floor(r() * 200)), `${needId}\n`]);
    const reasons = () => pick([undefined, '', ' ', 'use printf', 'x'.repeat(2_000), 'x'.repeat(2_001), 'x'.repeat(1_000_000), '\u001b[31mred', 'a\u0000b', '; kill-server;', '-x', junk(Math.floor(r() * 3_000))]);
    const codes = new Map<string, number>();
    for (let i = 0; i < ROUNDS; i++) {
      const which = r();
      let call: Promise<unknown>;
      if (which < 0.6) {
        const reason = reasons();
        call = service.answer({ need: ids(), choice: pick(['allow', 'allow-always', 'deny', 'maybe', '']) as 'allow', ...(reason !== undefined ? { reason } : {}) });
      } else if (which < 0.8) {
        call = service.interrupt(pick([sim.teamId, sim.teamName, 'nope', '', '../x', junk(20)]), pick(['team-lead', 'researcher', 'ghost', '', junk(10)]));
      } else {
        const feedback = reasons();
        call = service.answerPlan({ need: ids(), approve: pick([true, false, 'yes' as unknown as boolean]), ...(feedback !== undefined ? { feedback } : {}) });
      }
      const e = await call.then(
        () => new Error('accepted'),
        (x: Error) => x,
      );
      const code = errorCode(e);
      codes.set(code, (codes.get(code) ?? 0) + 1);
      expect(['refused', 'invalid', 'not_found'], `${code}: ${e.message}`).toContain(code);
      expect(e.message.length).toBeLessThan(600);
      expect(e.message).not.toContain('\n');
    }
    expect(codes.get('invalid')).toBeGreaterThan(0);
    expect(codes.get('refused')).toBeGreaterThan(0);
    expect(existsSync(join(t.stateDir, 'journal', sim.teamId, 'actions.jsonl'))).toBe(false);
  }, 60_000);

  it('turned off in Settings: refused before anything is looked at', async () => {
    await writeFile(join(t.stateDir, 'settings.json'), JSON.stringify({ answerFromTeamdeck: false }));
    const e = await service.answer({ need: needId, choice: 'deny', reason: 'no' }).catch((x: Error) => x);
    expect(errorCode(e)).toBe('refused');
    expect((e as Error).message).toMatch(/turned off in Settings/);
    const s = await service.interrupt(sim.teamId, 'team-lead').catch((x: Error) => x);
    expect((s as Error).message).toMatch(/turned off in Settings/);
    await writeFile(join(t.stateDir, 'settings.json'), '{}');
  });
});
