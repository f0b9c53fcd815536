// The host serves the built renderer and the first screen's bundle (out/cli, which the CLI's build
// writes): build both once before the specs, unless told the build is fresh
// (TEAMDECK_E2E_SKIP_BUILD=1, for a CI step that has just built).
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

export default function globalSetup(): void {
  const root = join(import.meta.dirname, '..');
  if (process.env.TEAMDECK_E2E_SKIP_BUILD === '1' && existsSync(join(root, 'out', 'renderer', 'index.html'))) return;
  execFileSync(process.execPath, [join(root, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js'), 'build'], { cwd: root, stdio: 'inherit' });
  execFileSync(process.execPath, [join(root, 'scripts', 'build-cli.mjs'), '--quiet'], { cwd: root, stdio: 'inherit' });
}
