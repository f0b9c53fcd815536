// The demo team's fixed names and shapes, shared by both eras' demos and the shells that run them.
import type { SimEra } from './claude-paths.js';

export const DEMO_TEAM = 'demo';
/** Members the demo keeps running; the tester has already shut down. */
export const DEMO_RUNNING = ['researcher', 'implementer'] as const;
/** The sender name Teamdeck writes as on current-era teams (a reserved name would be forged). */
export const DEMO_SENDER = 'teamdeck';

export interface DemoTeam {
  team: string;
  teamDir: string;
  /** False when the team was already there and was left as it was. */
  created: boolean;
  running: string[];
  era: SimEra;
  /** Current era: the lead's session id (its transcript's name). */
  leadSessionId?: string;
}

export interface DemoOptions {
  teamsDir: string;
  now?: () => number;
  /** Default current. */
  era?: SimEra;
  /** Current era: the lead's working directory (names the transcripts' project folder). */
  cwd?: string;
}
