import { stringOpt, UsageError } from '../args.js';
import type { Command } from '../command.js';
import { openService } from '../service.js';
import { PERMISSION_MODES, type PermissionModeChoice, type TerminalInfo } from '../../shared/types.js';
import { TerminalError } from '../../engine/terminals/types.js';

/** How long `launch` waits for Claude to make the lead's session team before it says so and stops waiting. */
const TEAM_WAIT_MS = 20_000;

export const launchCommand: Command = {
  name: 'launch',
  summary: "start an interactive Claude Code lead in a terminal Teamdeck hosts; its team follows",
  usage: 'teamdeck launch --cwd DIR [--prompt P] [--model M] [--permission-mode MODE]',
  help: [
    '  --cwd DIR              the project folder the lead works in',
    '  --prompt P             the lead\'s first turn',
    '  --model M              the model for the lead (as `claude --model`)',
    `  --permission-mode MODE ${PERMISSION_MODES.join(', ')} (bypassPermissions = --dangerously-skip-permissions)`,
    '',
    'Runs `claude` (from the PATH, or the claudePath setting) with CLAUDE_CODE_EXPERIMENTAL_AGENT_TEAMS=1',
    'in Teamdeck\'s own tmux server, so the lead outlives this command and the app; the app and',
    '`teamdeck serve` show its terminal. Through the app or `teamdeck watch` when one runs.',
    'Prints the terminal id and the session team once Claude has made it. With --json:',
    '{"terminal":{...},"team":"session-..."}. Exit 2 when it cannot start (no tmux, no claude, bad folder).',
  ],
  options: { cwd: { type: 'string' }, prompt: { type: 'string' }, model: { type: 'string' }, 'permission-mode': { type: 'string' } },
  async run(p, io) {
    const cwd = stringOpt(p, 'cwd');
    if (!cwd) throw new UsageError('--cwd DIR is required: the project folder the lead works in');
    const mode = stringOpt(p, 'permission-mode');
    if (mode !== undefined && !(PERMISSION_MODES as readonly string[]).includes(mode)) {
      throw new UsageError(`--permission-mode must be one of ${PERMISSION_MODES.join(', ')}`);
    }
    const prompt = stringOpt(p, 'prompt');
    const model = stringOpt(p, 'model');
    const { launchRequestSchema } = await import('../../shared/contract-schema.js');
    const req = launchRequestSchema.safeParse({ cwd, ...(prompt ? { prompt } : {}), ...(model ? { model } : {}), ...(mode ? { permissionMode: mode as PermissionModeChoice } : {}) });
    if (!req.success) throw new UsageError(req.error.issues[0]?.message ?? 'invalid arguments');
    const s = await openService(p.common, io, { watch: true, readOnly: false, terminals: true, rootMayBeMissing: true });
    try {
      const available = await s.service.terminalAvailability();
      if (!available.available) {
        io.err(`teamdeck launch: ${available.reason ?? 'this engine cannot host terminals'}`);
        return 2;
      }
      // A pty dies with the process that holds it: only tmux lets a one-shot command launch.
      if (!s.remote && available.backend !== 'tmux') {
        io.err('teamdeck launch: tmux is not installed, and a lead in a bare pty would end with this command; launch from the app, or install tmux');
        return 2;
      }
      let terminal: TerminalInfo;
      try {
        terminal = await s.service.launch(req.data);
      } catch (e) {
        if (e instanceof TerminalError) {
          io.err(`teamdeck launch: ${e.message}`);
          return 2;
        }
        throw e;
      }
      const team = await waitForTeam(s.service, terminal.id);
      if (team) terminal = (await s.service.terminals()).find((t) => t.id === terminal.id) ?? terminal;
      if (p.common.json) io.out(JSON.stringify({ terminal, ...(team ? { team } : {}) }));
      else {
        io.out(`launched  ${terminal.id}  pid ${terminal.pid ?? '?'}  (${terminal.backend})  in ${terminal.cwd}`);
        io.out(team ? `team      ${team}` : `team      not made yet (Claude makes it within a second or two of starting; see \`teamdeck teams\`)`);
      }
      return 0;
    } finally {
      await s.close();
    }
  },
};

async function waitForTeam(service: { listTeams(): Promise<{ id: string; terminal?: string }[]> }, id: string): Promise<string | undefined> {
  const deadline = Date.now() + TEAM_WAIT_MS;
  while (Date.now() < deadline) {
    const t = (await service.listTeams()).find((x) => x.terminal === id);
    if (t) return t.id;
    await new Promise((r) => setTimeout(r, 100));
  }
  return undefined;
}
