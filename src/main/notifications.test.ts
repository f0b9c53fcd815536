import { describe, expect, it } from 'vitest';
import type { AppEvent } from '../shared/contract.js';
import type { ThreadMessage } from '../shared/types.js';
import { replyNotice, type NoticeContext } from './notifications.js';

const msg = (over: Partial<ThreadMessage> = {}): AppEvent => ({
  type: 'message',
  team: 'alpha',
  message: { id: 'm1', team: 'alpha', from: 'researcher', to: 'user', text: 'Found it\nin auth.ts', timestamp: '', time: 2_000, read: false, ...over },
});
const ctx = (over: Partial<NoticeContext> = {}): NoticeContext => ({ focused: false, enabled: true, since: 1_000, seen: new Set(), ...over });

describe('replyNotice', () => {
  it('announces a new reply to the user while the window is unfocused', () => {
    expect(replyNotice(msg(), ctx())).toEqual({ title: 'researcher replied (alpha)', body: 'Found it in auth.ts', team: 'alpha', member: 'researcher' });
    expect(replyNotice(msg({ summary: 'Bug found' }), ctx())?.body).toBe('Bug found');
  });

  it("announces a current-era answer (an idle notification's result, addressed to the lead)", () => {
    const answer = msg({ id: 'm2:result', to: 'team-lead', text: 'The answer is 42.', source: 'idle-notification' });
    expect(replyNotice(answer, ctx())).toEqual({ title: 'researcher replied (alpha)', body: 'The answer is 42.', team: 'alpha', member: 'researcher' });
  });

  it('stays quiet when focused, disabled, for old, repeated, own, teammate or frame messages', () => {
    expect(replyNotice(msg(), ctx({ focused: true }))).toBeUndefined();
    expect(replyNotice(msg(), ctx({ enabled: false }))).toBeUndefined();
    expect(replyNotice(msg({ time: 10 }), ctx())).toBeUndefined();
    expect(replyNotice(msg({ from: 'user', to: 'researcher' }), ctx())).toBeUndefined();
    expect(replyNotice(msg({ to: 'team-lead' }), ctx())).toBeUndefined();
    expect(replyNotice(msg({ frame: { type: 'idle_notification', fields: {} } }), ctx())).toBeUndefined();
    expect(replyNotice({ type: 'queued-count', count: 1 }, ctx())).toBeUndefined();
    const c = ctx();
    expect(replyNotice(msg(), c)).toBeDefined();
    expect(replyNotice(msg(), c)).toBeUndefined();
  });

  it('shortens long bodies', () => {
    expect(replyNotice(msg({ text: 'x'.repeat(500) }), ctx())!.body.length).toBeLessThanOrEqual(180);
  });
});
