import { describe, expect, it } from 'vitest';
import { arrivalLabel, isReservedSender, sentAsHint, sentAsLabel, sourceHint, sourceLabel } from './provenance';

describe('how a sent message was presented', () => {
  it('names the sender written, and what the model is shown', () => {
    expect(sentAsLabel('teamdeck')).toBe('as teamdeck');
    expect(sentAsHint({ member: 'researcher', sentAs: 'teamdeck', isLead: false, era: 'current' })).toBe(
      'Written to researcher’s inbox as teamdeck: Claude shows it to the model as a teammate message.',
    );
    expect(sentAsHint({ member: 'team-lead', sentAs: 'teamdeck', isLead: true, era: 'current' })).toMatch(/wrapped as coming from another Claude session/);
    expect(sentAsHint({ member: 'researcher', sentAs: 'user', isLead: false, era: 'legacy' })).toMatch(/as a message from you/);
  });

  it('owns up to a reserved name written to a current team (older Teamdeck did that)', () => {
    expect(sentAsHint({ member: 'researcher', sentAs: 'user', isLead: false, era: 'current' })).toMatch(/forged/);
  });

  it('says how a new message will arrive, per era', () => {
    expect(arrivalLabel('current', 'teamdeck')).toBe('as teamdeck, a teammate message');
    expect(arrivalLabel('legacy', 'user')).toBe('as user');
  });

  it('knows the reserved names in any case', () => {
    for (const n of ['user', 'USER', 'Team-Lead', 'system']) expect(isReservedSender(n)).toBe(true);
    expect(isReservedSender('teamdeck')).toBe(false);
  });
});

describe('where an answer came from', () => {
  it('marks idle notifications and transcripts, not the usual user inbox', () => {
    expect(sourceLabel('idle-notification')).toBe('from its idle notification');
    expect(sourceLabel('transcript')).toBe('from its transcript');
    expect(sourceLabel('socket')).toBe('over the messaging socket');
    expect(sourceLabel('user-inbox')).toBeUndefined();
    expect(sourceLabel(undefined)).toBeUndefined();
    expect(sourceHint('transcript', 'tester')).toMatch(/tester’s transcript/);
  });
});
