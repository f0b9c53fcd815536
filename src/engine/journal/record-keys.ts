// One message seen twice, once in a transcript and once elsewhere, is shown once
// (docs/claude-contract.md#record). Where Claude gives no id on one side (a block in its
// recipient's transcript), the two are matched by sender, recipient and exact text: this module
// counts, per such key, the messages read from transcripts by text and the ones from the other
// sources (Teamdeck's sends, inbox entries). While one side has more than the other, the next
// message of the other side is the same message, not a new one, and is journaled as a `dup`.
// The counts are folded from the journal, so a restart matches as the first run did.

/** A 52-bit hash of (from, to, text): two FNV-1a passes with different seeds, plus the length. */
export function textKey(from: string, to: string, text: string): number {
  const s = `${from}\u0000${to}\u0000${text}`;
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995);
  }
  return (a >>> 0) * 0x100000 + ((b >>> 12) & 0xfffff);
}

export type KeySide = 'transcript' | 'other';

const SIDE = 0x100000;

/** Per key: messages read by text from transcripts, and from the other sources. */
export class KeyCounts {
  private readonly counts = new Map<number, number>();

  add(key: number, side: KeySide): void {
    this.counts.set(key, (this.counts.get(key) ?? 0) + (side === 'transcript' ? SIDE : 1));
  }

  /**
   * Whether a new message of `side` with this key is one the other side already holds.
   * `pending`: messages of `side` with this key found in the same read, not folded in yet.
   */
  isDuplicate(key: number, side: KeySide, pending = 0): boolean {
    const v = this.counts.get(key) ?? 0;
    const transcript = Math.floor(v / SIDE);
    const other = v % SIDE;
    return side === 'transcript' ? other > transcript + pending : transcript > other + pending;
  }

  get size(): number {
    return this.counts.size;
  }
}
