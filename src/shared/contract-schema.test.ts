import { describe, expect, it } from 'vitest';
import { sampleArgs } from '../../test/helpers/call-samples.js';
import { CALL_NAMES, CALLS } from './contract.js';
import { isHttpUrl, MAX_TEXT_BYTES, validateCall, wsClientMessageSchema } from './contract-schema.js';

const bad = (name: unknown, args: unknown) => {
  const r = validateCall(name, args);
  expect(r.ok).toBe(false);
  return r.ok ? undefined : r.error;
};

describe('validateCall', () => {
  it('takes every call in the table with arguments of its kinds, and refuses one argument more', () => {
    expect(CALL_NAMES.length).toBeGreaterThan(20);
    for (const name of CALL_NAMES) {
      const args = sampleArgs(CALLS[name].args);
      expect(validateCall(name, args), name).toMatchObject({ ok: true, name, args });
      const extra = validateCall(name, [...args, 'extra']);
      expect(extra.ok, `${name} with an extra argument`).toBe(false);
      if (!extra.ok) expect(extra.error).toEqual({ code: 'invalid', message: expect.stringMatching(new RegExp(`^${name}: `)) });
    }
  });

  it('lets optional arguments be left out, but not sent as null', () => {
    const optional = CALL_NAMES.filter((name) => CALLS[name].args.some((kind) => kind.endsWith('?')));
    expect(optional).toContain('getTimeline');
    for (const name of optional) {
      const args = sampleArgs(CALLS[name].args);
      const required = CALLS[name].args.filter((kind) => !kind.endsWith('?')).length;
      expect(validateCall(name, args.slice(0, required)).ok, name).toBe(true);
      expect(validateCall(name, [...args.slice(0, required), null]).ok, `${name} with null`).toBe(false);
    }
  });

  it('accepts well-formed calls', () => {
    expect(validateCall('getSnapshot', [])).toMatchObject({ ok: true, args: [] });
    expect(validateCall('getThread', ['team', 'researcher'])).toMatchObject({ ok: true });
    expect(validateCall('send', [{ team: 't', to: 'm', text: 'hello', summary: 'hi' }])).toMatchObject({ ok: true });
    expect(validateCall('setSettings', [{ idleMinutes: 10, notifications: false, teamsDir: '/x' }])).toMatchObject({ ok: true });
    expect(validateCall('setSettings', [{}])).toMatchObject({ ok: true });
    expect(validateCall('openExternal', ['https://example.com/a?b#c'])).toMatchObject({ ok: true });
  });

  it('rejects unknown calls and non-list arguments', () => {
    expect(bad('eval', [])?.code).toBe('invalid');
    expect(bad('__proto__', [])?.code).toBe('invalid');
    expect(bad('getRoster', 'team')?.code).toBe('invalid');
    expect(bad('getRoster', { 0: 'team' })?.code).toBe('invalid');
  });

  it('rejects missing, extra and mistyped arguments', () => {
    bad('getRoster', []);
    bad('getRoster', ['a', 'b']);
    bad('getSnapshot', [1]);
    bad('getThread', ['a']);
    bad('getThread', ['a', 7]);
    bad('send', []);
    bad('send', ['text']);
    bad('send', [null]);
  });

  it('bounds names: non-empty, at most 255 characters, no control characters', () => {
    bad('getRoster', ['']);
    bad('getRoster', ['x'.repeat(256)]);
    expect(validateCall('getRoster', ['x'.repeat(255)]).ok).toBe(true);
    bad('getRoster', ['a\u0000b']);
    bad('getThread', ['team', 'line\nbreak']);
    bad('send', [{ team: 't', to: 'x'.repeat(256), text: 'hi' }]);
  });

  it('send is a strict object with bounded text', () => {
    bad('send', [{ team: 't', to: 'm', text: 'hi', from: 'team-lead' }]);
    bad('send', [{ team: 't', to: 'm' }]);
    bad('send', [{ team: 't', to: 'm', text: '' }]);
    bad('send', [{ team: 't', to: 'm', text: '   \n ' }]);
    bad('send', [{ team: 't', to: 'm', text: 42 }]);
    bad('send', [{ team: 't', to: 'm', text: 'hi', summary: 'x'.repeat(1001) }]);
    expect(validateCall('send', [{ team: 't', to: 'm', text: 'a'.repeat(MAX_TEXT_BYTES) }]).ok).toBe(true);
    bad('send', [{ team: 't', to: 'm', text: 'a'.repeat(MAX_TEXT_BYTES + 1) }]);
    // Under the character limit but over the byte limit once encoded.
    const err = bad('send', [{ team: 't', to: 'm', text: '\u00e9'.repeat(MAX_TEXT_BYTES / 2 + 1) }]);
    expect(err?.message).toMatch(/bytes/);
  });

  it("refuses a bad send in the engine's own words, never the validator's (issue 28, items 5 and 6)", () => {
    const err = (req: Record<string, unknown>) => {
      const r = validateCall('send', [{ team: 't', to: 'm', ...req }]);
      return r.ok ? undefined : r.error;
    };
    expect(err({ text: '  ' })).toEqual({ code: 'refused', message: 'message is empty' });
    expect(err({})).toEqual({ code: 'refused', message: 'message is empty' });
    expect(err({ text: 'x'.repeat(70_000) })).toEqual({ code: 'refused', message: 'message is 70000 bytes; the limit is 65536' });
    expect(err({ text: 'hi', summary: 's'.repeat(1_001) })).toEqual({ code: 'refused', message: 'summary must be text of at most 1000 characters' });
    // What is not a person's input (an unknown field) is still a malformed call.
    expect(err({ text: 'hi', from: 'team-lead' })?.code).toBe('invalid');
  });

  it('settings patch is strict with ranges', () => {
    bad('setSettings', [{ idleMinutes: 0 }]);
    bad('setSettings', [{ idleMinutes: 1441 }]);
    bad('setSettings', [{ idleMinutes: 2.5 }]);
    bad('setSettings', [{ idleMinutes: '5' }]);
    bad('setSettings', [{ notifications: 'yes' }]);
    bad('setSettings', [{ teamsDir: 'x'.repeat(4097) }]);
    bad('setSettings', [{ teamsDir: 'a\u0000b' }]);
    bad('setSettings', [{ theme: 'sepia' }]);
    bad('setSettings', [{ colour: 'dark' }]);
    expect(validateCall('setSettings', [{ theme: 'dark' }]).ok).toBe(true);
    bad('setSettings', [null]);
  });

  it('the activity, timeline, tasks and needs calls take names and a bounded integer limit', () => {
    expect(validateCall('getActivity', ['team'])).toMatchObject({ ok: true });
    expect(validateCall('getTasks', ['team'])).toMatchObject({ ok: true });
    expect(validateCall('getNeeds', [])).toMatchObject({ ok: true });
    expect(validateCall('getTimeline', ['team', 'researcher'])).toMatchObject({ ok: true });
    expect(validateCall('getTimeline', ['team', 'researcher', 1])).toMatchObject({ ok: true, args: ['team', 'researcher', 1] });
    expect(validateCall('getTimeline', ['team', 'researcher', 10_000])).toMatchObject({ ok: true });
    for (const limit of [0, 10_001, 2.5, -1, '5', null, NaN, Infinity]) bad('getTimeline', ['team', 'researcher', limit]);
    expect(bad('getTimeline', ['team', 'researcher', 0])?.message).toMatch(/^getTimeline: argument 3: /);
    bad('getTimeline', ['team']);
    bad('getTimeline', ['team', 'researcher', 5, 6]);
    bad('getActivity', []);
    bad('getActivity', ['team', 'x']);
    bad('getTasks', ['']);
    bad('getNeeds', ['team']);
    bad('setSettings', [{ needsNotifications: 'yes' }]);
    expect(validateCall('setSettings', [{ needsNotifications: false }])).toMatchObject({ ok: true });
  });

  it('openExternal takes http(s) URLs only', () => {
    for (const url of ['javascript:alert(1)', 'file:///etc/passwd', 'data:text/html,x', 'teamdeck://x', 'ftp://x', '//evil.example', 'https://user:pw@example.com', 'not a url', 'https://' + 'a'.repeat(2100)]) {
      expect(validateCall('openExternal', [url]).ok, url).toBe(false);
    }
    expect(isHttpUrl('http://localhost:3000/x')).toBe(true);
  });

  it('never echoes the rejected value', () => {
    const secret = 'S3CRET-' + 'x'.repeat(300);
    const err = bad('getRoster', [secret]);
    expect(err?.message).not.toContain('S3CRET');
    expect(err?.message.length).toBeLessThanOrEqual(300);
  });
});

describe('wsClientMessageSchema', () => {
  it('accepts a call envelope and rejects anything else', () => {
    expect(wsClientMessageSchema.safeParse({ t: 'call', id: 1, name: 'getSnapshot', args: [] }).success).toBe(true);
    expect(wsClientMessageSchema.safeParse({ t: 'call', id: -1, name: 'x', args: [] }).success).toBe(false);
    expect(wsClientMessageSchema.safeParse({ t: 'call', id: 1, name: 'x', args: [], extra: 1 }).success).toBe(false);
    expect(wsClientMessageSchema.safeParse({ t: 'event', id: 1, name: 'x', args: [] }).success).toBe(false);
    expect(wsClientMessageSchema.safeParse({ t: 'call', id: 1, name: 'x', args: new Array(9).fill(0) }).success).toBe(false);
  });
});
