// The fake host's hosted terminals, for the development harness and unit tests: launching makes a
// terminal that starts, runs and (after a while) gets its session team; an attached terminal
// echoes what is typed, the way a line-editing program would, and answers resizes with its new
// size. Only the fake API imports this.
import type { AppEvent, Result } from '../../../shared/contract';
import type { ChannelOption, LaunchRequest, TeamSummary, TerminalInfo } from '../../../shared/types';

export interface FakeTerminalsOptions {
  now: () => number;
  emit: (ev: AppEvent) => void;
  later: (ms: number, f: () => void) => void;
  /** Time from launch to running, and from running to its team appearing; 0: at once. */
  stepMs: number;
  /** Makes the session team of a launched lead (the fake API adds it and pushes `teams`). */
  makeTeam: (terminal: TerminalInfo) => string | undefined;
}

export interface FakeTerminals {
  list(): TerminalInfo[];
  /** Seeds a running terminal whose lead already made `team`. */
  seed(team: string, cwd: string, startedAt: number): TerminalInfo;
  launch(req: LaunchRequest): Result<{ terminal: TerminalInfo }>;
  attach(id: string, cols: number, rows: number): Result<{ screen: string }>;
  input(id: string, data: string): Result<null>;
  resize(id: string, cols: number, rows: number): Result<null>;
  detach(id: string): Result<null>;
  close(id: string): Result<null>;
  /** The lead in it exits with this code. */
  exit(id: string, code: number): void;
  /** Types a turn, as the terminal channel does: the text, then Enter. */
  typeTurn(id: string, text: string): void;
  /** How many viewers each terminal has now (tests). */
  viewers(id: string): number;
  /** Every input call each terminal got, in order (tests). */
  inputs(id: string): string[];
  channels(team: TeamSummary, member: string, isLead: boolean, teammateBackend?: string): ChannelOption[];
}

const ok = <T>(value: T): Result<T> => ({ ok: true, value });
const fail = <T>(code: 'refused' | 'not_found' | 'invalid', message: string): Result<T> => ({ ok: false, error: { code, message } });

const PROMPT = '\u001b[38;5;208m>\u001b[0m ';
// It asks for bracketed paste, as Claude Code does, so a paste arrives marked.
const BANNER = (cwd: string) =>
  `\u001b[?2004h\u001b[1m✻ Claude Code\u001b[0m (fake terminal)\r\n\r\n  cwd: ${cwd}\r\n  Type to see it echoed; Enter ends a line.\r\n\r\n${PROMPT}`;

interface FakeTerminal {
  info: TerminalInfo;
  screen: string;
  viewers: number;
  inputs: string[];
  size?: { cols: number; rows: number };
}

