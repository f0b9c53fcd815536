// The names of a journal's files: its segments (one record per line) and its snapshots.
export const SEG = /^seg-(\d{8})\.jsonl$/;
export const SNAP = /^snapshot-(\d{8})\.json$/;
export const segName = (n: number) => `seg-${String(n).padStart(8, '0')}.jsonl`;
export const snapName = (n: number) => `snapshot-${String(n).padStart(8, '0')}.json`;
