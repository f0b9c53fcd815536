// Teamdeck runs the team (issue: the lead's terminal in the app), against the real Claude Code:
// `teamdeck launch` brings the lead up in Teamdeck's own tmux server, under a `teamdeck watch`
// engine that hosts its terminal. Messages typed into the lead's terminal are the user's own
// voice: a plain user turn for the lead, `@name text` for a teammate (teammate_id="user", not
// forged). A permission dialog holds typed messages back (typing would answer it); the engine
// is killed and started again while the lead runs on, and nothing is typed twice. Then a lead
// Teamdeck did not launch gets a DM through its messaging socket and its reply lands in the thread.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LEAD_TOKEN } from './harness/api-standin.js';
import { CLAUDE_CODE_VERSION } from './harness/binary.js';
import { startLaunchedTeam, type LaunchedTeam } from './harness/launched.js';
import { newToolResults, text, tool, type ApiRequest, type ReplyBlock } from './harness/script.js';
import { startTeam, type Team } from './harness/team.js';
import { startWatch, teamdeckCli, type CliMessage, type TeamdeckCli, type WatchEngine } from './harness/teamdeck-cli.js';
import { describeClaude, reportOnFailure } from './harness/vitest.js';
import { waitFor } from './harness/wait.js';

const S = 20_000;
const WRAPPER = 'Another Claude session sent a message';

interface Sent {
  id: string;
  status: string;
}

async function sendVia(cli: TeamdeckCli, team: string, to: string, via: string, body: string): Promise<Sent & { stderr: string }> {
  const r = await cli.run(['send', '--team', team, '--to', to, '--via', via, '--json', '--', body]);
  if (r.code !== 0) throw new Error(`send exited ${r.code}: ${r.stderr} ${r.stdout}`);
  return { ...(JSON.parse(r.stdout) as Sent), stderr: r.stderr };
}

async function threadOf(cli: TeamdeckCli, team: string, member: string): Promise<CliMessage[]> {
  const r = await cli.run(['thread', '--team', team, '--with', member, '--json']);
  if (r.code !== 0) throw new Error(`thread exited ${r.code}: ${r.stderr}`);
  return JSON.parse(r.stdout) as CliMessage[];
}

/** The lead's transcript rows that are this text as a typed turn (however Claude queued it). */
function typedRows(t: LaunchedTeam, body: string): Record<string, unknown>[] {
  return t.leadRows().filter((r) => {
    if (r.type === 'user' && (r.origin as { kind?: string } | undefined)?.kind === 'human') {
      const c = (r.message as { content?: unknown }).content;
      return typeof c === 'string' && c.trim() === body;
    }
    const a = r.attachment as { type?: string; prompt?: string } | undefined;
    return r.type === 'attachment' && a?.type === 'queued_command' && a.prompt?.trim() === body;
  });
}

