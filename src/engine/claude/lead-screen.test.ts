import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { agentsListFocused, inputBox, inputBoxEmpty, inputText, PASTE_MAX_CHARS, PASTE_MAX_NEWLINES, pastePieces, plainTurn, unwrapPasted, viewedTeammate, notLeadsBox } from './lead-screen.js';

const captured = (version: string, name: string) => readFileSync(join(__dirname, `../../../test/fixtures/claude-${version}/screens`, name), 'utf8');

const RULE = '─'.repeat(60);
const screen = (box: string) => ['╭ Claude Code', '', 'some output', RULE, box, RULE, '  ⏵⏵ bypass permissions on'].join('\n');

describe('the lead screen', () => {
  it('finds the input box between the last two rules', () => {
    expect(inputBox(screen('❯ hello'))).toBe('❯ hello');
    expect(inputText('❯ hello\n  world  ')).toBe('hello\nworld');
  });
  it('an empty box is empty; a box with text is not', () => {
    expect(inputBoxEmpty(screen('❯ '))).toBe(true);
    expect(inputBoxEmpty(screen('> '))).toBe(true);
    expect(inputBoxEmpty(screen('❯ half typed'))).toBe(false);
  });
  it('no box on screen (a dialog) is not empty', () => {
    expect(inputBox('Do you want to proceed?\n❯ 1. Yes\n  2. No')).toBeUndefined();
    expect(inputBoxEmpty('Do you want to proceed?\n❯ 1. Yes\n  2. No')).toBe(false);
  });
});

describe('typing a turn', () => {
  it('splits into inline pieces that rebuild the text', () => {
    const text = 'a'.repeat(1_900) + '\nline2\nline3\nline4';
    const pieces = pastePieces(text);
    expect(pieces.join('')).toBe(text);
    for (const p of pieces) {
      expect(p.length).toBeLessThanOrEqual(PASTE_MAX_CHARS);
      expect(p.split('\n').length - 1).toBeLessThanOrEqual(PASTE_MAX_NEWLINES);
    }
    expect(pastePieces('short')).toEqual(['short']);
  });
  it('keeps ! and / from becoming a shell or slash command', () => {
    expect(plainTurn('!rm -rf x')).toBe(' !rm -rf x');
    expect(plainTurn('/exit')).toBe(' /exit');
    expect(plainTurn('hello /x')).toBe('hello /x');
  });
  it('unwraps pasted material', () => {
    expect(unwrapPasted('\n\n<pasted_content id="2d60">\nbody\nmore\n</pasted_content id="2d60">\n')).toBe('body\nmore');
    expect(unwrapPasted('plain')).toBe('plain');
  });
});

describe("whose input box the lead's terminal shows (Claude Code 2.1.337 screens)", () => {
  it("sees a teammate's view by its header and its box's labelled rule", () => {
    const view = captured('2.1.337', 'teammate-view.txt');
    expect(viewedTeammate(view)).toBe('planner');
    expect(notLeadsBox(view)).toMatchObject({ code: 'EVIEWING', member: 'planner', why: expect.stringMatching(/showing planner's view/) });
    // With the agents list focused in the view, it is still the teammate's view that counts.
    expect(notLeadsBox(captured('2.1.337', 'teammate-view-agents-list.txt'))).toMatchObject({ code: 'EVIEWING', member: 'planner' });
    // Either sign alone is enough (the header scrolled away, or the rule drawn differently).
    const [header, ...rest] = view.split('\n').filter((l) => !/^Viewing @/.test(l));
    expect(viewedTeammate([header, ...rest].join('\n'))).toBe('planner');
    expect(viewedTeammate(view.replace(/ @planner ─/, '──────────'))).toBe('planner');
  });

  it("takes the lead's own view as the lead's, and its agents list as no box to type in", () => {
    for (const [v, name] of [['2.1.337', 'lead-plan-request.txt'], ['2.1.332', 'lead-idle.txt'], ['2.1.332', 'lead-running.txt']] as const) {
      expect(viewedTeammate(captured(v, name))).toBeUndefined();
      expect(notLeadsBox(captured(v, name))).toBeUndefined();
    }
    const list = captured('2.1.337', 'lead-agents-list.txt');
    expect(viewedTeammate(list)).toBeUndefined();
    expect(agentsListFocused(list)).toBe(true);
    expect(notLeadsBox(list)).toMatchObject({ code: 'EAGENTLIST' });
    // A turn that mentions a teammate's view is not one.
    expect(viewedTeammate(`❯ Viewing @planner · esc to return\n${captured('2.1.337', 'lead-plan-request.txt')}`)).toBeUndefined();
  });
});
