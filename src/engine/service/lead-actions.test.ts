// The keys Teamdeck presses in the lead's terminal for a plan answer or a Stop, against screens
// captured from Claude Code 2.1.337 (the pane is the process edge: it records keys and plays the
// screen back; the real terminal is exercised in test/claude/plan.test.ts).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { interruptLead, LeadKeysError } from '../delivery/lead-keys.js';
import type { LeadPane, PaneKey } from '../terminals/lead-pane.js';
import { typeTurn } from './lead-actions.js';

const fixture = (name: string) => readFileSync(join(__dirname, '../../../test/fixtures/claude-2.1.337/screens', name), 'utf8');

function pane(first: string) {
  let shown = first;
  const pressed: string[] = [];
  const p: LeadPane & { pressed: string[]; show(s: string): void } = {
    where: 'test pane',
    kind: 'tmux',
    pressed,
    show: (s) => void (shown = s),
    screen: async () => shown,
    key: async (k: PaneKey) => void pressed.push(k),
    text: async (t: string) => void pressed.push(`text:${t}`),
  };
  return p;
}

const LINE = "I approve planner's plan (request plan-1). Send planner the plan approval (approve: true) now.";

describe("a plan answer typed into the lead's terminal", () => {
  it("is refused, nothing typed, while the terminal shows the teammate's view", async () => {
    const p = pane(fixture('teammate-view.txt'));
    const e = await typeTurn(p, LINE, Date.now).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(LeadKeysError);
    expect((e as Error).message).toMatch(/^the lead's terminal is showing planner's view; switch back to the lead to answer/);
    expect((e as LeadKeysError).keys).toEqual([]);
    expect(p.pressed).toEqual([]);
  });

  it('is refused while the agents list has the keys (Enter there would open a view)', async () => {
    const p = pane(fixture('lead-agents-list.txt'));
    await expect(typeTurn(p, LINE, Date.now)).rejects.toThrow(/agents list focused .*press Esc in it/);
    expect(p.pressed).toEqual([]);
  });

  it('is typed and sent on the lead\'s own view, and not sent when the view changed before Enter', async () => {
    const main = fixture('lead-plan-request.txt');
    const withText = main.replace(/^❯[^\S\n]*$/m, `❯ ${LINE}`);
    expect(withText).not.toBe(main);
    const p = pane(main);
    p.text = async (t) => {
      p.pressed.push(`text:${t}`);
      p.show(withText);
    };
    p.key = async (k) => {
      p.pressed.push(k);
      if (k === 'Enter') p.show(main);
    };
    expect(await typeTurn(p, LINE, Date.now)).toMatchObject({ confirmed: true });
    expect(p.pressed).toEqual([`text:${LINE}`, 'Enter']);

    // The user opens the teammate's view between the text and Enter: no Enter.
    const q = pane(main);
    q.text = async (t) => {
      q.pressed.push(`text:${t}`);
      q.show(withText);
      setTimeout(() => q.show(fixture('teammate-view.txt')), 100);
    };
    const e = await typeTurn(q, LINE, Date.now).catch((x: unknown) => x);
    expect((e as Error).message).toMatch(/showing planner's view.*the typed answer was not sent/);
    expect(q.pressed).toEqual([`text:${LINE}`]);
  });
});

describe("Stop (Esc) in the lead's terminal", () => {
  it("is refused while the terminal shows a teammate's view: Esc would act on the view", async () => {
    const view = fixture('teammate-view.txt');
    const p = pane(view.replace('◐ medium · /effort', 'esc to interrupt'));
    await expect(interruptLead(p)).rejects.toThrow(/showing planner's view .*switch back to the lead first/);
    expect(p.pressed).toEqual([]);
  });
});
