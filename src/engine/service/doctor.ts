// `doctor`: what stands between this machine and a working Teamdeck, each finding with what to do.
// The engine answers it (the contract's `doctor` call), so the window's Settings and
// `teamdeck doctor` say the same; a command without a running engine answers with its own.
// What a Claude Code version means is judged in src/shared/claude-versions.ts
// (docs/claude-contract.md#versions).
import { spawn } from 'node:child_process';
import { constants } from 'node:fs';
import { access, lstat } from 'node:fs/promises';
import { judgeClaudeVersion, PROVEN_CLAUDE, provenRangeWords } from '../../shared/claude-versions.js';
import type { DoctorFinding, DoctorFolder, DoctorReport, TeamSummary } from '../../shared/types.js';
import { resolveClaude } from '../terminals/launch-command.js';
import { findTmux } from '../terminals/tmux-client.js';
import { SettingsStore } from './settings.js';

const VERSION_TIMEOUT_MS = 10_000;
const MAX_VERSION_OUTPUT = 4_096;

export interface DoctorContext {
  teamsRoot: string;
  stateDir: string;
  /** The claudePath setting ('' = the PATH's `claude`). */
  claudePath: string;
  env: NodeJS.ProcessEnv;
  engine: { pid: number; longRunning: boolean };
  teams: TeamSummary[];
  now: number;
}

/** The first line `<claude> --version` prints ("2.1.337 (Claude Code)"), or why it printed none. */
export function claudeVersionOf(path: string, env: NodeJS.ProcessEnv): Promise<{ version: string } | { error: string }> {
  return new Promise((resolve) => {
    let out = '';
    const child = spawn(path, ['--version'], { env, stdio: ['ignore', 'pipe', 'ignore'] });
    const timer = setTimeout(() => child.kill('SIGKILL'), VERSION_TIMEOUT_MS);
    child.stdout.on('data', (b: Buffer) => {
      if (out.length < MAX_VERSION_OUTPUT) out += b.toString('utf8');
    });
    child.on('error', (e) => {
      clearTimeout(timer);
      resolve({ error: e.message });
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      const line = out.trim().split('\n')[0]?.trim() ?? '';
      if (code === 0 && line) resolve({ version: line.replace(/\s*\(Claude Code\)\s*$/, '') });
      else resolve({ error: signal ? `it did not answer within ${VERSION_TIMEOUT_MS / 1000} s` : `it exited with ${code} and printed no version` });
    });
  });
}

function modeWords(mode: number): string {
  const bits = 'rwxrwxrwx';
  let s = '';
  for (let i = 0; i < 9; i++) s += mode & (1 << (8 - i)) ? bits[i] : '-';
  return `d${s}`;
}

export async function inspectFolder(path: string): Promise<DoctorFolder> {
  const f: DoctorFolder = { path, exists: false, readable: false, writable: false };
  try {
    const st = await lstat(path);
    if (!st.isDirectory()) return f;
    f.exists = true;
    f.mode = modeWords(st.mode & 0o777);
  } catch {
    return f;
  }
  f.readable = await access(path, constants.R_OK | constants.X_OK).then(() => true, () => false);
  f.writable = await access(path, constants.W_OK).then(() => true, () => false);
  return f;
}

