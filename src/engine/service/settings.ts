// The app's settings: one JSON file in the state dir, validated on read, written atomically.
import { mkdir, readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { z } from 'zod';
import { THEME_CHOICES, type Settings } from '../../shared/contract.js';
import { IDLE_MINUTES_RANGE, MAX_PATH_LENGTH } from '../../shared/contract-schema.js';
import { writeFileAtomic } from '../files/atomic-write.js';
import { DEFAULT_SENDER_NAME, senderNameProblem } from '../claude/era.js';

export const SETTINGS_FILE = 'settings.json';

export const DEFAULT_SETTINGS: Readonly<Settings> = Object.freeze({ teamsDir: '', idleMinutes: 5, notifications: true, senderName: DEFAULT_SENDER_NAME, needsNotifications: true, claudePath: '', answerFromTeamdeck: true });

// A field that is missing or wrong falls back to its default instead of losing the whole file;
// unknown fields (a newer version's) are kept and written back untouched.
const fileSchema = z.looseObject({
  teamsDir: z.string().max(MAX_PATH_LENGTH).catch(DEFAULT_SETTINGS.teamsDir).default(DEFAULT_SETTINGS.teamsDir),
  idleMinutes: z
    .number()
    .int()
    .min(IDLE_MINUTES_RANGE.min)
    .max(IDLE_MINUTES_RANGE.max)
    .catch(DEFAULT_SETTINGS.idleMinutes)
    .default(DEFAULT_SETTINGS.idleMinutes),
  notifications: z.boolean().catch(DEFAULT_SETTINGS.notifications).default(DEFAULT_SETTINGS.notifications),
  needsNotifications: z.boolean().catch(DEFAULT_SETTINGS.needsNotifications).default(DEFAULT_SETTINGS.needsNotifications),
  // A reserved or malformed name in the file (edited by hand) falls back to the default.
  senderName: z
    .string()
    .refine((s) => senderNameProblem(s) === undefined)
    .catch(DEFAULT_SETTINGS.senderName)
    .default(DEFAULT_SETTINGS.senderName),
  claudePath: z.string().max(MAX_PATH_LENGTH).catch(DEFAULT_SETTINGS.claudePath).default(DEFAULT_SETTINGS.claudePath),
  answerFromTeamdeck: z.boolean().catch(DEFAULT_SETTINGS.answerFromTeamdeck).default(DEFAULT_SETTINGS.answerFromTeamdeck),
  // Absent (the default, `system`) stays absent; an unknown value is dropped.
  theme: z.enum(THEME_CHOICES).optional().catch(undefined),
});

export interface SettingsLoad {
  settings: Settings;
  /** Why the file could not be used as it was, if it could not. */
  problem?: string;
}

/** Parses the settings file's text; anything unusable yields the defaults and says why. */
export function parseSettings(text: string | undefined): SettingsLoad & { extra: Record<string, unknown> } {
  if (text === undefined) return { settings: { ...DEFAULT_SETTINGS }, extra: {} };
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { settings: { ...DEFAULT_SETTINGS }, extra: {}, problem: `${SETTINGS_FILE} is not valid JSON; using defaults` };
  }
  const r = fileSchema.safeParse(json);
  if (!r.success) return { settings: { ...DEFAULT_SETTINGS }, extra: {}, problem: `${SETTINGS_FILE} is not an object; using defaults` };
  const { teamsDir, idleMinutes, notifications, senderName, needsNotifications, claudePath, answerFromTeamdeck, theme, ...extra } = r.data;
  return { settings: { teamsDir, idleMinutes, notifications, senderName, needsNotifications, claudePath, answerFromTeamdeck, ...(theme ? { theme } : {}) }, extra };
}

export class SettingsStore {
  private current: Settings;
  private extra: Record<string, unknown>;
  private writing: Promise<void> = Promise.resolve();

  private constructor(
    readonly path: string,
    load: ReturnType<typeof parseSettings>,
    readonly problem?: string,
  ) {
    this.current = load.settings;
    this.extra = load.extra;
  }

  static async open(stateDir: string): Promise<SettingsStore> {
    const path = join(stateDir, SETTINGS_FILE);
    let text: string | undefined;
    try {
      text = await readFile(path, 'utf8');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') {
        const load = parseSettings(undefined);
        return new SettingsStore(path, load, `${SETTINGS_FILE} cannot be read (${(e as NodeJS.ErrnoException).code ?? 'error'}); using defaults`);
      }
    }
    const load = parseSettings(text);
    return new SettingsStore(path, load, load.problem);
  }

  get(): Settings {
    return { ...this.current };
  }

  /** Applies an already validated patch and persists it before resolving; updates apply in call order. */
  update(patch: Partial<Settings>): Promise<Settings> {
    const run = this.writing.then(async () => {
      const next: Settings = { ...this.current };
      if (patch.teamsDir !== undefined) next.teamsDir = patch.teamsDir;
      if (patch.idleMinutes !== undefined) next.idleMinutes = patch.idleMinutes;
      if (patch.notifications !== undefined) next.notifications = patch.notifications;
      if (patch.senderName !== undefined) next.senderName = patch.senderName;
      if (patch.needsNotifications !== undefined) next.needsNotifications = patch.needsNotifications;
      if (patch.claudePath !== undefined) next.claudePath = patch.claudePath;
      if (patch.answerFromTeamdeck !== undefined) next.answerFromTeamdeck = patch.answerFromTeamdeck;
      if (patch.theme !== undefined) next.theme = patch.theme;
      await mkdir(dirname(this.path), { recursive: true });
      await writeFileAtomic(this.path, JSON.stringify({ ...this.extra, ...next }, null, 2) + '\n');
      this.current = next;
      return this.get();
    });
    this.writing = run.then(
      () => undefined,
      () => undefined,
    );
    return run;
  }
}
