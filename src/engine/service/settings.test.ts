import { describe, expect, it } from 'vitest';
import { readFile, writeFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { useTempDirs } from '../../../test/helpers/tmp.js';
import { DEFAULT_SETTINGS, SettingsStore, parseSettings } from './settings.js';

const tempDir = useTempDirs();

describe('settings', () => {
  it('starts from the defaults when there is no file', async () => {
    const s = await SettingsStore.open(await tempDir());
    expect(s.get()).toEqual({ teamsDir: '', idleMinutes: 5, notifications: true, senderName: 'teamdeck', needsNotifications: true, claudePath: '', answerFromTeamdeck: true });
    expect(s.problem).toBeUndefined();
  });

  it('persists updates atomically and reads them back', async () => {
    const dir = join(await tempDir(), 'state');
    const s = await SettingsStore.open(dir);
    await Promise.all([s.update({ idleMinutes: 7 }), s.update({ notifications: false }), s.update({ needsNotifications: false })]);
    expect(s.get()).toEqual({ teamsDir: '', idleMinutes: 7, notifications: false, senderName: 'teamdeck', needsNotifications: false, claudePath: '', answerFromTeamdeck: true });
    const again = await SettingsStore.open(dir);
    expect(again.get()).toEqual({ teamsDir: '', idleMinutes: 7, notifications: false, senderName: 'teamdeck', needsNotifications: false, claudePath: '', answerFromTeamdeck: true });
  });

  it('persists the claude path', async () => {
    const dir = await tempDir();
    const s = await SettingsStore.open(dir);
    await s.update({ claudePath: '/opt/claude/bin/claude' });
    expect((await SettingsStore.open(dir)).get().claudePath).toBe('/opt/claude/bin/claude');
  });

  it('keeps unknown fields and falls back per field on bad values', async () => {
    const dir = await tempDir();
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, 'settings.json'), JSON.stringify({ idleMinutes: -3, notifications: 'no', teamsDir: '/t', senderName: 'Team-Lead', needsNotifications: 'sometimes', future: { x: 1 } }));
    const s = await SettingsStore.open(dir);
    expect(s.get()).toEqual({ teamsDir: '/t', idleMinutes: 5, notifications: true, senderName: 'teamdeck', needsNotifications: true, claudePath: '', answerFromTeamdeck: true });
    await s.update({ idleMinutes: 9 });
    expect(JSON.parse(await readFile(join(dir, 'settings.json'), 'utf8'))).toEqual({ future: { x: 1 }, teamsDir: '/t', idleMinutes: 9, notifications: true, senderName: 'teamdeck', needsNotifications: true, claudePath: '', answerFromTeamdeck: true });
  });

  it('uses the defaults and says why for a file that is not JSON or not an object', () => {
    expect(parseSettings('{nope')).toMatchObject({ settings: DEFAULT_SETTINGS, problem: expect.stringMatching(/not valid JSON/) });
    expect(parseSettings('[1]')).toMatchObject({ settings: DEFAULT_SETTINGS, problem: expect.stringMatching(/not an object/) });
  });

  it('keeps the theme chosen in the window, system when none (issue 28, item 15)', async () => {
    const dir = await tempDir();
    const s = await SettingsStore.open(dir);
    expect(s.get().theme).toBeUndefined();
    await s.update({ theme: 'dark' });
    expect((await SettingsStore.open(dir)).get().theme).toBe('dark');
    await writeFile(join(dir, 'settings.json'), JSON.stringify({ theme: 'sepia' }));
    expect((await SettingsStore.open(dir)).get().theme).toBeUndefined();
  });
});
