// The main window's size and place, remembered in the state dir between runs. The file is
// validated on read, and bounds that no longer fit any display (a monitor was unplugged) are
// pulled back onto the primary one. No electron import: callers pass the displays in.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { writeFileAtomic } from '../engine/files/atomic-write.js';

export const WINDOW_STATE_FILE = 'window-state.json';
export const DEFAULT_SIZE = { width: 1200, height: 800 } as const;
export const MIN_SIZE = { width: 640, height: 420 } as const;

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface WindowState {
  x?: number;
  y?: number;
  width: number;
  height: number;
  maximized: boolean;
}

const int = z.number().int().min(-100_000).max(100_000);
const stateSchema = z.looseObject({
  x: int.optional(),
  y: int.optional(),
  width: z.number().int().min(MIN_SIZE.width).max(100_000),
  height: z.number().int().min(MIN_SIZE.height).max(100_000),
  maximized: z.boolean().catch(false).default(false),
});

export async function loadWindowState(stateDir: string): Promise<WindowState | undefined> {
  try {
    const r = stateSchema.safeParse(JSON.parse(await readFile(join(stateDir, WINDOW_STATE_FILE), 'utf8')));
    if (!r.success) return undefined;
    const { x, y, width, height, maximized } = r.data;
    return { x, y, width, height, maximized };
  } catch {
    return undefined;
  }
}

export async function saveWindowState(stateDir: string, state: WindowState): Promise<void> {
  await writeFileAtomic(join(stateDir, WINDOW_STATE_FILE), JSON.stringify(state, null, 2) + '\n', { fsync: false });
}

function overlap(a: Rect, b: Rect): number {
  const w = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x);
  const h = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y);
  return w > 0 && h > 0 ? w * h : 0;
}

/**
 * Keeps a remembered window usable: its size capped to the work area it lands on, and its
 * position dropped (centred by the OS) unless enough of its title bar area is on some display.
 */
export function fitToDisplays(state: WindowState | undefined, workAreas: Rect[]): WindowState {
  const primary = workAreas[0];
  const base: WindowState = state ?? { ...DEFAULT_SIZE, maximized: false };
  if (!primary) return base;
  const cap = (s: WindowState, area: Rect): WindowState => ({
    ...s,
    width: Math.max(MIN_SIZE.width, Math.min(s.width, area.width)),
    height: Math.max(MIN_SIZE.height, Math.min(s.height, area.height)),
  });
  if (base.x === undefined || base.y === undefined) return cap({ ...base, x: undefined, y: undefined }, primary);
  const rect: Rect = { x: base.x, y: base.y, width: base.width, height: base.height };
  // The top strip is where the window is grabbed: at least 100x40 px of it must be visible.
  const strip: Rect = { x: rect.x, y: rect.y, width: rect.width, height: 40 };
  const best = workAreas.map((a) => ({ a, o: overlap(rect, a), s: overlap(strip, a) })).sort((p, q) => q.o - p.o)[0];
  if (!best || best.s < 100 * 40) return cap({ ...base, x: undefined, y: undefined }, primary);
  return cap(base, best.a);
}
