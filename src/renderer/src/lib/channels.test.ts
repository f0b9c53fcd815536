import { describe, expect, it } from 'vitest';
import type { ChannelOption } from '../../../shared/types';
import { channelHint, channelInputs, channelMark, channelShort, pickChannel } from './channels';

const terminal: ChannelOption = { kind: 'terminal', label: 'as you, typed into the lead’s terminal', available: true, preferred: true };
const inbox: ChannelOption = { kind: 'inbox', label: 'as teamdeck, a teammate message', available: true };
const socket: ChannelOption = { kind: 'socket', label: 'as another session', available: false, reason: 'in-process teammates have no socket' };

describe('pickChannel', () => {
  it('uses the host’s preferred channel when the user chose none', () => {
    expect(pickChannel([inbox, terminal, socket], undefined)).toBe(terminal);
  });

  it('uses the user’s choice while it is available, and falls back to the preferred one when it is not', () => {
    expect(pickChannel([terminal, inbox, socket], 'inbox')).toBe(inbox);
    expect(pickChannel([terminal, inbox, socket], 'socket')).toBe(terminal);
  });

  it('takes the first available one when none is marked preferred, and nothing when there are no options', () => {
    expect(pickChannel([{ ...socket }, { ...inbox }], undefined)?.kind).toBe('inbox');
    expect(pickChannel([socket], undefined)).toBe(socket);
    expect(pickChannel([], 'inbox')).toBeUndefined();
    expect(pickChannel(undefined, undefined)).toBeUndefined();
  });
});

describe('channel words', () => {
  it('names each channel the way the user thinks of it', () => {
    expect(channelShort('terminal', 'teamdeck')).toBe('as you');
    expect(channelShort('inbox', 'teamdeck')).toBe('as teamdeck');
    expect(channelShort('socket', 'teamdeck')).toBe('as another session');
  });

  it('marks a sent message with how it went; an inbox message (or an old journal’s, with no channel) with its sender name', () => {
    expect(channelMark({ channel: 'terminal', sentAs: 'teamdeck' })).toBe('typed as you');
    expect(channelMark({ channel: 'socket' })).toBe('as another session');
    expect(channelMark({ channel: 'inbox', sentAs: 'teamdeck' })).toBe('as teamdeck');
    expect(channelMark({ sentAs: 'user' })).toBe('as user');
    expect(channelMark({})).toBeUndefined();
  });

  it('explains the terminal channel differently for the lead (a turn) and a teammate (@name)', () => {
    expect(channelHint('terminal', 'team-lead', true)).toMatch(/your own turn/);
    expect(channelHint('terminal', 'researcher', false)).toMatch(/@researcher/);
    expect(channelHint('socket', 'researcher', false)).toMatch(/another Claude session/);
    expect(channelHint('inbox', 'researcher', false)).toBeUndefined();
  });
});

describe('channelInputs', () => {
  const roster = [
    { name: 'team-lead', state: 'active', isLead: true },
    { name: 'researcher', state: 'active', isLead: false },
  ];
  it('changes when the terminal starts or exits, a member joins or shuts down, or the team ends', () => {
    const base = channelInputs({ teamState: 'running', terminal: { id: 't-1', state: 'running' }, roster });
    expect(channelInputs({ teamState: 'running', terminal: { id: 't-1', state: 'exited' }, roster })).not.toBe(base);
    expect(channelInputs({ teamState: 'running', terminal: { id: 't-1', state: 'running' }, roster: [...roster, { name: 'tester', state: 'active', isLead: false }] })).not.toBe(base);
    expect(channelInputs({ teamState: 'running', terminal: { id: 't-1', state: 'running' }, roster: [roster[0]!, { ...roster[1]!, state: 'terminated' }] })).not.toBe(base);
    expect(channelInputs({ teamState: 'ended', terminal: { id: 't-1', state: 'running' }, roster })).not.toBe(base);
  });

  it('stays the same while members only go from active to idle and back', () => {
    const base = channelInputs({ teamState: 'running', roster });
    expect(channelInputs({ teamState: 'running', roster: roster.map((r) => ({ ...r, state: 'idle' })) })).toBe(base);
  });
});
