import { describe, expect, it } from 'vitest';
import type { AppEvent } from '../shared/contract.js';
import type { NeedItem, ThreadMessage } from '../shared/types.js';
import { needNotices, replyNotice, type NeedNoticeContext, type NoticeContext } from './notifications.js';

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

describe('needNotices', () => {
  const need = (over: Partial<NeedItem> = {}): NeedItem => ({ id: 'permission:t:writer', kind: 'permission', team: 't', member: 'writer', title: 'writer waits for a permission answer: Bash npm test', detail: "Answer it in the lead's terminal (team-lead).", since: 2_000, ...over });
  const nctx = (over: Partial<NeedNoticeContext> = {}): NeedNoticeContext => ({ focused: false, enabled: true, known: new Set(), since: 1_000, ...over });
  const ev = (...needs: NeedItem[]): AppEvent => ({ type: 'needs', needs });

  it('marks a permission prompt answerable only when the engine says Teamdeck can answer it', () => {
    const shown = needNotices(ev(need({ answer: { available: true } }), need({ id: 'p2', answer: { available: false, reason: 'off' } }), need({ id: 'plan:t:2', kind: 'plan-approval', answer: { available: true } })), nctx());
    expect(shown.map((n) => [n.needId, n.answerable])).toEqual([['permission:t:writer', true], ['p2', false], ['plan:t:2', false]]);
  });

  it('announces each new need once while it lasts, and again when it comes back', () => {
    const c = nctx();
    expect(needNotices(ev(need()), c)).toEqual([{ title: 't needs you', body: "writer waits for a permission answer: Bash npm test. Answer it in the lead's terminal (team-lead).", team: 't', needId: 'permission:t:writer', kind: 'permission', answerable: false }]);
    expect(needNotices(ev(need(), need({ id: 'plan:t:1', kind: 'plan-approval', title: 'plan', detail: undefined })), c).map((n) => n.needId)).toEqual(['plan:t:1']);
    expect(needNotices(ev(need()), c)).toEqual([]);
    expect(needNotices(ev(), c)).toEqual([]);
    expect(needNotices(ev(need()), c)).toHaveLength(1);
  });

  it('stays quiet when disabled or focused (yet remembers what it saw), for needs older than the start, and for other events', () => {
    const c = nctx({ enabled: false });
    expect(needNotices(ev(need()), c)).toEqual([]);
    c.enabled = true;
    expect(needNotices(ev(need()), c)).toEqual([]);
    expect(needNotices(ev(need({ id: 'x' })), nctx({ focused: true }))).toEqual([]);
    expect(needNotices(ev(need({ since: 10 })), nctx())).toEqual([]);
    expect(needNotices({ type: 'queued-count', count: 1 }, nctx())).toEqual([]);
    expect(needNotices(ev(need({ title: 'y'.repeat(500) })), nctx())[0]!.body.length).toBeLessThanOrEqual(180);
  });
});
