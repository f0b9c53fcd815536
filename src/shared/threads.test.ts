import { describe, expect, it } from 'vitest';
import { inThread, isUnreadCandidate, threadPlace } from './threads';

const frame = { type: 'idle_notification', fields: {} };

describe('which conversation a message belongs to', () => {
  it('places the user’s words, answers, a member’s protocol events and teammates’ traffic', () => {
    expect(threadPlace({ from: 'user', to: 'researcher' })).toEqual({ kind: 'you', member: 'researcher' });
    // On current teams Teamdeck writes under its own name; the message says so in sentAs.
    expect(threadPlace({ from: 'teamdeck', to: 'researcher', sentAs: 'teamdeck' })).toEqual({ kind: 'you', member: 'researcher' });
    expect(threadPlace({ from: 'researcher', to: 'user' })).toEqual({ kind: 'member', member: 'researcher' });
    expect(threadPlace({ from: 'researcher', to: 'teamdeck', source: 'transcript' })).toEqual({ kind: 'member', member: 'researcher' });
    expect(threadPlace({ from: 'researcher', to: 'team-lead', frame })).toEqual({ kind: 'context', member: 'researcher' });
    expect(threadPlace({ from: 'researcher', to: 'team-lead' })).toEqual({ kind: 'team' });
    // A name written as `teamdeck` without sentAs is a member of that name, not the user.
    expect(threadPlace({ from: 'teamdeck', to: 'researcher' })).toEqual({ kind: 'team' });
  });

  it('shows a member’s protocol events in the window’s thread only', () => {
    const idle = { from: 'researcher', to: 'team-lead', frame };
    expect(inThread(idle, 'researcher', { context: true })).toBe(true);
    expect(inThread(idle, 'researcher', { context: false })).toBe(false);
    expect(inThread({ from: 'user', to: 'x' }, 'researcher', { context: true })).toBe(false);
    expect(inThread({ from: 'team-lead', to: 'researcher' }, 'researcher', { context: true })).toBe(false);
  });

  it('takes two names Claude files in one inbox for one member', () => {
    expect(inThread({ from: 'user', to: 'data bot' }, 'data-bot', { context: false })).toBe(true);
    expect(inThread({ from: 'user', to: 'data-bot2' }, 'data-bot', { context: false })).toBe(false);
  });

  it('counts only a member’s words to the user as unread', () => {
    expect(isUnreadCandidate({ from: 'researcher', to: 'user' })).toBe(true);
    expect(isUnreadCandidate({ from: 'researcher', to: 'team-lead', frame })).toBe(false);
    expect(isUnreadCandidate({ from: 'user', to: 'researcher' })).toBe(false);
  });
});
