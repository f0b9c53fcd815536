// What a file looks like now (inode, size, times), to tell whether it changed since it was read
// without reading it.
import { lstat } from 'node:fs/promises';

/** What a file looks like now; a hint for a file that still looks the same says nothing new. */
export async function fileSignature(p: string): Promise<string> {
  try {
    const st = await lstat(p);
    return `${st.ino}:${st.size}:${st.mtimeMs}:${st.ctimeMs}`;
  } catch (e) {
    return `gone:${(e as NodeJS.ErrnoException).code ?? ''}`;
  }
}
