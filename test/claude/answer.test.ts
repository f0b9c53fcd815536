// Answering the team from Teamdeck against the real Claude Code: permission prompts answered
// with `teamdeck answer` (allow, deny with a reason, refused once a key answered it) and the
// lead's turn stopped with `teamdeck interrupt`, for a lead in a tmux server Teamdeck did not
// start (found from the lead's environment) and for a lead Teamdeck launched itself.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLAUDE_CODE_VERSION } from './harness/binary.js';
import { isIdleFrom } from './harness/entries.js';
import { startLaunchedTeam, type LaunchedTeam } from './harness/launched.js';
import { leadTranscriptPath } from './harness/paste.js';
import { newToolResults, type ApiRequest } from './harness/script.js';
import { readJsonRetry, startTeam, type Team } from './harness/team.js';
import { teamdeckCli, type TeamdeckCli } from './harness/teamdeck-cli.js';
import { inputBox } from './harness/tmux-lead.js';
import { describeClaude, reportOnFailure } from './harness/vitest.js';
import { delay, waitFor } from './harness/wait.js';

const S = 20_000;
const WORKER = { worker: 'You are the worker. [[SAY:worker ready]]' };

interface Need {
  id: string;
  kind: string;
  team: string;
  member?: string;
  ask?: { tool: string; subject?: string };
  answer?: { available: boolean; reason?: string };
}

/** What a scenario needs of a running team, wherever its lead runs. */
interface Rig {
  cli: TeamdeckCli;
  teamName: string;
  proj: string;
  /** Asks the worker to do something (an inbox message from Teamdeck). */
  toWorker(text: string): Promise<void>;
  /** Types a turn for the lead, as the user would. */
  toLead(text: string): Promise<void>;
  /** Keys straight into the lead's terminal (tmux key names). */
  keys(...keys: string[]): void;
  screen(): string;
  status(): Promise<{ status?: string; waitingFor?: string }>;
  leadAlive(): boolean;
  leadRows(): Array<Record<string, unknown>>;
  requests(): ApiRequest[];
  /** Teamdeck's record of keys it pressed for this team. */
  actionsFile(): string;
}

async function needs(rig: Rig): Promise<Need[]> {
  const r = await rig.cli.run(['needs', '--json']);
  if (r.code !== 0) throw new Error(`needs exited ${r.code}: ${r.stderr}`);
  return JSON.parse(r.stdout) as Need[];
}

/** Waits for the worker's permission item for this command, as `teamdeck needs --json` shows it. */
async function askFor(rig: Rig, member: string, command: string): Promise<Need> {
  return waitFor(async () => (await needs(rig)).find((n) => n.kind === 'permission' && n.team === rig.teamName && n.member === member && n.ask?.subject === command), {
    what: `the permission item for ${member}'s ${command}`,
    timeoutMs: S,
    intervalMs: 100,
  });
}

async function dialogDrawn(rig: Rig, command: string): Promise<void> {
  await waitFor(() => rig.screen().includes('Do you want to proceed?') && rig.screen().includes(command), { what: `the dialog for ${command}`, timeoutMs: S, intervalMs: 20 });
}

function actionsCount(rig: Rig): number {
  return existsSync(rig.actionsFile()) ? readFileSync(rig.actionsFile(), 'utf8').split('\n').filter(Boolean).length : 0;
}

const timings: string[] = [];

