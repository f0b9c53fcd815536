// What `teamdeck doctor` and the window's "Check this setup" report: one shape for both (src/engine/service/doctor.ts).

/** How much a `doctor` finding matters: `ok` is fine, `note` worth knowing, `warning` something will not work, `problem` nothing will. */
export type DoctorLevel = 'ok' | 'note' | 'warning' | 'problem';

export interface DoctorFinding {
  /** Which check: stable, for scripts. */
  check: 'claude' | 'claude-version' | 'agent-teams' | 'tmux' | 'teams-folder' | 'state-folder' | 'engine' | 'team-versions';
  level: DoctorLevel;
  /** One line of what was found. */
  summary: string;
  /** What to do about it, when anything. */
  fix?: string;
}

export interface DoctorFolder {
  path: string;
  exists: boolean;
  /** `drwx------` style, when it exists. */
  mode?: string;
  readable: boolean;
  writable: boolean;
}

/** What `doctor` found: the same report in the window's Settings and from `teamdeck doctor`. */
export interface DoctorReport {
  /** The `claude` Teamdeck launches: the claudePath setting, else the PATH's. */
  claude: { from: 'setting' | 'PATH'; path?: string; version?: string; verdict?: 'proven' | 'newer' | 'older' | 'unknown'; error?: string };
  /** The Claude Code versions Teamdeck was proven against (src/shared/claude-versions.ts). */
  provenRange: { oldest: string; newest: string };
  /** CLAUDE_CODE_EXPERIMENTAL_AGENT_TEAMS in the engine's environment (Teamdeck sets it to 1 for the leads it launches). */
  agentTeamsEnv: string | null;
  tmux: { path: string; version: string } | null;
  teamsFolder: DoctorFolder;
  stateFolder: DoctorFolder;
  /** The engine that answered: a long-running one (the app, `serve`, `watch`) or this command's own. */
  engine: { pid: number; longRunning: boolean };
  findings: DoctorFinding[];
  checkedAt: number;
}
