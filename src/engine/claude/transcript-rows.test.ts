// The row parsers the transcript watcher and the activity/timeline readers share: where they
// read the same row differently, they do so on purpose, and these cases say how.
import { describe, expect, it } from 'vitest';
import { promptOf, promptOrigin, promptText, sendAttempts, timelineItems, turnEndText } from './transcript-rows.js';

const user = (content: unknown, extra: Record<string, unknown> = {}) => ({ type: 'user', message: { role: 'user', content }, ...extra });

describe('prompts', () => {
  it('reads string content and text blocks, and no tool results', () => {
    expect(promptText(user('hi'))).toBe('hi');
    expect(promptOf(user([{ type: 'text', text: 'a' }, 'junk', { type: 'text', text: 'b' }]))).toBe('a\nb');
    expect(promptText(user([{ type: 'tool_result', tool_use_id: 't', content: 'out' }]))).toBeUndefined();
    expect(promptOf(user([{ type: 'tool_result', tool_use_id: 't', content: 'out' }]))).toBeUndefined();
  });

  it('the watcher counts meta rows and prompts typed while a tool ran; the activity reader leaves meta rows out unless a peer sent them', () => {
    const meta = user('<system-reminder>x</system-reminder>', { isMeta: true });
    expect(promptText(meta)).toBe('<system-reminder>x</system-reminder>');
    expect(promptOf(meta)).toBeUndefined();
    expect(promptOf(user('from a peer', { isMeta: true, origin: { kind: 'peer' } }))).toBe('from a peer');
    const queued = { type: 'attachment', attachment: { type: 'queued_command', prompt: 'typed meanwhile', origin: { kind: 'human' } } };
    expect(promptText(queued)).toBe('typed meanwhile');
    expect(promptOf(queued)).toBeUndefined();
    expect(promptOrigin(queued)).toEqual({ typed: true });
    expect(promptOrigin(user('x', { origin: { kind: 'peer', msg_id: 'm1' } }))).toEqual({ peerMsgId: 'm1' });
    expect(promptOrigin(user('x'))).toEqual({});
  });
});

describe('turnEndText', () => {
  const end = (content: unknown, extra: Record<string, unknown> = {}) => ({ type: 'assistant', uuid: 'u9', message: { stop_reason: 'end_turn', content, ...extra } });
  it("is the text of a row that ends a turn, named by the message's id or else the row's uuid", () => {
    expect(turnEndText(end([{ type: 'text', text: ' Four. ' }], { id: 'msg_1' }))).toEqual({ id: 'msg_1', text: 'Four.' });
    expect(turnEndText(end([{ type: 'text', text: 'a' }, { type: 'tool_use', id: 't', name: 'Bash' }, { type: 'text', text: 'b' }]))).toEqual({ id: 'u9', text: 'a\nb' });
    expect(turnEndText(end([{ type: 'text', text: '  ' }]))).toBeUndefined();
    expect(turnEndText(end('not blocks'))).toBeUndefined();
    expect(turnEndText({ type: 'assistant', message: { stop_reason: 'tool_use', content: [{ type: 'text', text: 'a' }] } })).toBeUndefined();
  });
});

describe('sendAttempts', () => {
  it('reads SendMessage calls with a text message only', () => {
    const row = {
      type: 'assistant',
      timestamp: '2026-12-01T10:00:00.000Z',
      message: {
        content: [
          { type: 'tool_use', id: 't1', name: 'SendMessage', input: { to: 'user', message: 'hello' } },
          { type: 'tool_use', id: 't2', name: 'SendMessage', input: { to: 'lead', message: { type: 'shutdown_response' } } },
          { type: 'tool_use', id: 't3', name: 'SendMessage', input: { to: 'lead', message: '  ' } },
          { type: 'tool_use', id: 't4', name: 'Bash', input: { command: 'ls' } },
        ],
      },
    };
    expect(sendAttempts(row, 'researcher')).toEqual([{ id: 'tx-t1', agent: 'researcher', to: 'user', text: 'hello', timestamp: '2026-12-01T10:00:00.000Z' }]);
    expect(sendAttempts({ ...row, type: 'user' }, 'researcher')).toEqual([]);
  });
});

describe('timeline tool results (issue 28, item 14)', () => {
  it("drop the note Claude writes for the model alone, keeping the result", () => {
    const spawned =
      'Spawned successfully. (This tool result is internal metadata — never quote or paste any part of it, including the ID below, into a user-facing reply.)\nagent_id: aresearcher-4932618ede0d71b5\nname: researcher\nThe agent is now running and will receive instructions via mailbox.';
    const names = new Map([['tu1', 'Agent']]);
    const row = { type: 'user', uuid: 'u1', timestamp: '2026-12-07T02:59:00.000Z', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'tu1', content: spawned }] } };
    const [item] = timelineItems(row as never, names);
    expect(item).toMatchObject({ kind: 'tool-result', tool: 'Agent' });
    expect(item!.text).toBe('Spawned successfully.\nagent_id: aresearcher-4932618ede0d71b5\nname: researcher\nThe agent is now running and will receive instructions via mailbox.');
  });
});

