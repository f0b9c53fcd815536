import { describe, expect, it } from 'vitest';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { useTempDirs } from '../../test/helpers/tmp.js';
import { DEFAULT_SIZE, fitToDisplays, loadWindowState, saveWindowState } from './window-state.js';

const tempDir = useTempDirs();
const screen = { x: 0, y: 0, width: 1920, height: 1080 };
const second = { x: 1920, y: 0, width: 1280, height: 1024 };

describe('window state', () => {
  it('round-trips through the state dir and ignores a bad file', async () => {
    const dir = await tempDir();
    expect(await loadWindowState(dir)).toBeUndefined();
    await saveWindowState(dir, { x: 10, y: 20, width: 900, height: 600, maximized: true });
    expect(await loadWindowState(dir)).toEqual({ x: 10, y: 20, width: 900, height: 600, maximized: true });
    await writeFile(join(dir, 'window-state.json'), '{"width": 10, "height": "big"}');
    expect(await loadWindowState(dir)).toBeUndefined();
  });

  it('keeps bounds that fit, moves lost windows back and caps the size', () => {
    expect(fitToDisplays(undefined, [screen])).toEqual({ ...DEFAULT_SIZE, maximized: false, x: undefined, y: undefined });
    expect(fitToDisplays({ x: 2000, y: 100, width: 1000, height: 800, maximized: false }, [screen, second])).toEqual({
      x: 2000,
      y: 100,
      width: 1000,
      height: 800,
      maximized: false,
    });
    // The second monitor is gone.
    expect(fitToDisplays({ x: 2000, y: 100, width: 1000, height: 800, maximized: false }, [screen])).toMatchObject({ x: undefined, y: undefined });
    // Title bar above the top of the screen.
    expect(fitToDisplays({ x: 100, y: -500, width: 1000, height: 800, maximized: false }, [screen])).toMatchObject({ x: undefined });
    expect(fitToDisplays({ x: 0, y: 0, width: 5000, height: 5000, maximized: true }, [screen])).toEqual({ x: 0, y: 0, width: 1920, height: 1080, maximized: true });
  });
});
