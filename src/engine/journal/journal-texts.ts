// Observed texts left in the journal (see ObservedState in journal-records.ts), read back for
// the views that show them: each segment opened once, the lines read in runs of nearby bytes,
// each line checked to be the record it is meant to be, so a journal changed behind the
// engine's back fails loudly rather than showing another message's words.
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { segName } from './journal-files.js';
import { JournalError, type ObservedState } from './journal-records.js';

/** Lines closer than this are read with one read (the bytes between them are read and dropped). */
const JOIN_GAP = 64 * 1024;
/** One read covers at most this much. */
const MAX_READ = 4 * 1024 * 1024;

/** The texts of the messages in `list` whose text is not in memory, by message. */
export async function readTexts(dir: string, list: Iterable<ObservedState>): Promise<Map<ObservedState, string>> {
  const bySeg = new Map<number, ObservedState[]>();
  for (const o of list) {
    if (o.text !== undefined || !o.ref) continue;
    let l = bySeg.get(o.ref.seg);
    if (!l) bySeg.set(o.ref.seg, (l = []));
    l.push(o);
  }
  const out = new Map<ObservedState, string>();
  for (const [seg, lines] of bySeg) {
    lines.sort((a, b) => a.ref!.off - b.ref!.off);
    const file = join(dir, segName(seg));
    const fh = await open(file, 'r').catch((e: NodeJS.ErrnoException) => {
      throw new JournalError(`${file}: cannot read back ${lines.length} message texts (${e.code ?? e.message})`);
    });
    try {
      for (let i = 0; i < lines.length; ) {
        const from = lines[i]!.ref!.off;
        let to = from + lines[i]!.ref!.len;
        let j = i;
        while (j + 1 < lines.length) {
          const r = lines[j + 1]!.ref!;
          if (r.off - to > JOIN_GAP || r.off + r.len - from > MAX_READ) break;
          to = Math.max(to, r.off + r.len);
          j++;
        }
        const buf = Buffer.allocUnsafe(to - from);
        const { bytesRead } = await fh.read(buf, 0, buf.length, from);
        if (bytesRead < buf.length) throw new JournalError(`${file}: shorter than the lines folded from it`);
        for (let k = i; k <= j; k++) {
          const o = lines[k]!;
          const at = o.ref!.off - from;
          out.set(o, textOfLine(buf.toString('utf8', at, at + o.ref!.len), o, file));
        }
        i = j + 1;
      }
    } finally {
      await fh.close();
    }
  }
  return out;
}

/**
 * readTexts over what `observed` yields now, tried twice: a compaction that ran meanwhile took
 * the texts into memory (new objects, in the state `observed` reads) and removed the segment
 * they were being read from; the second pass finds them there.
 */
export async function readTextsOf(dir: string, observed: () => Iterable<ObservedState>): Promise<Map<ObservedState, string>> {
  try {
    return await readTexts(dir, observed());
  } catch {
    return readTexts(dir, observed());
  }
}

function textOfLine(line: string, o: ObservedState, file: string): string {
  let rec: { t?: unknown; id?: unknown; text?: unknown };
  try {
    rec = JSON.parse(line) as typeof rec;
  } catch {
    rec = {};
  }
  if (rec.t !== 'observed' || rec.id !== o.id || typeof rec.text !== 'string') {
    throw new JournalError(`${file}: byte ${o.ref!.off} is no longer the line of message ${o.id} (the journal changed since it was folded)`);
  }
  return rec.text;
}
