// Every line of every transcript (`*.jsonl`) below a folder, for the account's checks against
// what Claude wrote: read whole, after the run.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export function forEachTranscriptLine(dir: string, each: (line: string) => void): void {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const e of entries) {
    const p = join(dir, e.name);
    if (e.isDirectory()) forEachTranscriptLine(p, each);
    else if (e.name.endsWith('.jsonl')) for (const line of readFileSync(p, 'utf8').split('\n')) each(line);
  }
}
