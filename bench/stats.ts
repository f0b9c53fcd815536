// Small statistics and table helpers for the benchmarks.
export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i]!;
}

export function summarize(samples: number[]): { n: number; median: number; p99: number; mean: number } {
  const s = [...samples].sort((a, b) => a - b);
  return { n: s.length, median: percentile(s, 50), p99: percentile(s, 99), mean: s.reduce((a, b) => a + b, 0) / Math.max(1, s.length) };
}

export interface Row {
  scenario: string;
  figure: string;
  unit: string;
  median: number;
  p99?: number;
  /** What the figure is compared with (a floor, or the target). */
  compare?: string;
  compareValue?: number;
  /** median / compareValue. */
  ratio?: number;
  target?: string;
  met?: boolean;
  note?: string;
}

const fmt = (v: number | undefined) => (v === undefined || Number.isNaN(v) ? '' : v >= 100 ? v.toFixed(0) : v >= 10 ? v.toFixed(1) : v.toFixed(2));

export function table(rows: Row[]): string {
  const head = ['scenario', 'figure', 'median', 'p99', 'compared with', 'value', 'ratio', 'target', 'met'];
  const body = rows.map((r) => [
    r.scenario,
    r.figure,
    `${fmt(r.median)} ${r.unit}`,
    r.p99 === undefined ? '' : `${fmt(r.p99)} ${r.unit}`,
    r.compare ?? '',
    r.compareValue === undefined ? '' : `${fmt(r.compareValue)} ${r.unit}`,
    r.ratio === undefined ? '' : `${r.ratio.toFixed(2)}x`,
    r.target ?? '',
    r.met === undefined ? '' : r.met ? 'yes' : 'NO',
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => b[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join('  ').trimEnd();
  return [line(head), line(widths.map((w) => '-'.repeat(w))), ...body.map(line)].join('\n');
}
