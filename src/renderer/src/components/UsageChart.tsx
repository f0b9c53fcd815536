// A stacked area chart over time, one band per series (a team's members per hour, or every
// team's spend per day), drawn by uPlot on a canvas (docs/usage.md#window): small, fast with
// months of points, and it sets no inline style attribute nor evaluates code, so the page's CSP
// holds. Stacking is done here (uPlot draws series, not stacks): each band is drawn as the sum of
// itself and those below it, the biggest sum first, so each band shows over the one above.
import { useEffect, useMemo, useRef, useSyncExternalStore } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

const DARK_QUERY = '(prefers-color-scheme: dark)';
function subscribeDark(onChange: () => void): () => void {
  const mq = window.matchMedia(DARK_QUERY);
  mq.addEventListener('change', onChange);
  return () => mq.removeEventListener('change', onChange);
}
function usePrefersDark(): boolean {
  return useSyncExternalStore(subscribeDark, () => window.matchMedia(DARK_QUERY).matches);
}

/** Distinct in light and dark. */
export const SERIES_COLORS = ['#6366f1', '#10b981', '#f59e0b', '#ef4444', '#0ea5e9', '#a855f7', '#84cc16', '#ec4899', '#14b8a6', '#f97316'];

export interface StackedData {
  /** Seconds since the epoch, ascending: the start of each bucket. */
  x: number[];
  /** A bucket's length in seconds (an hour, a day): each value holds for that long. */
  step: number;
  series: Array<{ label: string; values: number[] }>;
  /** How a value reads (the legend and the axis). */
  format: (v: number) => string;
}

/**
 * The buckets as steps: a bucket with no spend after one with some drops to zero where it ends
 * (else the step would run on to the next spend), and the last bucket ends too.
 */
function withEnds(d: StackedData): StackedData {
  const x: number[] = [];
  const at: number[] = [];
  d.x.forEach((t, i) => {
    x.push(t);
    at.push(i);
    const next = d.x[i + 1];
    if (next === undefined || next > t + d.step) {
      x.push(t + d.step);
      at.push(-1);
    }
  });
  return { ...d, x, series: d.series.map((s) => ({ label: s.label, values: at.map((i) => (i < 0 ? 0 : (s.values[i] ?? 0))) })) };
}

/** The stacked sums, the top band first (drawn first, so each band below shows over it). */
function stacked(d: StackedData): { data: uPlot.AlignedData; order: number[] } {
  const sums: number[][] = [];
  let below = d.x.map(() => 0);
  for (const s of d.series) {
    below = below.map((v, i) => v + (s.values[i] ?? 0));
    sums.push(below);
  }
  const order = d.series.map((_, i) => i).reverse();
  return { data: [d.x, ...order.map((i) => sums[i]!)], order };
}

const stepped = uPlot.paths.stepped!({ align: 1 });

export function UsageChart({ data, testId }: { data: StackedData; testId: string }) {
  const box = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | null>(null);
  const dark = usePrefersDark();
  const shape = `${dark}:${data.series.map((s) => s.label).join('\u0000')}`;
  const steps = useMemo(() => withEnds(data), [data]);
  const latest = useRef(steps);
  latest.current = steps;

  // Made again when the theme or the set of series changes; new points only update its data.
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const ink = dark ? '#a1a1aa' : '#52525b';
    const grid = dark ? '#27272a' : '#e4e4e7';
    const d = latest.current;
    const { data: rows, order } = stacked(d);
    const opts: uPlot.Options = {
      width: Math.max(200, el.clientWidth),
      height: Math.max(120, el.clientHeight),
      legend: { show: true, live: true },
      cursor: { drag: { x: true, y: false } },
      // One bucket alone still shows as a step a bucket wide, not a point lost in a year of axis.
      scales: { x: { time: true, range: (_u, min, max) => [min - latest.current.step / 2, Math.max(max, min + latest.current.step) + latest.current.step / 2] } },
      axes: [
        { stroke: ink, grid: { stroke: grid, width: 1 }, ticks: { stroke: grid } },
        { stroke: ink, grid: { stroke: grid, width: 1 }, ticks: { stroke: grid }, size: 64, values: (_u, vals) => vals.map((v) => latest.current.format(v)) },
      ],
      series: [
        {},
        ...order.map((i) => {
          const color = SERIES_COLORS[i % SERIES_COLORS.length]!;
          return {
            label: d.series[i]!.label,
            stroke: color,
            fill: `${color}${dark ? '66' : '55'}`,
            width: 1,
            paths: stepped,
            points: { show: false },
            // The legend shows the band's own value, not the stacked sum.
            value: (_u: uPlot, _v: number, _si: number, idx: number | null) => (idx === null ? '' : latest.current.format(latest.current.series[i]?.values[idx] ?? 0)),
          };
        }),
      ],
    };
    const u = new uPlot(opts, rows, el);
    plot.current = u;
    const ro = new ResizeObserver(() => u.setSize({ width: Math.max(200, el.clientWidth), height: Math.max(120, el.clientHeight - legendHeight(el)) }));
    ro.observe(el);
    return () => {
      ro.disconnect();
      u.destroy();
      plot.current = null;
    };
  }, [shape, dark]);

  useEffect(() => {
    plot.current?.setData(stacked(steps).data);
  }, [steps]);

  return <div ref={box} data-testid={testId} data-points={data.x.length} className="usage-chart h-full min-h-0 w-full" />;
}

function legendHeight(el: HTMLElement): number {
  return (el.querySelector('.u-legend') as HTMLElement | null)?.offsetHeight ?? 0;
}