export function createFakeTerminals(opts: FakeTerminalsOptions): FakeTerminals {
  const terms = new Map<string, FakeTerminal>();
  let seq = 0;
  const newId = () => `t-${(0xa00000000000 + ++seq).toString(16).padStart(12, '0')}`;
  const emitList = () => opts.emit({ type: 'terminals', terminals: [...terms.values()].map((t) => ({ ...t.info })) });
  const print = (t: FakeTerminal, data: string) => {
    // Keep the tail only, as a real screen would.
    t.screen = (t.screen + data).slice(-20_000);
    if (t.viewers > 0) opts.emit({ type: 'terminal-output', id: t.info.id, data });
  };
  const folderName = (cwd: string) => cwd.replace(/\/+$/, '').split('/').pop() || cwd;
  const find = (id: string) => terms.get(id);

  const echo = (t: FakeTerminal, data: string) => {
    let out = '';
    let rest = data;
    const paste = /^\u001b\[200~([\s\S]*)\u001b\[201~$/.exec(rest);
    if (paste) {
      out += `\u001b[2m[pasted ${paste[1]!.split('\r').length} line(s)]\u001b[0m `;
      rest = paste[1]!;
    }
    for (const ch of rest) {
      if (ch === '\r') out += `\r\n${PROMPT}`;
      else if (ch === '\u007f') out += '\b \b';
      else if (ch >= ' ' || ch === '\t') out += ch;
    }
    if (out) print(t, out);
  };

  return {
    list: () => [...terms.values()].map((t) => ({ ...t.info })),
    seed(team, cwd, startedAt) {
      const info: TerminalInfo = { id: newId(), backend: 'tmux', state: 'running', cwd, pid: 40_000 + seq, team, startedAt, title: `${folderName(cwd)} · ${team}`, permissionMode: 'default' };
      terms.set(info.id, { info, screen: BANNER(cwd), viewers: 0, inputs: [] });
      return { ...info };
    },
    launch(req) {
      const cwd = req.cwd.trim();
      if (!cwd.startsWith('/') && !cwd.startsWith('~')) return fail('refused', `The project folder must be an absolute path or start with ~ (got “${cwd}”).`);
      if (cwd.includes('missing')) return fail('refused', `There is no folder ${cwd}.`);
      const info: TerminalInfo = {
        id: newId(),
        backend: 'tmux',
        state: 'starting',
        cwd,
        startedAt: opts.now(),
        title: folderName(cwd),
        ...(req.permissionMode ? { permissionMode: req.permissionMode } : {}),
      };
      const t: FakeTerminal = { info, screen: '', viewers: 0, inputs: [] };
      terms.set(info.id, t);
      emitList();
      opts.later(opts.stepMs, () => {
        if (t.info.state !== 'starting') return;
        t.info = { ...t.info, state: 'running', pid: 41_000 + seq };
        print(t, BANNER(cwd));
        if (req.prompt) {
          print(t, req.prompt.replace(/\n/g, '\r\n'));
          print(t, `\r\n${PROMPT}`);
        }
        emitList();
        opts.later(opts.stepMs * 2, () => {
          if (t.info.state !== 'running') return;
          const team = opts.makeTeam({ ...t.info });
          if (!team) return;
          t.info = { ...t.info, team, title: `${folderName(cwd)} · ${team}` };
          emitList();
        });
      });
      return ok({ terminal: { ...info } });
    },
    attach(id, cols, rows) {
      const t = find(id);
      if (!t) return fail('not_found', `No terminal ${id}.`);
      t.viewers++;
      t.size = { cols, rows };
      return ok({ screen: t.screen });
    },
    input(id, data) {
      const t = find(id);
      if (!t) return fail('not_found', `No terminal ${id}.`);
      if (t.info.state === 'exited') return fail('refused', 'The lead in this terminal has exited; nothing reads what is typed.');
      t.inputs.push(data);
      echo(t, data);
      return ok(null);
    },
    resize(id, cols, rows) {
      const t = find(id);
      if (!t) return fail('not_found', `No terminal ${id}.`);
      t.size = { cols, rows };
      return ok(null);
    },
    detach(id) {
      const t = find(id);
      if (t) t.viewers = Math.max(0, t.viewers - 1);
      return ok(null);
    },
    close(id) {
      const t = find(id);
      if (!t) return fail('not_found', `No terminal ${id}.`);
      if (t.info.state !== 'exited') return fail('refused', 'The lead is still running in this terminal: end it there first (type /exit).');
      terms.delete(id);
      emitList();
      return ok(null);
    },
    exit(id, code) {
      const t = find(id);
      if (!t || t.info.state === 'exited') return;
      print(t, `\r\n\u001b[2m[claude exited with code ${code}]\u001b[0m\r\n`);
      t.info = { ...t.info, state: 'exited', exitCode: code, exitedAt: opts.now() };
      emitList();
    },
    typeTurn(id, text) {
      const t = find(id);
      if (!t || t.info.state !== 'running') return;
      echo(t, `${text.replace(/\n/g, '\r')}`);
      echo(t, '\r');
    },
    viewers: (id) => find(id)?.viewers ?? 0,
    inputs: (id) => [...(find(id)?.inputs ?? [])],
    channels(team, member, isLead, teammateBackend) {
      const ended = team.state === 'ended';
      const term = [...terms.values()].find((t) => t.info.id === team.terminal || t.info.team === team.id);
      const running = term?.info.state === 'running';
      const gone = 'the team has ended';
      const terminal: ChannelOption = {
        kind: 'terminal',
        label: 'as you, typed into the lead’s terminal',
        available: !ended && running,
        ...(ended ? { reason: gone } : !term ? { reason: 'Teamdeck did not launch this lead, so it has no terminal here' } : !running ? { reason: 'the lead’s terminal is not running' } : {}),
      };
      const inboxReady = !ended && (!isLead || team.leadReadsInbox);
      const inbox: ChannelOption = {
        kind: 'inbox',
        label: `as ${team.sendAs}, a teammate message`,
        available: !ended,
        ...(ended ? { reason: gone } : !inboxReady ? { reason: 'the lead reads its inbox only once it has teammates; the message would wait' } : {}),
      };
      const socketOk = !ended && (isLead || teammateBackend === 'tmux');
      const socket: ChannelOption = {
        kind: 'socket',
        label: 'as another session',
        available: socketOk,
        ...(ended ? { reason: gone } : !socketOk ? { reason: `${member} runs in the lead’s process and has no messaging socket` } : {}),
      };
      const options = team.era === 'legacy' ? [inbox] : [terminal, inbox, socket];
      const preferred = options.find((o) => o.available && (o.kind !== 'inbox' || inboxReady)) ?? options.find((o) => o.kind === 'inbox')!;
      return options.map((o) => (o === preferred ? { ...o, preferred: true } : o));
    },
  };
}
