// The terminal channel's decisions, with a real transcript file in a temp folder and a terminal
// that records what would be typed (the terminal is the process edge; the real one is tmux,
// exercised in terminal/ and against the real Claude Code in test/claude/hosted.test.ts).
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TerminalInfo } from '../../shared/types.js';
import { AdmissionError } from '../claude/inbox-writer.js';
import type { LeadSession } from '../claude/sessions.js';
import type { TerminalHost } from '../terminals/types.js';
import type { Team } from '../team/team.js';
import type { SentState } from '../journal/journal.js';
import { pastePieces } from '../claude/lead-screen.js';
import { admitToTerminal, untyped, type TerminalChannelContext } from './terminal-channel.js';

const RULE = '─'.repeat(40);
const screenWith = (box: string) => `Claude Code\n${RULE}\n${box}\n${RULE}\n  ⏵⏵ bypass permissions on`;

let dir: string;
let transcript: string;
let screen: string;
let session: { status?: string; waitingFor?: string };
let typed: Array<string | readonly string[]>;
let keys: string[];

const term: TerminalInfo = { id: 't-000000000001', backend: 'tmux', state: 'running', cwd: '/p', pid: 42, team: 'session-1', startedAt: 0, title: 'p' };
const host = {
  screenText: async () => screen,
  typeTurn: async (_id: string, t: string | readonly string[]) => {
    typed.push(t);
    screen = screenWith('❯ ');
  },
  input: (_id: string, d: string) => {
    keys.push(d);
    screen = screenWith('❯ ');
  },
} as unknown as TerminalHost;
const ctx: TerminalChannelContext = {
  terminals: host,
  terminalOf: () => term,
  now: Date.now,
  // The lead's sessions file as the test sets it (a dialog open, or the lead idle).
  readSession: async () => ({ pid: 42, sessionId: 's', ...session }) as LeadSession,
};

function runtime(): Team {
  return {
    id: 'session-1',
    ended: undefined,
    lead: { name: 'team-lead', isLead: true },
    goneReason: () => undefined,
    transcripts: { find: async () => new Map([['team-lead', transcript]]) },
  } as unknown as Team;
}

