// A needs-you item's desktop notification, and what its buttons and a click do. Electron has
// action buttons only on macOS: there a permission prompt Teamdeck can answer gets Allow and
// Deny, which go through the engine's own answer call (recorded as from the window), and only
// while the item is still in the queue, so a notification left on screen after the prompt was
// answered types nothing. Everywhere a click brings the window forward with the item open, its
// buttons there. Whatever the engine refuses is said in a notification of its own.
import { Notification } from 'electron';
import type { Result } from '../shared/contract.js';
import type { AnswerChoice } from '../shared/types.js';
import type { NeedNotice } from './notifications.js';

export interface NeedNotificationDeps {
  platform: NodeJS.Platform;
  /** The engine's answerPrompt call, through the same validated entry as the window's. */
  answer: (req: { need: string; choice: AnswerChoice }) => Promise<Result<unknown>>;
  /** Whether the item is in the needs queue as the engine last pushed it. */
  waiting: (needId: string) => boolean;
  /** Brings the window forward with this item open in the needs panel. */
  openNeed: (needId: string) => void;
}

/**
 * Notifications still on screen: one that is garbage-collected loses its click and action
 * handlers, so each is held until it closes (bounded: the oldest are let go).
 */
const live = new Set<Notification>();

function keep(n: Notification): void {
  live.add(n);
  n.on('close', () => live.delete(n));
  if (live.size > 50) live.delete(live.values().next().value as Notification);
}

/** The buttons, in the order Electron reports their index. */
export const NEED_BUTTONS: ReadonlyArray<{ text: string; choice: AnswerChoice }> = [
  { text: 'Allow', choice: 'allow' },
  { text: 'Deny', choice: 'deny' },
];

export function showNeedNotification(notice: NeedNotice, deps: NeedNotificationDeps): Notification {
  const buttons = deps.platform === 'darwin' && notice.answerable;
  const n = new Notification({
    title: notice.title,
    body: notice.body,
    ...(buttons ? { actions: NEED_BUTTONS.map((b) => ({ type: 'button' as const, text: b.text })) } : {}),
  });
  n.on('click', () => deps.openNeed(notice.needId));
  if (buttons) n.on('action', (_e, index: number) => void answerFromNotification(notice, NEED_BUTTONS[index]?.choice, deps));
  keep(n);
  n.show();
  return n;
}

/** Answers the notification's item with `choice`; a refusal (or a stale item) is shown, and nothing typed. */
export async function answerFromNotification(notice: NeedNotice, choice: AnswerChoice | undefined, deps: NeedNotificationDeps): Promise<void> {
  if (!choice) return;
  let refusal: string | undefined;
  if (!deps.waiting(notice.needId)) refusal = 'This prompt is no longer waiting (it was answered already); nothing was typed.';
  else {
    try {
      const r = await deps.answer({ need: notice.needId, choice });
      if (!r.ok) refusal = r.error.message;
    } catch (e) {
      refusal = e instanceof Error ? e.message : String(e);
    }
  }
  if (refusal === undefined) return;
  const said = new Notification({ title: `Not answered (${notice.team})`, body: refusal });
  said.on('click', () => deps.openNeed(notice.needId));
  keep(said);
  said.show();
}
