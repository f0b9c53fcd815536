import { describe, expect, it } from 'vitest';
import type { TeamMessage } from '../../shared/types.js';
import { SAMPLE_FRAMES } from '../../../test/helpers/frames.js';
import { parseFrame } from '../claude/frames.js';
import { DEFAULT_IDLE_THRESHOLD_MS, memberState, presenceFacts } from './presence.js';

const MIN = 60_000;
const NOW = Date.parse('2026-02-17T16:00:00.000Z');

type Msg = Pick<TeamMessage, 'from' | 'time' | 'frame'>;
const msg = (from: string, time: number, frame?: Record<string, unknown>): Msg => ({ from, time, frame: frame ? parseFrame(JSON.stringify(frame)) : undefined });

describe('memberState with an injected clock', () => {
  it('defaults to a 5-minute threshold', () => {
    expect(DEFAULT_IDLE_THRESHOLD_MS).toBe(5 * MIN);
  });

  it('is ACTIVE while the latest event is younger than the threshold, IDLE from then on', () => {
    const facts = { lastEventAt: NOW - 5 * MIN, terminated: false };
    expect(memberState(facts, NOW - 1)).toBe('active');
    expect(memberState(facts, NOW)).toBe('idle');
    expect(memberState({ lastEventAt: NOW - 5 * MIN + 1, terminated: false }, NOW)).toBe('active');
  });

  it('ages without a new event: the same facts turn IDLE as the clock advances', () => {
    const facts = { lastEventAt: NOW, terminated: false };
    const states = [0, 1, 4, 4.99, 5, 6, 60].map((m) => memberState(facts, NOW + m * MIN));
    expect(states).toEqual(['active', 'active', 'active', 'active', 'idle', 'idle', 'idle']);
  });

  it('honours a configured threshold', () => {
    const facts = { lastEventAt: NOW - 2 * MIN, terminated: false };
    expect(memberState(facts, NOW, 1 * MIN)).toBe('idle');
    expect(memberState(facts, NOW, 3 * MIN)).toBe('active');
    expect(memberState(facts, NOW)).toBe('active');
  });

  it('is IDLE with no event at all', () => {
    expect(memberState({ terminated: false }, NOW)).toBe('idle');
  });

  it('is TERMINATED after a shutdown approval, whatever the clock says', () => {
    expect(memberState({ lastEventAt: NOW, terminated: true }, NOW)).toBe('terminated');
    expect(memberState({ lastEventAt: NOW - 60 * MIN, terminated: true }, NOW)).toBe('terminated');
    expect(memberState({ terminated: true }, NOW)).toBe('terminated');
  });
});

describe('presenceFacts', () => {
  it('takes the latest of join time and sent messages', () => {
    const facts = presenceFacts([msg('a', NOW - 10 * MIN), msg('a', NOW - 2 * MIN), msg('a', NOW - 7 * MIN)], new Map([['a', NOW - 30 * MIN]]));
    expect(facts.get('a')).toEqual({ lastEventAt: NOW - 2 * MIN, terminated: false });
  });

  it('counts a recent join as an event', () => {
    const facts = presenceFacts([msg('a', NOW - 30 * MIN)], new Map([['a', NOW - 1 * MIN]]));
    expect(facts.get('a')?.lastEventAt).toBe(NOW - MIN);
  });

  it('counts idle notifications as events from their sender', () => {
    const facts = presenceFacts([msg('a', NOW - MIN, SAMPLE_FRAMES.idle_notification)]);
    expect(memberState(facts.get('a')!, NOW)).toBe('active');
  });

  it('credits messages to their sender only, never to their recipient', () => {
    const facts = presenceFacts([msg('team-lead', NOW - MIN)]);
    expect([...facts.keys()]).toEqual(['team-lead']);
  });

  it('ignores messages from the user', () => {
    const facts = presenceFacts([msg('user', NOW)]);
    expect(facts.has('user')).toBe(false);
  });

  it('ignores messages without a usable time', () => {
    expect(presenceFacts([msg('a', 0)]).get('a')).toEqual({ terminated: false });
  });

  it.each([
    ['shutdown_approved', SAMPLE_FRAMES.shutdown_approved],
    ['shutdown_response with approve: true', { type: 'shutdown_response', requestId: 'r', approve: true }],
  ])('makes a member TERMINATED on its own %s', (_label, frame) => {
    const facts = presenceFacts([msg('researcher', NOW - MIN), msg('researcher', NOW - 30 * 1000, frame)]);
    expect(memberState(facts.get('researcher')!, NOW)).toBe('terminated');
  });

  it('does not terminate the member a shutdown request was sent to, nor anyone else', () => {
    const facts = presenceFacts(
      [
        msg('team-lead', NOW - 2 * MIN, SAMPLE_FRAMES.shutdown_request),
        msg('researcher', NOW - MIN, SAMPLE_FRAMES.shutdown_rejected),
        msg('researcher', NOW - MIN, { type: 'shutdown_response', requestId: 'r', approve: false }),
        msg('team-lead', NOW - MIN, SAMPLE_FRAMES.teammate_terminated),
        msg('tester', NOW - MIN, SAMPLE_FRAMES.shutdown_approved),
      ],
      new Map([['researcher', NOW - 10 * MIN]]),
    );
    expect(memberState(facts.get('researcher')!, NOW)).toBe('active');
    expect(memberState(facts.get('team-lead')!, NOW)).toBe('active');
    expect(memberState(facts.get('tester')!, NOW)).toBe('terminated');
  });

  it('cannot be terminated by a shutdown approval the user wrote', () => {
    const facts = presenceFacts([msg('user', NOW, { ...SAMPLE_FRAMES.shutdown_approved, from: 'researcher' }), msg('researcher', NOW - MIN)]);
    expect(memberState(facts.get('researcher')!, NOW)).toBe('active');
  });

  it('keeps a terminated member terminated when older messages are folded in after the approval', () => {
    const facts = presenceFacts([msg('a', NOW - MIN, SAMPLE_FRAMES.shutdown_approved), msg('a', NOW - 10 * MIN)]);
    expect(facts.get('a')).toEqual({ lastEventAt: NOW - MIN, terminated: true });
  });
});