async function claudeFindings(ctx: DoctorContext, report: Pick<DoctorReport, 'claude'>): Promise<DoctorFinding[]> {
  const from = ctx.claudePath.trim() ? 'setting' : 'PATH';
  report.claude = { from };
  let path: string;
  try {
    path = await resolveClaude(ctx.claudePath, ctx.env);
  } catch (e) {
    report.claude.error = (e as Error).message;
    return [
      {
        check: 'claude',
        level: 'warning',
        summary: (e as Error).message,
        fix: 'Install Claude Code (https://docs.claude.com/en/docs/claude-code) or set the full path of claude in Settings; Teamdeck still shows teams you start yourself.',
      },
    ];
  }
  report.claude.path = path;
  const v = await claudeVersionOf(path, ctx.env);
  if ('error' in v) {
    report.claude.error = v.error;
    return [{ check: 'claude', level: 'warning', summary: `${path} --version failed: ${v.error}`, fix: 'Run it in a terminal to see why; reinstall Claude Code if it does not start.' }];
  }
  report.claude.version = v.version;
  const verdict = judgeClaudeVersion(v.version);
  report.claude.verdict = verdict.kind;
  const found: DoctorFinding = { check: 'claude', level: 'ok', summary: `claude ${v.version} at ${path} (from ${from === 'setting' ? 'the claudePath setting' : 'the PATH'})` };
  switch (verdict.kind) {
    case 'proven':
      return [found, { check: 'claude-version', level: 'ok', summary: `Claude Code ${verdict.version} is within the versions Teamdeck was tested with (${provenRangeWords()})` }];
    case 'newer':
      return [found, { check: 'claude-version', level: 'note', summary: verdict.words, fix: 'Nothing needed; if something looks wrong, check for a newer Teamdeck.' }];
    case 'older':
      return [found, { check: 'claude-version', level: 'warning', summary: verdict.words, fix: 'Update Claude Code: claude update' }];
    case 'unknown':
      return [found, { check: 'claude-version', level: 'note', summary: verdict.words }];
  }
}

function agentTeamsFinding(value: string | undefined): DoctorFinding {
  if (value === '1') return { check: 'agent-teams', level: 'ok', summary: 'CLAUDE_CODE_EXPERIMENTAL_AGENT_TEAMS=1 here: a claude started from this environment makes a team' };
  return {
    check: 'agent-teams',
    level: 'note',
    summary: `CLAUDE_CODE_EXPERIMENTAL_AGENT_TEAMS is ${value === undefined ? 'not set' : `"${value}"`} here: leads Teamdeck launches get it set to 1, but a claude you start yourself from this environment makes no team`,
    fix: 'export CLAUDE_CODE_EXPERIMENTAL_AGENT_TEAMS=1 in your shell (or put it under "env" in ~/.claude/settings.json).',
  };
}

function folderFinding(check: 'teams-folder' | 'state-folder', f: DoctorFolder): DoctorFinding {
  const what = check === 'teams-folder' ? 'teams folder' : 'state folder';
  if (!f.exists) {
    return check === 'teams-folder'
      ? { check, level: 'note', summary: `The teams folder ${f.path} does not exist yet`, fix: 'Claude Code makes it when the first lead with agent teams on starts; if your teams are elsewhere, set the folder in Settings or pass --teams-dir.' }
      : { check, level: 'warning', summary: `The state folder ${f.path} does not exist`, fix: 'Teamdeck makes it on start; check that its parent folder is writable.' };
  }
  if (!f.readable) return { check, level: 'problem', summary: `The ${what} ${f.path} (${f.mode}) cannot be read by this user`, fix: `Give your user read access: chmod u+rx ${f.path}` };
  if (!f.writable) {
    return check === 'teams-folder'
      ? { check, level: 'warning', summary: `The teams folder ${f.path} (${f.mode}) is read-only for this user: teams show, messages cannot be written`, fix: `chmod u+w ${f.path}` }
      : { check, level: 'problem', summary: `The state folder ${f.path} (${f.mode}) is read-only: Teamdeck cannot keep its history`, fix: `chmod u+w ${f.path}` };
  }
  // Group and others: `d` and the owner's three letters come first.
  const open = check === 'state-folder' && f.mode !== undefined && f.mode.slice(4) !== '------';
  if (open) return { check, level: 'note', summary: `The state folder ${f.path} (${f.mode}) can be read by other users; it holds every message`, fix: `chmod 700 ${f.path}` };
  return { check, level: 'ok', summary: `The ${what} ${f.path} (${f.mode}) can be read and written` };
}

