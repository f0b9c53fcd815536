// The soak's account (bench/soak-claude/account.ts) counts a never-read message as cut off by its
// member's end only when the member could have read it for a short while: a message that reached
// a member in a Bash spell became readable when the spell ended, not when it was written. The
// drain waits for every answer only once no model can still give one.
import { describe, expect, it } from 'vitest';
import { modelsBusy, readableAfterSpells, type Spell } from '../bench/soak-claude/models.js';
import type { ApiRequest } from './claude/harness/script.js';

const spell = (agent: string, team: string | undefined, from: number, until: number): Spell => ({ agent, team, from, until });

describe('readableAfterSpells', () => {
  it('is the delivery time when the member is not working', () => {
    expect(readableAfterSpells([spell('tester', 't1', 0, 1_000)], 'tester', 't1', 5_000)).toBe(5_000);
  });

  it('is the end of the spell the message arrived in, and of one that follows it without a gap', () => {
    const all = [spell('tester', 't1', 1_000, 21_000), spell('tester', 't1', 21_000, 25_000)];
    expect(readableAfterSpells(all, 'tester', 't1', 3_000)).toBe(25_000);
  });

  it("ignores another member's spells and the same member's spells in another team", () => {
    const all = [spell('writer', 't1', 0, 20_000), spell('tester', 't2', 0, 20_000)];
    expect(readableAfterSpells(all, 'tester', 't1', 3_000)).toBe(3_000);
  });
});

describe('modelsBusy', () => {
  const call = (at: number, reply?: ApiRequest['reply']): ApiRequest => ({
    seq: 1,
    at,
    method: 'POST',
    url: '/v1/messages',
    headers: {},
    body: undefined,
    agent: 'writer',
    newContent: [],
    newText: '',
    ...(reply ? { reply, status: 200 } : {}),
  });

  it('is busy while a reply is on its way (the last answer is not given yet)', () => {
    expect(modelsBusy([call(1_000, [{ type: 'text', text: 'writer answer 1: #1' }]), call(2_000)], 2_100)).toBe(true);
  });

  it('is not busy once every call has its reply', () => {
    expect(modelsBusy([call(1_000, [{ type: 'text', text: 'writer answer 1: #1' }])], 2_100)).toBe(false);
  });

  it('is busy through a work spell and a moment after it, when its result comes back as a new call', () => {
    const log = [call(1_000, [{ type: 'tool_use', id: 'b1', name: 'Bash', input: { command: 'sleep 2.0; echo WORKED' } }])];
    expect(modelsBusy(log, 2_500)).toBe(true);
    expect(modelsBusy(log, 4_000)).toBe(true);
    expect(modelsBusy(log, 7_000)).toBe(false);
  });

  it('does not count a count_tokens request', () => {
    expect(modelsBusy([{ ...call(1_000), url: '/v1/messages/count_tokens' }], 2_000)).toBe(false);
  });
});
