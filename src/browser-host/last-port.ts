// The port the browser host listened on last time, kept per user beside the notes of running
// engines (not in the run's state dir: `npm start` gives the demo a fresh one each time), so that
// a bookmark, and the cookie named after the port, still point at Teamdeck after a restart.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { engineRegistryDir } from '../engine/socket/registry.js';

const FILE = 'browser-host-port.json';

export async function lastPort(env: NodeJS.ProcessEnv = process.env): Promise<number | undefined> {
  try {
    const { port } = JSON.parse(await readFile(join(engineRegistryDir(env), FILE), 'utf8')) as { port?: unknown };
    return typeof port === 'number' && Number.isInteger(port) && port > 1024 && port <= 65_535 ? port : undefined;
  } catch {
    // None yet, or unreadable: any free port, remembered from now on.
    return undefined;
  }
}

export async function rememberPort(port: number, env: NodeJS.ProcessEnv = process.env): Promise<void> {
  await mkdir(engineRegistryDir(env), { recursive: true, mode: 0o700 });
  await writeFile(join(engineRegistryDir(env), FILE), JSON.stringify({ port }) + '\n', { mode: 0o600 });
}
