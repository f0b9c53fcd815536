// Issue 28, item 8: one name for the user. The CLI said "user -> team-lead" and then
// "team-lead -> teamdeck" where the window said "you".
import { describe, expect, it } from 'vitest';
import type { ThreadMessage } from '../shared/types.js';
import { messageLine } from './format.js';

const base = { team: 'alpha', timestamp: '2026-12-07T02:59:00.000Z', time: 0, read: true } as const;

describe('messageLine', () => {
  it('calls the user "you" at either end, under any name Teamdeck wrote or was answered as', () => {
    const typed: ThreadMessage = { ...base, id: '1', from: 'user', to: 'team-lead', text: 'find the bug' };
    const sent: ThreadMessage = { ...base, id: '2', from: 'teamdeck', sentAs: 'teamdeck', to: 'researcher', text: 'please check' };
    const answer: ThreadMessage = { ...base, id: '3', from: 'researcher', to: 'teamdeck', source: 'socket', text: 'done' };
    const between: ThreadMessage = { ...base, id: '4', from: 'researcher', to: 'implementer', text: 'over to you' };
    expect([typed, sent, answer, between].map((m) => messageLine(m).split('  ')[1])).toEqual([
      'you -> team-lead',
      'you -> researcher',
      'researcher -> you',
      'researcher -> implementer',
    ]);
  });
});
