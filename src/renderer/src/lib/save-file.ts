// Saving a file the host built (an export) from the page: a Blob and an `<a download>`, which
// the browser host's browser saves as any download and Electron's main process lets through to
// its save dialog (security.ts allows only downloads of the page's own blob: URLs).
import type { ExportFile } from '../../../shared/contract';

/** The parts of the DOM saving uses, so a test can pass its own. */
export interface SaveTarget {
  createObjectURL(blob: Blob): string;
  revokeObjectURL(url: string): void;
  document: Pick<Document, 'createElement' | 'body'>;
  setTimeout(f: () => void, ms: number): unknown;
}

const browser = (): SaveTarget => ({
  createObjectURL: (b) => URL.createObjectURL(b),
  revokeObjectURL: (u) => URL.revokeObjectURL(u),
  document,
  setTimeout: (f, ms) => window.setTimeout(f, ms),
});

/** Starts the download of `file` under its own name. */
export function saveFile(file: Pick<ExportFile, 'filename' | 'mime' | 'text'>, target: SaveTarget = browser()): void {
  const url = target.createObjectURL(new Blob([file.text], { type: file.mime }));
  const a = target.document.createElement('a');
  a.href = url;
  a.download = file.filename;
  a.rel = 'noopener';
  a.style.display = 'none';
  target.document.body.appendChild(a);
  try {
    a.click();
  } finally {
    a.remove();
    // The download has read the blob by the time a person could notice; a large one gets a minute.
    target.setTimeout(() => target.revokeObjectURL(url), 60_000);
  }
}

/** This window's IANA time zone, when it has a name the host's schema takes. */
export function localTimeZone(): string | undefined {
  try {
    const z = Intl.DateTimeFormat().resolvedOptions().timeZone;
    return typeof z === 'string' && /^[A-Za-z0-9_+\-/]{1,64}$/.test(z) ? z : undefined;
  } catch {
    return undefined;
  }
}
