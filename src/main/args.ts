// The Electron app's own flags. Chromium and Electron add switches of their own to argv, so
// unknown ones are ignored rather than refused.
export interface AppArgs {
  teamsDir?: string;
  stateDir?: string;
}

export function parseAppArgs(argv: string[]): AppArgs {
  const out: AppArgs = {};
  const keys = { '--teams-dir': 'teamsDir', '--state-dir': 'stateDir' } as const;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    for (const [flag, key] of Object.entries(keys) as [keyof typeof keys, keyof AppArgs][]) {
      if (a === flag && i + 1 < argv.length) out[key] = argv[++i];
      else if (a.startsWith(`${flag}=`)) out[key] = a.slice(flag.length + 1);
    }
  }
  return out;
}
