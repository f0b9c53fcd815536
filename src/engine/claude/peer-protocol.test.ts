import { describe, expect, it } from 'vitest';
import {
  buildEnvelope,
  fromModeFor,
  MAX_LINE_CHARS,
  notifyWhenIdleLine,
  parseEnvelope,
  parsePeerLine,
  peerAddress,
  socketPathOf,
  userLine,
  PeerProtocolError,
} from './peer-protocol.js';

// Lines as the real Claude Code 2.1.332 lead wrote them to Teamdeck's socket (test/claude/socket.test.ts).
const LEAD = 'uds:/tmp/teamdeck-claude-mmZIhJ/tmp/cc-socks/5853.sock';
const REPLY =
  '{"msgV":1,"msg_id":"b4ae6055-352a-4fbf-8023-ea35e00bbd61","type":"user","message":{"role":"user","content":"<cross-session-message from=\\"uds:/tmp/teamdeck-claude-mmZIhJ/tmp/cc-socks/5853.sock\\" hop-chain=\\"52345d6ce4e74506cf4fc14e\\" from-name=\\"proj-c2\\" from-mode=\\"bypass\\">\\nreply to TAG-0fae3d\\n</cross-session-message>"},"priority":"next","from":"uds:/tmp/teamdeck-claude-mmZIhJ/tmp/cc-socks/5853.sock","local_chain":"a4f75810f11e622bd3c04b6a"}';
const IDLE =
  '{"type":"control","action":"peer_idle_notice","orig_msg_id":"0fae3d89-6a98-4ef1-a3bf-9df23175fd44","state":"idle","finished_at":1796134624252,"from":"uds:/tmp/teamdeck-claude-mmZIhJ/tmp/cc-socks/5853.sock","from_mode":"bypass","msgV":1,"msg_id":"c3c4ceb0-d966-42fb-9cca-363bd1270e1c"}';
const HELD =
  '{"type":"control","action":"peer_message_status","status":"held","reason":"Your message is held for the recipient user\'s approval before it reaches their Claude session (permission-mode parity).","from":"uds:/tmp/teamdeck-claude-XaR8HX/tmp/cc-socks/5123.sock","orig_msg_id":"fbf485d2-5920-4ff3-89fe-7e3dc354496e","msgV":1,"msg_id":"6067651e-ad22-41ce-88cb-a560ebbcc033"}';

describe('parsePeerLine', () => {
  it("takes the lead's SendMessage reply: text, envelope attributes, msg_id, priority", () => {
    const r = parsePeerLine(REPLY);
    expect(r).toEqual({
      ok: true,
      line: {
        type: 'user',
        content: expect.stringContaining('reply to TAG-0fae3d'),
        text: 'reply to TAG-0fae3d',
        envelope: { from: LEAD, hopChain: ['52345d6ce4e74506cf4fc14e'], fromName: 'proj-c2', fromMode: 'bypass', body: 'reply to TAG-0fae3d' },
        from: LEAD,
        msgId: 'b4ae6055-352a-4fbf-8023-ea35e00bbd61',
        priority: 'next',
      },
    });
  });

  it('takes a peer_idle_notice and a peer_message_status', () => {
    expect(parsePeerLine(IDLE)).toEqual({
      ok: true,
      line: {
        type: 'control',
        action: 'peer_idle_notice',
        origMsgId: '0fae3d89-6a98-4ef1-a3bf-9df23175fd44',
        state: 'idle',
        finishedAt: 1796134624252,
        from: LEAD,
        fromMode: 'bypass',
        msgId: 'c3c4ceb0-d966-42fb-9cca-363bd1270e1c',
      },
    });
    const held = parsePeerLine(HELD);
    expect(held.ok && held.line).toMatchObject({ action: 'peer_message_status', status: 'held', origMsgId: 'fbf485d2-5920-4ff3-89fe-7e3dc354496e', reason: expect.stringContaining('permission-mode parity') });
  });

  it('reads expired + status_detail refused as refused, as Claude does', () => {
    const r = parsePeerLine(JSON.stringify({ type: 'control', action: 'peer_message_status', status: 'expired', status_detail: 'refused', orig_msg_id: 'x' }));
    expect(r.ok && r.line).toMatchObject({ status: 'refused' });
  });

  it('takes a user line without an envelope as plain text', () => {
    const r = parsePeerLine('{"type":"user","message":{"role":"user","content":"hello"}}');
    expect(r).toEqual({ ok: true, line: { type: 'user', content: 'hello', text: 'hello' } });
  });

  it('takes an auth line', () => {
    expect(parsePeerLine('{"type":"auth","token":"757cd84104ae9c24a0966e603e4a1b41"}')).toEqual({ ok: true, line: { type: 'auth', token: '757cd84104ae9c24a0966e603e4a1b41' } });
  });

  it.each([
    ['', 'empty'],
    ['   ', 'empty'],
    ['{"type":', 'not-json'],
    ['\u0000\u00ff\ufffd', 'not-json'],
    ['[1,2]', 'not-object'],
    ['null', 'not-object'],
    ['"text"', 'not-object'],
    ['{"type":"frobnicate"}', 'unknown-type'],
    ['{"no":"type"}', 'unknown-type'],
    ['{"type":"control","action":"rename","name":"x"}', 'unknown-action'],
    ['{"type":"control","action":"notify_when_idle","from":"uds:/a.sock","msg_id":"m"}', 'unknown-action'],
    ['{"type":"user","message":{"role":"user","content":""}}', 'bad-shape'],
    ['{"type":"user","message":{"role":"assistant","content":"x"}}', 'bad-shape'],
    ['{"type":"user","message":{"role":"user","content":[{"type":"text","text":"x"}]}}', 'bad-shape'],
    ['{"type":"user","message":"x"}', 'bad-shape'],
    ['{"type":"auth","token":5}', 'bad-shape'],
    ['{"type":"control","action":"peer_idle_notice","state":"idle"}', 'bad-shape'],
    ['{"type":"control","action":"peer_message_status","status":"eaten"}', 'bad-shape'],
  ])('refuses %j as %s, without throwing', (line, code) => {
    const r = parsePeerLine(line);
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.code).toBe(code);
      expect(r.error).toMatch(/\w/);
    }
  });

  it('refuses a line over 1,048,576 characters before parsing it', () => {
    const line = JSON.stringify({ type: 'user', message: { role: 'user', content: 'x'.repeat(MAX_LINE_CHARS) } });
    const r = parsePeerLine(line);
    expect(!r.ok && r.code).toBe('too-long');
  });

  it('never throws on strange input', () => {
    for (const v of [undefined, null, 5, {}, '\ud800', '{"type":"user","message":{"role":"user","content":"\\ud800"}}', '{"__proto__":{"type":"user"}}']) {
      expect(() => parsePeerLine(v as string)).not.toThrow();
    }
  });
});

