// A scratch run folder: `<run>/home` is the lead's HOME (with the seeds Claude Code needs to
// start without a dialog), `<run>/proj` its working directory, `<run>/tmp` its TMPDIR (so
// its messaging socket and agent outputs stay inside the run too).
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CLAUDE_CODE_VERSION } from './binary.js';

/** The dummy API key; Claude sends it as x-api-key and the stand-in ignores it. */
export const DUMMY_API_KEY = 'sk-ant-test';

export interface RunDir {
  run: string;
  home: string;
  proj: string;
  tmp: string;
  /** `<home>/.claude`: Claude's config dir (CLAUDE_CONFIG_DIR stays unset). */
  configDir: string;
  teamsDir: string;
  sessionsDir: string;
  projectsDir: string;
  remove(): void;
}

export function makeRunDir(prefix = 'teamdeck-claude-'): RunDir {
  // Resolved, because Claude keys the project's trust by the cwd it sees.
  const run = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  const home = join(run, 'home');
  const proj = join(run, 'proj');
  const tmp = join(run, 'tmp');
  const configDir = join(home, '.claude');
  for (const d of [home, proj, tmp, configDir]) mkdirSync(d, { recursive: true });
  writeFileSync(
    join(home, '.claude.json'),
    JSON.stringify(
      {
        // Without it onboarding runs a connectivity check and exits.
        hasCompletedOnboarding: true,
        lastOnboardingVersion: CLAUDE_CODE_VERSION,
        theme: 'dark',
        // Pre-approves the dummy key (Claude keys approval by its last 20 characters).
        customApiKeyResponses: { approved: [DUMMY_API_KEY.slice(-20)], rejected: [] },
        projects: { [proj]: { hasTrustDialogAccepted: true, hasCompletedProjectOnboarding: true, allowedTools: [] } },
      },
      null,
      2,
    ),
  );
  // No bypass-mode warning; teammates inside the lead's process (no panes).
  writeFileSync(join(configDir, 'settings.json'), JSON.stringify({ skipDangerousModePermissionPrompt: true, teammateMode: 'in-process' }, null, 2));
  return {
    run,
    home,
    proj,
    tmp,
    configDir,
    teamsDir: join(configDir, 'teams'),
    sessionsDir: join(configDir, 'sessions'),
    projectsDir: join(configDir, 'projects'),
    remove: () => rmSync(run, { recursive: true, force: true, maxRetries: 3 }),
  };
}
