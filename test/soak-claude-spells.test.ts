// The soak's account (bench/soak-claude/account.ts) counts a never-read message as cut off by its
// member's end only when the member could have read it for a short while: a message that reached
// a member in a Bash spell became readable when the spell ended, not when it was written.
import { describe, expect, it } from 'vitest';
import { readableAfterSpells, type Spell } from '../bench/soak-claude/models.js';

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
