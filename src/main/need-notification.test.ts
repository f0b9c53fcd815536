import { EventEmitter } from 'node:events';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { NeedNotice } from './notifications.js';

// Electron is a process edge: its Notification is replaced by one that records what was shown.
const shown: FakeNotification[] = [];
class FakeNotification extends EventEmitter {
  visible = false;
  constructor(readonly options: { title: string; body: string; actions?: Array<{ type: string; text: string }> }) {
    super();
  }
  show() {
    this.visible = true;
    shown.push(this);
  }
}
vi.mock('electron', () => ({ Notification: FakeNotification }));

const { showNeedNotification } = await import('./need-notification.js');

const notice = (over: Partial<NeedNotice> = {}): NeedNotice => ({
  title: 'alpha needs you',
  body: 'worker waits for a permission answer: Bash touch a.txt',
  team: 'alpha',
  needId: 'permission:alpha:worker:toolu_01',
  kind: 'permission',
  answerable: true,
  ...over,
});

function deps(platform: NodeJS.Platform, queue: string[] = ['permission:alpha:worker:toolu_01']) {
  return {
    platform,
    answer: vi.fn(async () => ({ ok: true as const, value: {} })),
    waiting: (id: string) => queue.includes(id),
    openNeed: vi.fn(),
  };
}

/** Lets the answer's promise chain run. */
const settle = () => new Promise((r) => setTimeout(r, 0));

beforeEach(() => {
  shown.length = 0;
});

describe('a needs-you notification on macOS', () => {
  it('offers Allow and Deny; each answers exactly this item with its choice', async () => {
    const d = deps('darwin');
    const n = showNeedNotification(notice(), d) as unknown as FakeNotification;
    expect(n.options.actions).toEqual([
      { type: 'button', text: 'Allow' },
      { type: 'button', text: 'Deny' },
    ]);
    n.emit('action', {}, 0);
    await settle();
    expect(d.answer).toHaveBeenCalledTimes(1);
    expect(d.answer).toHaveBeenLastCalledWith({ need: 'permission:alpha:worker:toolu_01', choice: 'allow' });
    n.emit('action', {}, 1);
    await settle();
    expect(d.answer).toHaveBeenLastCalledWith({ need: 'permission:alpha:worker:toolu_01', choice: 'deny' });
    expect(shown).toHaveLength(1);
  });

  it('refuses a stale item (no longer in the queue): no answer call, so nothing is typed, and says why', async () => {
    const d = deps('darwin', []);
    const n = showNeedNotification(notice(), d) as unknown as FakeNotification;
    n.emit('action', {}, 0);
    await settle();
    expect(d.answer).not.toHaveBeenCalled();
    expect(shown).toHaveLength(2);
    expect(shown[1]!.options).toEqual({ title: 'Not answered (alpha)', body: expect.stringMatching(/no longer waiting.*nothing was typed/) });
    shown[1]!.emit('click');
    expect(d.openNeed).toHaveBeenCalledWith('permission:alpha:worker:toolu_01');
  });

  it("shows the engine's refusal in words", async () => {
    const d = deps('darwin');
    d.answer.mockResolvedValueOnce({ ok: false, error: { code: 'refused', message: "the lead's terminal shows no permission dialog" } } as never);
    const n = showNeedNotification(notice(), d) as unknown as FakeNotification;
    n.emit('action', {}, 1);
    await settle();
    expect(d.answer).toHaveBeenCalledTimes(1);
    expect(shown[1]!.options.body).toBe("the lead's terminal shows no permission dialog");
  });

  it('an index outside the buttons answers nothing', async () => {
    const d = deps('darwin');
    const n = showNeedNotification(notice(), d) as unknown as FakeNotification;
    n.emit('action', {}, 5);
    await settle();
    expect(d.answer).not.toHaveBeenCalled();
    expect(shown).toHaveLength(1);
  });

  it('has no buttons for an item Teamdeck cannot answer (a plan, an unreachable lead)', () => {
    const d = deps('darwin');
    expect((showNeedNotification(notice({ answerable: false }), d) as unknown as FakeNotification).options.actions).toBeUndefined();
    expect((showNeedNotification(notice({ kind: 'plan-approval', answerable: false }), d) as unknown as FakeNotification).options.actions).toBeUndefined();
  });
});

describe('a needs-you notification on Linux and Windows', () => {
  it.each(['linux', 'win32'] as const)('%s: no buttons; a click opens the window on the item', (platform) => {
    const d = deps(platform);
    const n = showNeedNotification(notice(), d) as unknown as FakeNotification;
    expect(n.options.actions).toBeUndefined();
    expect(n.listenerCount('action')).toBe(0);
    n.emit('click');
    expect(d.openNeed).toHaveBeenCalledWith('permission:alpha:worker:toolu_01');
    expect(d.answer).not.toHaveBeenCalled();
  });
});
