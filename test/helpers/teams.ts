// Builds team folders in a real temp teams root, in the layout of docs/claude-contract.md#paths.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

export interface TeamSpec {
  /** An object is written as pretty JSON; a string or bytes as they are. */
  config?: unknown;
  inboxes?: Record<string, unknown>;
}

function content(v: unknown): string | Uint8Array {
  return typeof v === 'string' || v instanceof Uint8Array ? v : JSON.stringify(v, null, 2);
}

export async function writeTeam(root: string, id: string, spec: TeamSpec): Promise<string> {
  const dir = join(root, id);
  await mkdir(dir, { recursive: true });
  if (spec.config !== undefined) await writeFile(join(dir, 'config.json'), content(spec.config));
  if (spec.inboxes) {
    await mkdir(join(dir, 'inboxes'), { recursive: true });
    for (const [owner, v] of Object.entries(spec.inboxes)) await writeFile(join(dir, 'inboxes', `${owner}.json`), content(v));
  }
  return dir;
}

export const message = (from: string, text: string, timestamp: string, extra: Record<string, unknown> = {}) => ({ from, text, timestamp, read: false, ...extra });
