// The simulator's one file-existence check (it shares no code with the core on purpose).
import { access } from 'node:fs/promises';

export async function exists(p: string): Promise<boolean> {
  try {
    await access(p);
    return true;
  } catch {
    return false;
  }
}