function teamVersionsFinding(teams: TeamSummary[]): DoctorFinding | undefined {
  const running = teams.filter((t) => t.state === 'running' && t.claudeVersion !== undefined);
  const off = running.map((t) => ({ t, v: judgeClaudeVersion(t.claudeVersion!) })).filter((x) => x.v.kind === 'newer' || x.v.kind === 'older');
  if (running.length === 0) return undefined;
  if (off.length === 0) return { check: 'team-versions', level: 'ok', summary: `${running.length} running team${running.length === 1 ? '' : 's'}, all on tested versions (${provenRangeWords()})` };
  const older = off.some((x) => x.v.kind === 'older');
  return {
    check: 'team-versions',
    level: older ? 'warning' : 'note',
    summary: off.map((x) => `${x.t.id}: ${x.v.words.split(';')[0]}`).join('; '),
    ...(older ? { fix: 'Update Claude Code (claude update) and start those leads again.' } : {}),
  };
}

/** Every check, each with what to do; never throws. */
/** The report from a running engine's point of view: the claude it would launch is the setting's, else the PATH's. */
export async function engineDoctor(o: { teamsRoot: string; stateDir: string; longRunning: boolean; teams: TeamSummary[]; now: number }): Promise<DoctorReport> {
  const settings = await SettingsStore.open(o.stateDir);
  return runDoctor({ teamsRoot: o.teamsRoot, stateDir: o.stateDir, claudePath: settings.get().claudePath, env: process.env, engine: { pid: process.pid, longRunning: o.longRunning }, teams: o.teams, now: o.now });
}

export async function runDoctor(ctx: DoctorContext): Promise<DoctorReport> {
  const report: DoctorReport = {
    claude: { from: 'PATH' },
    provenRange: { oldest: PROVEN_CLAUDE.oldest, newest: PROVEN_CLAUDE.newest },
    agentTeamsEnv: ctx.env.CLAUDE_CODE_EXPERIMENTAL_AGENT_TEAMS ?? null,
    tmux: null,
    teamsFolder: { path: ctx.teamsRoot, exists: false, readable: false, writable: false },
    stateFolder: { path: ctx.stateDir, exists: false, readable: false, writable: false },
    engine: ctx.engine,
    findings: [],
    checkedAt: ctx.now,
  };
  const [claude, tmux, teamsFolder, stateFolder] = await Promise.all([claudeFindings(ctx, report), findTmux(ctx.env).catch(() => undefined), inspectFolder(ctx.teamsRoot), inspectFolder(ctx.stateDir)]);
  report.findings.push(...claude, agentTeamsFinding(ctx.env.CLAUDE_CODE_EXPERIMENTAL_AGENT_TEAMS));
  if (tmux) {
    report.tmux = { path: tmux.bin, version: tmux.version };
    report.findings.push({ check: 'tmux', level: 'ok', summary: `${tmux.version} at ${tmux.bin}: launched leads run in tmux and outlive Teamdeck` });
  } else {
    report.findings.push({ check: 'tmux', level: 'note', summary: 'tmux was not found: launched leads run in a terminal Teamdeck holds, and end when it quits', fix: 'Install tmux (apt install tmux, brew install tmux) so launched leads outlive Teamdeck.' });
  }
  report.teamsFolder = teamsFolder;
  report.stateFolder = stateFolder;
  report.findings.push(folderFinding('teams-folder', teamsFolder), folderFinding('state-folder', stateFolder));
  report.findings.push(
    ctx.engine.longRunning
      ? { check: 'engine', level: 'ok', summary: `An engine runs (pid ${ctx.engine.pid}): messages queue and are delivered while it runs` }
      : {
          check: 'engine',
          level: 'note',
          summary: 'No engine is running: this command read the files itself, and nothing delivers a queued message until one runs',
          fix: 'Open the Teamdeck app, or run `teamdeck serve` or `teamdeck watch`.',
        },
  );
  const versions = teamVersionsFinding(ctx.teams);
  if (versions) report.findings.push(versions);
  return report;
}