const sent = (text: string, extra: Partial<SentState> = {}): SentState => ({ id: 'm1', to: 'team-lead', from: 'user', text, timestamp: new Date().toISOString(), queuedAt: Date.now() - 1_000, channel: 'terminal', ...extra });
const noAttempt = async () => {};

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'teamdeck-terminal-channel-'));
  transcript = join(dir, 'lead.jsonl');
  await writeFile(transcript, '');
  screen = screenWith('❯ ');
  session = { status: 'idle' };
  typed = [];
  keys = [];
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('the terminal channel', () => {
  it('types a turn for the lead, in inline pieces, after journaling the attempt', async () => {
    let attempted = 0;
    const text = 'line one\nline two\nline three';
    expect(await admitToTerminal(ctx, runtime(), sent(text), async () => void attempted++)).toEqual({ duplicate: false });
    expect(attempted).toBe(1);
    // At most one newline a piece: inline even on a small screen (Claude's limit is min(2, rows - 10)).
    expect(typed).toEqual([['line one\nline two', '\nline three']]);
  });

  it('keeps a leading ! or / from running a shell or slash command, and routes a teammate as @name', async () => {
    await admitToTerminal(ctx, runtime(), sent('!rm -rf build'), noAttempt);
    await admitToTerminal(ctx, runtime(), sent('hello', { to: 'researcher' }), noAttempt);
    expect(typed).toEqual([[' !rm -rf build'], ['@researcher hello']]);
  });

  it('waits while a dialog is open: typing would answer it', async () => {
    session = { status: 'waiting', waitingFor: 'permission prompt' };
    const e = await admitToTerminal(ctx, runtime(), sent('later'), noAttempt).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(AdmissionError);
    expect((e as AdmissionError).temporary).toBe(true);
    expect((e as Error).message).toMatch(/permission prompt; typing now would answer it/);
    expect(typed).toEqual([]);
  });

  it("waits while the user's own text is in the input box, and while no box is on screen", async () => {
    screen = screenWith('❯ half a thought');
    await expect(admitToTerminal(ctx, runtime(), sent('mine'), noAttempt)).rejects.toThrow(/unsent text in the lead's input box/);
    screen = 'Do you want to proceed?\n❯ 1. Yes\n  2. No';
    await expect(admitToTerminal(ctx, runtime(), sent('mine'), noAttempt)).rejects.toThrow(/input box is not on screen/);
    expect(typed).toEqual([]);
  });

  it("waits while the terminal shows a teammate's view or its agents list: typing would go there", async () => {
    const fixture = (name: string) => readFileSync(join(__dirname, '../../../test/fixtures/claude-2.1.337/screens', name), 'utf8');
    let attempted = 0;
    screen = fixture('teammate-view.txt');
    for (const to of ['team-lead', 'planner', 'researcher']) {
      const e = await admitToTerminal(ctx, runtime(), sent('for the lead', { to }), async () => void attempted++).catch((x: unknown) => x);
      expect(e).toBeInstanceOf(AdmissionError);
      expect(e).toMatchObject({ temporary: true, code: 'EVIEWING', message: expect.stringMatching(/showing planner's view .*waits until the terminal is back on the lead's input box/) });
    }
    screen = fixture('lead-agents-list.txt');
    await expect(admitToTerminal(ctx, runtime(), sent('for the lead'), noAttempt)).rejects.toMatchObject({ code: 'EAGENTLIST' });
    expect(attempted).toBe(0);
    expect(typed).toEqual([]);
    expect(keys).toEqual([]);
    // Back on the lead's own box, it goes.
    screen = fixture('lead-plan-request.txt');
    await admitToTerminal(ctx, runtime(), sent('for the lead'), noAttempt);
    expect(typed).toEqual([['for the lead']]);
  });

  it('after a crash, does not type again a message its transcript already has (typed, or queued while busy)', async () => {
    const t = new Date().toISOString();
    await writeFile(
      transcript,
      [
        JSON.stringify({ type: 'user', message: { role: 'user', content: 'first' }, origin: { kind: 'human' }, promptSource: 'typed', timestamp: t }),
        JSON.stringify({ type: 'queue-operation', operation: 'enqueue', content: 'second', timestamp: t }),
      ].join('\n') + '\n',
    );
    const at = Date.now() - 500;
    expect(await admitToTerminal(ctx, runtime(), sent('first', { attemptedAt: at }), noAttempt)).toEqual({ duplicate: true });
    expect(await admitToTerminal(ctx, runtime(), sent('second', { id: 'm2', attemptedAt: at }), noAttempt)).toEqual({ duplicate: true });
    // Without an attempt on record it was never typed: no transcript look, it is typed.
    expect(await admitToTerminal(ctx, runtime(), sent('first', { id: 'm3' }), noAttempt)).toEqual({ duplicate: false });
    expect(typed).toEqual([['first']]);
  });

  it("after a crash, does not type again an @name message the lead already wrote into the teammate's inbox", async () => {
    const root = join(dir, 'teams');
    const inboxes = join(root, 'session-1', 'inboxes');
    await mkdir(inboxes, { recursive: true });
    await writeFile(join(inboxes, 'researcher.json'), JSON.stringify([{ from: 'user', text: 'look again', timestamp: new Date().toISOString(), read: false }]));
    const withRoot: TerminalChannelContext = { ...ctx, teamsRoot: root };
    expect(await admitToTerminal(withRoot, runtime(), sent('look again', { to: 'researcher', attemptedAt: Date.now() - 300 }), noAttempt)).toEqual({ duplicate: true });
    expect(await admitToTerminal(withRoot, runtime(), sent('something else', { id: 'm9', to: 'researcher', attemptedAt: Date.now() - 300 }), noAttempt)).toEqual({ duplicate: false });
    expect(typed).toEqual([['@researcher something else']]);
  });

  it('after a crash between the paste and Enter, presses only Enter', async () => {
    screen = screenWith('❯ typed before the crash');
    expect(await admitToTerminal(ctx, runtime(), sent('typed before the crash', { attemptedAt: Date.now() - 200 }), noAttempt)).toEqual({ duplicate: false });
    expect(keys).toEqual(['\r']);
    expect(typed).toEqual([]);
  });

  it('after a crash between two pieces, types only the pieces that had not gone (the box held the first ones)', async () => {
    const text = `${'a'.repeat(790)} ${'b'.repeat(600)}`;
    const pieces = pastePieces(text);
    expect(pieces.length).toBe(2);
    screen = screenWith(`❯ ${pieces[0]}`);
    expect(await admitToTerminal(ctx, runtime(), sent(text, { attemptedAt: Date.now() - 200 }), noAttempt)).toEqual({ duplicate: false });
    expect(typed).toEqual([[pieces[1]]]);
    expect(keys).toEqual([]);
    // Without an attempt of its own, text in the box is the user's: nothing is typed.
    screen = screenWith(`❯ ${pieces[0]}`);
    await expect(admitToTerminal(ctx, runtime(), sent(text, { id: 'm2' }), noAttempt)).rejects.toMatchObject({ code: 'EBUSYBOX' });
    expect(untyped('something of my own', text)).toBeUndefined();
    expect(untyped(`${text}  `, text)).toEqual([]);
    // As the box shows a long line: wrapped at its width, the rest indented.
    const wrapped = text.match(/.{1,76}/g)!.join('\n  ');
    expect(untyped(wrapped, text)).toEqual([]);
    expect(untyped(pieces[0]!.match(/.{1,76}/g)!.join('\n  '), text)).toEqual([pieces[1]]);
  });

  it('is not accepted while Claude leaves the submitted line in the box (an @name whose inbox stayed locked); the next try presses Enter', async () => {
    let t = Date.now();
    const slow: TerminalChannelContext = { ...ctx, now: () => (t += 500) };
    const stuck = { ...host, typeTurn: async (_id: string, p: readonly string[]) => {
        typed.push(p);
        screen = screenWith(`❯ ${p.join('')}`);
      },
      input: (_id: string, d: string) => void keys.push(d),
    } as unknown as TerminalHost;
    const m = sent('check the build', { to: 'researcher' });
    await expect(admitToTerminal({ ...slow, terminals: stuck }, runtime(), m, noAttempt)).rejects.toMatchObject({ code: 'ENOTTAKEN' });
    expect(typed).toEqual([['@researcher check the build']]);
    // The box still shows it: the retry presses only Enter (and this time the box clears).
    expect(await admitToTerminal(slow, runtime(), { ...m, attemptedAt: Date.now() - 100 }, noAttempt)).toEqual({ duplicate: false });
    expect(keys).toEqual(['\r']);
    expect(typed).toHaveLength(1);
  });

  it('is undeliverable once the terminal has exited or the team has ended', async () => {
    const exited: TerminalChannelContext = { ...ctx, terminalOf: () => ({ ...term, state: 'exited' }) };
    await expect(admitToTerminal(exited, runtime(), sent('x'), noAttempt)).rejects.toThrow(/terminal closed/);
    const ended = { ...runtime(), ended: { at: 1, reason: 'the lead exited' } } as unknown as Team;
    await expect(admitToTerminal(ctx, ended, sent('x'), noAttempt)).rejects.toThrow(/ended before it could be delivered/);
  });
});