function scenarios(label: string, get: () => Rig) {
  it(`${label}: a teammate's Bash asks; \`answer --allow\` runs it and the item clears within 2 s`, async () => {
    const rig = get();
    await rig.toWorker('Make a file. [[BASH:touch allowed.txt]]');
    const need = await askFor(rig, 'worker', 'touch allowed.txt');
    expect(need.id).toMatch(new RegExp(`^permission:${rig.teamName}:worker:toolu_`));
    await dialogDrawn(rig, 'touch allowed.txt');
    const before = actionsCount(rig);
    const r = await rig.cli.run(['answer', need.id, '--allow']);
    expect(r.code, r.stderr).toBe(0);
    const answeredAt = Date.now();
    expect(r.stdout).toMatch(/allowed worker's Bash command: touch allowed\.txt/);
    await waitFor(() => existsSync(join(rig.proj, 'allowed.txt')), { what: 'allowed.txt to be made', timeoutMs: 5_000 });
    await waitFor(async () => !(await needs(rig)).some((n) => n.id === need.id), { what: 'the item to clear', timeoutMs: 2_000, intervalMs: 50 });
    timings.push(`${label}: answer -> item gone: ${Date.now() - answeredAt} ms`);
    // Journaled: what, which prompt, when, from where, every key.
    const lines = readFileSync(rig.actionsFile(), 'utf8').split('\n').filter(Boolean);
    expect(lines.length).toBe(before + 1);
    const action = JSON.parse(lines.at(-1)!) as { kind: string; member: string; via: string; keys: Array<{ key: string }>; confirmed: boolean; what: string };
    expect(action).toMatchObject({ kind: 'answer', member: 'worker', via: 'cli', confirmed: true });
    expect(action.keys.map((k) => k.key)).toEqual(['Enter']);
  });

  it(`${label}: \`answer --deny --reason\`: the command never runs and the teammate's model gets the refusal with the reason`, async () => {
    const rig = get();
    await waitFor(async () => (await rig.status()).status !== 'waiting', { what: 'no dialog', timeoutMs: S });
    await rig.toWorker('Make a file. [[BASH:touch denied.txt]]');
    const need = await askFor(rig, 'worker', 'touch denied.txt');
    await dialogDrawn(rig, 'touch denied.txt');
    const from = rig.requests().length;
    const r = await rig.cli.run(['answer', need.id, '--deny', '--reason', 'use printf instead']);
    expect(r.code, r.stderr).toBe(0);
    const req = await waitFor(() => rig.requests().slice(from).find((q) => q.agent === 'worker' && newToolResults(q).some((t) => t.name === 'Bash')), { what: "the worker's request with the refusal", timeoutMs: S });
    const result = newToolResults(req).find((t) => t.name === 'Bash')!;
    expect(result.isError).toBe(true);
    expect(result.text).toMatch(/Permission for this tool use was denied/);
    expect(result.text).toMatch(/The user said:\nuse printf instead$/);
    await delay(500);
    expect(existsSync(join(rig.proj, 'denied.txt'))).toBe(false);
  });

  it(`${label}: a prompt already answered by a keystroke: \`answer\` is refused (exit 2) and nothing is typed`, async () => {
    const rig = get();
    await waitFor(async () => (await rig.status()).status !== 'waiting', { what: 'no dialog', timeoutMs: S });
    await rig.toWorker('Make a file. [[BASH:touch keyed.txt]]');
    const need = await askFor(rig, 'worker', 'touch keyed.txt');
    await dialogDrawn(rig, 'touch keyed.txt');
    await delay(300);
    for (let i = 0; i < 6 && (await rig.status()).status === 'waiting'; i++) {
      rig.keys('1');
      await waitFor(async () => (await rig.status()).status !== 'waiting', { what: 'the key to answer', timeoutMs: 700 }).catch(() => undefined);
    }
    await waitFor(() => existsSync(join(rig.proj, 'keyed.txt')), { what: 'keyed.txt', timeoutMs: 5_000 });
    const before = actionsCount(rig);
    const screenBefore = inputBox(rig.screen());
    const r = await rig.cli.run(['answer', need.id, '--allow']);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/refused: (no permission prompt .* is waiting|the lead's terminal shows no permission dialog)/);
    expect(actionsCount(rig)).toBe(before);
    expect(inputBox(rig.screen())).toBe(screenBefore);
    // An id that is no need at all, a reason with an allow: refused the same way.
    expect((await rig.cli.run(['answer', 'permission:nope:x:y', '--deny'])).code).toBe(2);
    expect((await rig.cli.run(['answer', need.id, '--allow', '--reason', 'x'])).code).toBe(2);
    // A teammate's turn cannot be stopped safely from the lead's terminal: said, not pretended.
    const t = await rig.cli.run(['interrupt', '--team', rig.teamName, '--member', 'worker']);
    expect(t.code).toBe(2);
    expect(t.stderr).toMatch(/no safe way to stop one teammate's turn/);
  });

  it(`${label}: \`interrupt\` on the lead during a long tool call stops it within 2 s; the lead stays alive and shows idle`, async () => {
    const rig = get();
    await waitFor(async () => (await rig.status()).status === 'idle', { what: 'the lead idle', timeoutMs: S });
    await rig.toLead('Follow the log. [[BASH:tail -f /dev/null]]');
    // Manual mode asks for the lead's own tail -f: answered from Teamdeck too.
    const need = await askFor(rig, 'team-lead', 'tail -f /dev/null');
    await dialogDrawn(rig, 'tail -f /dev/null');
    expect((await rig.cli.run(['answer', need.id, '--allow'])).code).toBe(0);
    await waitFor(() => /esc to interrupt/.test(rig.screen()), { what: 'the lead to run tail -f', timeoutMs: S, intervalMs: 50 });
    const activity = async () => {
      const r = await rig.cli.run(['activity', '--team', rig.teamName, '--json']);
      return (JSON.parse(r.stdout) as Array<{ member: string; kind: string; byYou?: { what: string }; stop?: { available: boolean } }>).find((a) => a.member === 'team-lead')!;
    };
    await waitFor(async () => (await activity()).kind === 'working', { what: 'the lead working', timeoutMs: S });
    const at = Date.now();
    const r = await rig.cli.run(['interrupt', '--team', rig.teamName, '--member', 'team-lead']);
    expect(r.code, r.stderr).toBe(0);
    expect(Date.now() - at).toBeLessThan(2_000 + 1_500); // the command's own start included
    timings.push(`${label}: interrupt command: ${Date.now() - at} ms`);
    expect(rig.screen()).not.toMatch(/esc to interrupt/);
    await waitFor(() => rig.leadRows().some((row) => JSON.stringify(row).includes('[Request interrupted by user for tool use]')), { what: 'the interrupted row', timeoutMs: 5_000 });
    expect(rig.leadAlive()).toBe(true);
    const a = await waitFor(async () => {
      const x = await activity();
      return x.kind === 'idle' ? x : undefined;
    }, { what: 'the lead idle in activity', timeoutMs: 5_000, intervalMs: 100 });
    expect(a.byYou?.what).toBe('stopped by you');
    // Still alive and taking turns.
    await rig.toLead('Still there? [[SAY:yes]]');
    await waitFor(async () => (await rig.status()).status === 'idle', { what: 'the next turn', timeoutMs: S });
    expect(rig.leadAlive()).toBe(true);
  });
}

describeClaude(`Claude Code ${CLAUDE_CODE_VERSION}: answering the team from Teamdeck`, () => {
  afterAll(() => {
    if (timings.length) process.stderr.write(`answer timings:\n  ${timings.join('\n  ')}\n`);
  });

  describe('a lead in a tmux server Teamdeck did not start (manual permissions)', () => {
    let team: Team;
    let rig: Rig;
    reportOnFailure(() => team && `${team.report()}\n${rig?.cli.report()}`);
    beforeAll(async () => {
      team = await startTeam({ permissionMode: 'default', teammates: ['worker'], prompts: WORKER });
      await team.observer.waitForEntry(team.inboxRel('team-lead'), isIdleFrom('worker'), S, "the worker's first idle_notification");
      const stateDir = join(team.run.run, 'state');
      const cli = teamdeckCli({ teamsDir: team.teamsDir, stateDir, home: team.run.home, env: { TMPDIR: team.run.tmp } });
      const status = () => readJsonRetry<{ status?: string; waitingFor?: string }>(join(team.configDir, team.sessionRel));
      rig = {
        cli,
        teamName: team.teamName,
        proj: team.run.proj,
        toWorker: async (text) => void (await team.send('worker', text)),
        toLead: (text) => team.lead.paste(text),
        keys: (...k) => team.lead.keys(...k),
        screen: () => team.lead.screen(),
        status,
        leadAlive: () => team.lead.alive(),
        leadRows: () =>
          readFileSync(leadTranscriptPath(team.run.projectsDir, team.run.proj, team.lead.sessionId), 'utf8')
            .split('\n')
            .filter(Boolean)
            .map((l) => JSON.parse(l) as Record<string, unknown>),
        requests: () => team.api.log,
        actionsFile: () => join(stateDir, 'journal', team.teamName, 'actions.jsonl'),
      };
      await waitFor(async () => (await status()).status === 'idle', { what: 'the lead to be idle', timeoutMs: S });
    }, 90_000);
    afterAll(async () => {
      await team?.stop();
    });
    scenarios('user tmux', () => rig);
  });

  describe('a lead Teamdeck launched (manual permissions)', () => {
    let t: LaunchedTeam;
    let rig: Rig;
    reportOnFailure(() => t?.report());
    beforeAll(async () => {
      t = await startLaunchedTeam({ permissionMode: 'default', teammates: ['worker'], prompts: WORKER });
      const sessionFile = join(t.run.sessionsDir, `${t.leadPid}.json`);
      const status = async () => {
        try {
          return JSON.parse(readFileSync(sessionFile, 'utf8')) as { status?: string; waitingFor?: string };
        } catch {
          return {};
        }
      };
      const send = async (to: string, via: string, text: string) => {
        const r = await t.cli.run(['send', '--team', t.teamName, '--to', to, '--via', via, '--json', '--', text]);
        if (r.code !== 0) throw new Error(`send exited ${r.code}: ${r.stderr}`);
      };
      rig = {
        cli: t.cli,
        teamName: t.teamName,
        proj: t.run.proj,
        toWorker: (text) => send('worker', 'inbox', text),
        toLead: (text) => send('team-lead', 'terminal', text),
        keys: (...k) => {
          void t.client().then(async (c) => {
            for (const key of k) await c.terminalInput(t.terminal.id, key === 'Enter' ? '\r' : key);
            await c.stop();
          });
        },
        screen: () => t.screen(),
        status,
        leadAlive: () => t.leadAlive(),
        leadRows: () => t.leadRows(),
        requests: () => t.api.log,
        actionsFile: () => join(t.stateDir, 'journal', t.teamName, 'actions.jsonl'),
      };
      await waitFor(async () => (await status()).status === 'idle', { what: 'the lead to be idle', timeoutMs: S });
    }, 90_000);
    afterAll(async () => {
      await t?.stop();
    });
    scenarios('launched', () => rig);
  });
});