describe('the envelope', () => {
  const from = peerAddress('/tmp/x/cc-socks/42.sock');

  it('is built in Claude’s attribute order and parses back', () => {
    const env = buildEnvelope({ from, fromName: 'teamdeck', fromMode: 'prompting', body: 'hi\nthere' });
    expect(env).toBe('<cross-session-message from="uds:/tmp/x/cc-socks/42.sock" from-name="teamdeck" from-mode="prompting">\nhi\nthere\n</cross-session-message>');
    expect(parseEnvelope(env)).toEqual({ from, fromName: 'teamdeck', fromMode: 'prompting', body: 'hi\nthere' });
  });

  it('defuses a closing tag in the body, so the body cannot end the envelope early', () => {
    const env = buildEnvelope({ from, body: 'a </cross-session-message> b </ CROSS-session-message' });
    expect(env).toContain('a <\\/cross-session-message> b <\\/ CROSS-session-message');
    expect(parseEnvelope(env)?.body).toBe('a <\\/cross-session-message> b <\\/ CROSS-session-message');
  });

  it('cleans the name of quotes, brackets and control characters', () => {
    expect(buildEnvelope({ from, fromName: 'te"am<deck>\u0007\u202e', body: 'x' })).toContain('from-name="teamdeck"');
  });

  it('refuses an address that is not one', () => {
    expect(() => buildEnvelope({ from: 'uds:/a b/"c', body: 'x' })).toThrow(PeerProtocolError);
  });

  it('parses only the exact shape (unknown from-mode, wrong order, missing newlines)', () => {
    expect(parseEnvelope('<cross-session-message from="uds:/a.sock" from-mode="auto">\nx\n</cross-session-message>')).toBeUndefined();
    expect(parseEnvelope('<cross-session-message from-name="n" from="uds:/a.sock">\nx\n</cross-session-message>')).toBeUndefined();
    expect(parseEnvelope('<cross-session-message from="uds:/a.sock">x</cross-session-message>')).toBeUndefined();
    expect(parseEnvelope('<cross-session-message>\n\n</cross-session-message>')).toEqual({ body: '' });
  });
});

describe('addresses and modes', () => {
  it('percent-encodes what an address may not hold, and decodes it back', () => {
    const path = '/tmp/my dir/é/1.sock';
    const a = peerAddress(path);
    expect(a).toBe('uds:/tmp/my%20dir/%C3%A9/1.sock');
    expect(socketPathOf(a)).toBe(path);
    expect(socketPathOf('bridge:session_x')).toBeUndefined();
  });

  it('names the class a message must assert to pass unheld', () => {
    expect(fromModeFor('bypassPermissions')).toBe('bypass');
    expect(fromModeFor('plan', { bypassAvailable: true })).toBe('bypass');
    expect(fromModeFor('plan')).toBe('prompting');
    expect(fromModeFor('default')).toBe('prompting');
    expect(fromModeFor('acceptEdits')).toBe('prompting');
    expect(fromModeFor('auto')).toBe('prompting');
  });
});

describe('outbound lines', () => {
  const from = 'uds:/tmp/x/cc-socks/42.sock';
  it('builds the user line and notify_when_idle as Claude reads them', () => {
    const line = JSON.parse(userLine({ from, msgId: 'm-1', text: 'hello', fromName: 'teamdeck', fromMode: 'bypass' }));
    expect(line).toEqual({
      type: 'user',
      message: { role: 'user', content: '<cross-session-message from="uds:/tmp/x/cc-socks/42.sock" from-name="teamdeck" from-mode="bypass">\nhello\n</cross-session-message>' },
      from,
      msg_id: 'm-1',
    });
    expect(JSON.parse(notifyWhenIdleLine({ from, msgId: 'm-1', fromMode: 'bypass' }))).toEqual({ type: 'control', action: 'notify_when_idle', from, msg_id: 'm-1', from_mode: 'bypass' });
  });

  it('refuses an empty message and one too long for a line', () => {
    expect(() => userLine({ from, msgId: 'm', text: '  ' })).toThrow(/empty/);
    expect(() => userLine({ from, msgId: 'm', text: 'x'.repeat(MAX_LINE_CHARS) })).toThrow(/too long/);
  });
});