describeClaude(`Claude Code ${CLAUDE_CODE_VERSION}: teams Teamdeck launches and hosts`, () => {
  describe('a launched lead (bypass permissions) with a teammate', () => {
    let t: LaunchedTeam;
    reportOnFailure(() => t?.report());
    beforeAll(async () => {
      t = await startLaunchedTeam({ teammates: ['helper'] });
    }, 90_000);
    afterAll(async () => {
      await t?.stop();
    });

    it('`teamdeck launch` brings up a session team whose lead runs in the hosted terminal', async () => {
      expect(t.teamName).toMatch(/^session-[0-9a-f]{8}$/);
      expect(t.terminal).toMatchObject({ id: expect.stringMatching(/^t-[0-9a-f]{12}$/), backend: 'tmux', state: 'running', cwd: t.run.proj });
      const teams = (await t.cli.teams()) as Array<{ id: string; terminal?: string; state: string }>;
      expect(teams.find((x) => x.id === t.teamName)).toMatchObject({ state: 'running', terminal: t.terminal.id });
      const config = readFileSync(join(t.teamDir, 'config.json'), 'utf8');
      expect(JSON.parse(config).leadProcess.pid).toBe(t.leadPid);
      // The channels, in words: the terminal is preferred for both.
      const client = await t.client();
      try {
        const lead = await client.channels(t.teamName, 'team-lead');
        expect(lead.find((c) => c.preferred)).toMatchObject({ kind: 'terminal', label: "as you, typed into the lead's terminal", available: true });
        const helper = await client.channels(t.teamName, 'helper');
        expect(helper.find((c) => c.preferred)).toMatchObject({ kind: 'terminal', label: "as you, typed as @helper into the lead's terminal" });
        expect(helper.find((c) => c.kind === 'socket')).toMatchObject({ available: false });
      } finally {
        await client.stop();
      }
    });

    it('a DM to the lead sent "as you" reaches its model as a plain user turn, and its answer is in the thread', async () => {
      const body = 'Lead, what is the status? [[SAY:Lead answer one.]]';
      const sent = await sendVia(t.cli, t.teamName, 'team-lead', 'terminal', body);
      expect(sent.status).toBe('accepted');
      const req = await t.api.waitForRequest('lead', (r) => r.newText.includes('Lead, what is the status?'), S, "the lead's request with the DM");
      expect(req.newText.trim()).toBe(body);
      expect(req.newText).not.toContain(WRAPPER);
      expect(req.newText).not.toContain('<teammate-message');
      await waitFor(() => typedRows(t, body).length === 1, { what: 'the typed turn in the lead transcript', timeoutMs: S });
      expect(typedRows(t, body)[0]).toMatchObject({ origin: { kind: 'human' } });
      const thread = await waitFor(
        async () => {
          const ms = await threadOf(t.cli, t.teamName, 'team-lead');
          return ms.find((m) => m.id === sent.id)?.status === 'replied' ? ms : undefined;
        },
        { what: 'the DM replied in the thread', timeoutMs: S },
      );
      expect(thread.find((m) => m.id === sent.id)).toMatchObject({ channel: 'terminal', sentAs: 'user' });
      expect(thread.some((m) => m.from === 'team-lead' && m.text === 'Lead answer one.')).toBe(true);
    });

    it('a DM to a teammate through the lead\'s terminal reaches it as teammate_id="user", not forged, several lines whole', async () => {
      const body = 'Helper, three things:\n1. read the log\n2. find the error\n3. report back [[SAY:Helper found it.]]';
      const sent = await sendVia(t.cli, t.teamName, 'helper', 'terminal', body);
      expect(sent.status).toBe('accepted');
      const req = await t.api.waitForRequest('helper', (r) => r.newText.includes('Helper, three things:'), S, "the helper's request with the DM");
      expect(req.newText).toContain(`<teammate-message teammate_id="user">\n${body}\n</teammate-message>`);
      expect(req.newText).not.toContain('verified="false"');
      await waitFor(
        async () => (await threadOf(t.cli, t.teamName, 'helper')).find((m) => m.id === sent.id)?.status === 'replied',
        { what: "the helper's DM replied", timeoutMs: S },
      );
      // Typed into the lead's terminal, but for the helper: the lead's own model never saw it.
      expect(t.api.requestsOf('lead').some((r) => r.newText.includes('Helper, three things:'))).toBe(false);
    });

    it('a message starting with "!" is typed as text, never run as a shell command', async () => {
      const body = '!touch bang-ran.txt [[SAY:Not a command.]]';
      await sendVia(t.cli, t.teamName, 'team-lead', 'terminal', body);
      await t.api.waitForRequest('lead', (r) => r.newText.includes('touch bang-ran.txt'), S, "the lead's request with the ! text");
      expect(existsSync(join(t.run.proj, 'bang-ran.txt'))).toBe(false);
    });

    it('the engine is killed and started again: the lead runs on, its terminal is hosted again, nothing is typed twice', async () => {
      const before = t.leadRows().length;
      await t.restartEngine('SIGKILL');
      expect(t.leadAlive()).toBe(true);
      const client = await t.client();
      try {
        const terms = await client.terminals();
        expect(terms.find((x) => x.id === t.terminal.id)).toMatchObject({ state: 'running', pid: t.leadPid, team: t.teamName });
      } finally {
        await client.stop();
      }
      const body = 'After the restart: still there? [[SAY:Still here.]]';
      const sent = await sendVia(t.cli, t.teamName, 'team-lead', 'terminal', body);
      expect(sent.status).toBe('accepted');
      await t.api.waitForRequest('lead', (r) => r.newText.includes('After the restart'), S, 'the request after the restart');
      await waitFor(() => typedRows(t, body).length === 1, { what: 'the turn after the restart', timeoutMs: S });
      // Every message typed before the kill is in the transcript exactly once.
      for (const b of ['Lead, what is the status? [[SAY:Lead answer one.]]']) expect(typedRows(t, b)).toHaveLength(1);
      expect(t.leadRows().length).toBeGreaterThan(before);
    });
  });

  describe('a launched lead that asks before acting (manual permissions)', () => {
    let t: LaunchedTeam;
    reportOnFailure(() => t?.report());
    beforeAll(async () => {
      t = await startLaunchedTeam({ permissionMode: 'default' });
      await t.api.waitForRequest('lead', (r) => r.newText.includes(LEAD_TOKEN), S, "the lead's first turn");
    }, 90_000);
    afterAll(async () => {
      await t?.stop();
    });

    it('a message sent while a permission dialog is open waits, survives an engine restart, and arrives once after the dialog is answered in the terminal, never answering it', async () => {
      const t0 = Date.now();
      const step = (what: string) => process.env.TEAMDECK_CLAUDE_STEPS && process.stderr.write(`[${Date.now() - t0} ms] ${what}\n`);
      const sessionFile = join(t.run.sessionsDir, `${t.leadPid}.json`);
      const status = () => {
        try {
          return JSON.parse(readFileSync(sessionFile, 'utf8')) as { status?: string; waitingFor?: string };
        } catch {
          return {};
        }
      };
      // The lead's own tool call asks: a dialog in its terminal.
      await sendVia(t.cli, t.teamName, 'team-lead', 'terminal', 'Make the file. [[BASH:touch dialog-approved.txt]]');
      await waitFor(() => status().status === 'waiting', { what: 'the permission dialog (sessions status waiting)', timeoutMs: S });
      const needs = await waitFor(
        async () => {
          const r = await t.cli.run(['needs', '--json']);
          const items = JSON.parse(r.stdout) as Array<{ kind: string; team: string; terminal?: string }>;
          return items.find((n) => n.kind === 'permission' && n.team === t.teamName);
        },
        { what: 'a permission need for the team', timeoutMs: S },
      );
      expect(needs.terminal).toBe(t.terminal.id);

      const body = 'Second thought, after the dialog. [[SAY:Got the second one.]]';
      const sent = await sendVia(t.cli, t.teamName, 'team-lead', 'terminal', body);
      expect(sent.status).toBe('queued');
      expect(sent.stderr).toMatch(/permission prompt/);
      // Held back: the dialog is still open, the command did not run, nothing was typed.
      await new Promise((r) => setTimeout(r, 1_500));
      expect(status().status).toBe('waiting');
      expect(existsSync(join(t.run.proj, 'dialog-approved.txt'))).toBe(false);
      expect(t.screen()).toMatch(/Do you want to proceed\?/);

      step('held back');
      await t.restartEngine('SIGKILL');
      step('engine restarted');
      expect(t.leadAlive()).toBe(true);
      // Answered where the user answers it: keys into the hosted terminal, through the engine.
      const client = await t.client();
      step('client connected');
      try {
        for (let i = 0; i < 6 && status().status === 'waiting'; i++) {
          await new Promise((r) => setTimeout(r, 700));
          step(`pressing 1 (status ${JSON.stringify(status())})`);
          await client.terminalInput(t.terminal.id, '1');
          step('pressed');
          await waitFor(() => status().status !== 'waiting', { what: 'the dialog to close', timeoutMs: 1_000 }).catch(() => undefined);
        }
      } finally {
        await client.stop();
      }
      step('dialog answered');
      await waitFor(() => existsSync(join(t.run.proj, 'dialog-approved.txt')), { what: 'the approved command to run', timeoutMs: S });
      step('command ran');
      const req = await t.api.waitForRequest('lead', (r) => r.newText.includes('Second thought'), S, 'the held message reaching the lead');
      expect(req.newText).not.toContain(WRAPPER);
      await waitFor(() => typedRows(t, body).length >= 1, { what: 'the held message as a typed turn', timeoutMs: S });
      step('typed turn found');
      await new Promise((r) => setTimeout(r, 1_000));
      expect(typedRows(t, body)).toHaveLength(1);
      await waitFor(
        async () => {
          const r = await t.cli.run(['needs', '--json']);
          return !(JSON.parse(r.stdout) as Array<{ kind: string; team: string }>).some((n) => n.kind === 'permission' && n.team === t.teamName);
        },
        { what: 'the permission need to clear', timeoutMs: S },
      );
      // Its status follows from what the engine sees of the lead afterwards (its transcript), not
      // at the same instant as the typed turn: waited for, as a user would see it turn.
      let last: string | undefined;
      await waitFor(
        async () => {
          last = (await threadOf(t.cli, t.teamName, 'team-lead')).find((m) => m.id === sent.id)?.status;
          return last === 'seen' || last === 'replied';
        },
        { what: 'the held message marked seen', timeoutMs: S, intervalMs: 250 },
      ).catch(() => undefined);
      expect(['seen', 'replied']).toContain(last);
    });
  });

  describe('a lead Teamdeck did not launch, through its messaging socket', () => {
    let team: Team;
    let engine: WatchEngine;
    let cli: TeamdeckCli;
    reportOnFailure(() => team && `${team.report()}\n--- engine ---\n${engine?.stderr()}\n${cli?.report()}`);
    /** The lead answers a cross-session message by SendMessage to its sender's address. */
    function leadScript(req: ApiRequest): ReplyBlock[] | undefined {
      if (newToolResults(req).some((r) => r.name === 'SendMessage')) return [text('replied on the socket')];
      const env = /<cross-session-message from="(uds:[^"]+)"[^>]*>\n(SOCK-\d+)/.exec(req.newText);
      if (env) return [tool('SendMessage', { to: env[1]!, message: `Socket reply to ${env[2]}.` })];
      return undefined;
    }
    beforeAll(async () => {
      team = await startTeam({ permissionMode: 'default', firstPrompt: `${LEAD_TOKEN} hello [[SAY:lead ready]]`, scripts: { lead: (r) => leadScript(r) ?? [text('lead: ok')] } });
      await team.api.waitForRequest('lead', () => true, S, "the lead's first request");
      const stateDir = join(team.run.run, 'state');
      // The engine's socket must sit in the lead's socket directory: the same TMPDIR as the lead.
      const paths = { teamsDir: team.teamsDir, stateDir, home: team.run.home, env: { TMPDIR: team.run.tmp } };
      cli = teamdeckCli(paths);
      engine = await startWatch(paths);
    }, 90_000);
    afterAll(async () => {
      await engine?.stop();
      await team?.stop();
    });

    it("a socket DM gets the lead's reply back into its thread", async () => {
      const channels = await waitFor(
        async () => {
          const r = await cli.run(['teams', '--json']);
          return r.code === 0 && (JSON.parse(r.stdout) as Array<{ id: string }>).some((x) => x.id === team.teamName);
        },
        { what: 'the engine to list the team', timeoutMs: S },
      );
      expect(channels).toBe(true);
      const body = 'SOCK-1 Teamdeck here: how is it going?';
      const sent = await waitFor(
        async () => {
          const r = await cli.run(['send', '--team', team.teamName, '--to', 'team-lead', '--via', 'socket', '--json', '--', body]);
          return r.code === 0 ? (JSON.parse(r.stdout) as Sent) : undefined;
        },
        { what: 'a socket send to be taken (the engine reads the sessions file first)', timeoutMs: S },
      );
      expect(sent.status).toBe('accepted');
      const req = await team.api.waitForRequest('lead', (r) => r.newText.includes('SOCK-1'), S, "the lead's request with the socket DM");
      expect(req.newText).toContain(WRAPPER);
      expect(req.newText).toMatch(/from-name="teamdeck" from-mode="prompting"/);
      const thread = await waitFor(
        async () => {
          const ms = await threadOf(cli, team.teamName, 'team-lead');
          return ms.some((m) => m.from === 'team-lead' && m.text === 'Socket reply to SOCK-1.') ? ms : undefined;
        },
        { what: "the lead's socket reply in the thread", timeoutMs: S },
      );
      expect(thread.find((m) => m.text === 'Socket reply to SOCK-1.')).toMatchObject({ source: 'socket' });
      expect(thread.find((m) => m.id === sent.id)).toMatchObject({ channel: 'socket', status: 'replied' });
    });
  });
});
