import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseDialog } from '../claude/permission-dialog.js';
import { leadTurnRuns, mismatch } from './lead-keys.js';

const screen = (name: string) => readFileSync(join(__dirname, '../../../test/fixtures/claude-2.1.332/screens', name), 'utf8');

describe('which prompt is on screen (Claude Code 2.1.332 screens)', () => {
  const teammate = parseDialog(screen('teammate-bash-dialog.txt'))!;
  const lead = parseDialog(screen('lead-bash-dialog.txt'))!;

  it('is the prompt the item describes only with the same member, tool and command', () => {
    expect(mismatch(teammate, { member: 'worker', lead: 'team-lead', tool: 'Bash', subject: 'touch one.txt' })).toBeUndefined();
    expect(mismatch(lead, { member: 'team-lead', lead: 'team-lead', tool: 'Bash', subject: 'tail -f /dev/null' })).toBeUndefined();
    expect(mismatch(teammate, { member: 'tester', lead: 'team-lead', tool: 'Bash', subject: 'touch one.txt' })).toMatch(/shows worker's "Bash command" \(touch one\.txt\), not tester's prompt/);
    expect(mismatch(teammate, { member: 'worker', lead: 'team-lead', tool: 'Bash', subject: 'touch two.txt' })).toMatch(/not touch two\.txt/);
    expect(mismatch(teammate, { member: 'worker', lead: 'team-lead', tool: 'Write', subject: '/home/me/proj/one.txt' })).toMatch(/not a Write prompt/);
    expect(mismatch(lead, { member: 'worker', lead: 'team-lead', tool: 'Bash', subject: 'tail -f /dev/null' })).toMatch(/team-lead's/);
    // Without the call in flight there is nothing to check the screen against: refused.
    expect(mismatch(teammate, { member: 'worker', lead: 'team-lead', tool: 'Bash' })).toMatch(/cannot tell what worker asks/);
  });

  it("sees the lead's own turn running only by its status line", () => {
    expect(leadTurnRuns(screen('lead-running.txt'))).toBe(true);
    expect(leadTurnRuns(screen('lead-idle.txt'))).toBe(false);
    expect(leadTurnRuns(screen('lead-bash-dialog.txt'))).toBe(false);
    // The words in the conversation above the box do not count.
    expect(leadTurnRuns(`● esc to interrupt\n${screen('lead-idle.txt')}`)).toBe(false);
  });
});
