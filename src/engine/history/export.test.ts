// The export's two formats. The Markdown is parsed with the CommonMark parser the window's own
// Markdown view uses (mdast-util-from-markdown, under react-markdown), so "a message cannot
// break the structure" is checked on the parsed tree, not on strings.
import { describe, expect, it } from 'vitest';
import { fromMarkdown } from 'mdast-util-from-markdown';
import type { Frame, FrameType, ThreadMessage } from '../../shared/types.js';
import { buildExport, exportDocument, exportFilename, exportMarkdown, localTime, mdFence, mdInline, type ExportInput } from './export.js';

const T0 = Date.parse('2026-02-09T13:02:11.000Z');
let seq = 0;

function msg(p: Partial<ThreadMessage> & Pick<ThreadMessage, 'from' | 'to' | 'text'>, at = T0 + seq * 60_000): ThreadMessage {
  seq++;
  return { id: `m${seq}`, team: 'alpha', timestamp: new Date(at).toISOString(), time: at, read: false, ...p };
}

const frame = (type: FrameType, fields: Record<string, unknown> = {}): Frame => ({ type, fields: { type, ...fields } });

const team: ExportInput['team'] = { id: 'alpha', name: 'Alpha Team', era: 'current', state: 'running' };
const member: ExportInput['member'] = { name: 'researcher', isLead: false, agentType: 'general-purpose', model: 'sonnet' };

type Node = { type: string; depth?: number; value?: string; children?: Node[] };

function nodes(md: string): Node[] {
  const out: Node[] = [];
  const walk = (n: Node) => {
    out.push(n);
    for (const c of n.children ?? []) walk(c);
  };
  walk(fromMarkdown(md) as Node);
  return out;
}

const text = (n: Node): string => (n.value ?? '') + (n.children ?? []).map(text).join('');
const headings = (md: string, depth: number) => nodes(md).filter((n) => n.type === 'heading' && n.depth === depth).map(text);
const codeBlocks = (md: string) => nodes(md).filter((n) => n.type === 'code').map((n) => n.value ?? '');

describe('Markdown', () => {
  seq = 0;
  const messages = [
    msg({ from: 'user', to: 'researcher', text: 'Look into the flaky upload test', status: 'replied', sentAs: 'user', channel: 'terminal' }),
    msg({ from: 'researcher', to: 'team-lead', text: 'Found it: a race in the retry timer.', source: 'idle-notification' }),
    msg({ from: 'user', to: 'researcher', text: 'Thanks', summary: 'thanks', status: 'undeliverable', sentAs: 'teamdeck', reason: 'the team ended before it was read.' }),
    msg({ from: 'user', to: 'researcher', text: 'Still waiting?', status: 'queued', sentAs: 'teamdeck', reason: 'the inbox is locked' }),
  ];
  const md = exportMarkdown({ team, member, messages, exportedAt: T0 + 3_600_000, timeZone: 'UTC' });

  it('has a title, the team and member, then one heading per message with its local time and who to whom', () => {
    expect(headings(md, 1)).toEqual(['Thread with researcher']);
    expect(md).toContain('- Team: Alpha Team (folder `alpha`) · current era · running');
    expect(md).toContain('- Member: researcher · sonnet · general-purpose');
    expect(md).toContain('- Messages: 4, from 2026-02-09 13:02:11 to 2026-02-09 13:05:11');
    expect(md).toContain('- Exported: 2026-02-09 14:02:11 · `2026-02-09T14:02:11.000Z`');
    expect(md).toContain('- Times: local to UTC');
    expect(headings(md, 3)).toEqual([
      '2026-02-09 13:02:11 — you → researcher',
      '2026-02-09 13:03:11 — researcher → you',
      '2026-02-09 13:04:11 — you → researcher',
      '2026-02-09 13:05:11 — you → researcher',
    ]);
    expect(codeBlocks(md)).toEqual(messages.map((m) => m.text));
  });

  it('says in words how each sent message went and where each answer was found', () => {
    expect(md).toContain('Typed as you · delivered, seen, replied · `2026-02-09T13:02:11.000Z`');
    expect(md).toContain('Answer from its idle notification · `2026-02-09T13:03:11.000Z`');
    expect(md).toContain('As teamdeck · undeliverable: the team ended before it was read · `2026-02-09T13:04:11.000Z`');
    expect(md).toContain('Summary: thanks');
    expect(md).toContain('As teamdeck · queued, not delivered yet: the inbox is locked');
    // A legacy team has no `seen`: its replied messages were taken, then answered.
    const legacy = exportMarkdown({ team: { ...team, era: 'legacy' }, member, messages: [messages[0]!], exportedAt: T0, timeZone: 'UTC' });
    expect(legacy).toContain('delivered, taken, replied');
  });

  it('describes protocol events in words, with the plan or the asked tool input in full', () => {
    seq = 0;
    const feed = [
      msg({ from: 'researcher', to: 'team-lead', text: '{"type":"idle_notification"}', frame: frame('idle_notification', { idleReason: 'interrupted' }) }),
      msg({ from: 'team-lead', to: 'tester', text: '{}', frame: frame('shutdown_request', { reason: 'all done' }) }),
      msg({ from: 'tester', to: 'team-lead', text: '{}', frame: frame('shutdown_approved', { requestId: 'r1' }) }),
      msg({ from: 'researcher', to: 'team-lead', text: '{}', frame: frame('plan_approval_request', { planContent: '1. Read\n2. Fix' }) }),
      msg({ from: 'tester', to: 'team-lead', text: '{}', frame: frame('permission_request', { tool_name: 'Bash', description: 'Run the tests', input: { command: 'npm test' } }) }),
    ];
    const out = exportMarkdown({ team, messages: feed, exportedAt: T0, timeZone: 'UTC' });
    expect(headings(out, 1)).toEqual(['Every message in Alpha Team']);
    expect(out).not.toContain('- Member:');
    for (const words of ['went idle (interrupted)', 'shutdown requested: all done', 'shutdown approved', 'plan approval requested', 'permission requested: Bash']) {
      expect(out).toContain(`Protocol event: ${words} · `);
    }
    expect(headings(out, 3)[1]).toBe('2026-02-09 13:03:11 — team-lead → tester');
    // The frames' JSON is not shown as message text; the plan and the tool input are.
    expect(codeBlocks(out)).toEqual(['1. Read\n2. Fix', 'Run the tests', '{\n  "command": "npm test"\n}']);
  });

  it('keeps hostile text inside its block: headings, fences, HTML and terminal escapes do nothing', () => {
    seq = 0;
    const hostile = [
      '# Not a heading\n### 2026-01-01 00:00:00 — you → evil\n---',
      'Close it: ```\n```\n````\n`````` still inside',
      '<script>alert(1)</script><img src=x onerror=alert(1)></code></pre>',
      '~~~\nno tilde fence either\n~~~',
      'bell \u0007 escape \u001b[31mred\u001b[0m csi \u009b2J end',
      '```',
      '',
    ];
    const evil = '<img src=x> **bold** # [link](javascript:x) `tick` |pipe| &amp;';
    const list = [
      ...hostile.map((t) => msg({ from: evil, to: 'user', text: t })),
      msg({ from: 'user', to: evil, text: 'hi', summary: '# sum <b>x</b>', status: 'undeliverable', sentAs: 'teamdeck', reason: '</p><h1>x</h1>\n# y' }),
    ];
    const out = exportMarkdown({ team: { ...team, name: '# Team <b>x</b>', id: 'a`b' }, member: { name: evil, isLead: true }, messages: list, exportedAt: T0, timeZone: 'UTC' });
    const tree = nodes(out);
    expect(tree.filter((n) => n.type === 'html')).toEqual([]);
    expect(tree.filter((n) => n.type === 'link' || n.type === 'emphasis' || n.type === 'strong' || n.type === 'image')).toEqual([]);
    expect(headings(out, 1)).toEqual([`Thread with ${evil}`]);
    expect(headings(out, 2)).toEqual([]);
    expect(headings(out, 3)).toHaveLength(list.length);
    for (const h of headings(out, 3)) expect(h).toMatch(/^2026-02-09 \d\d:\d\d:\d\d — /);
    expect(headings(out, 3)[0]).toBe(`2026-02-09 ${new Date(list[0]!.time).toISOString().slice(11, 19)} — ${evil} → you`);
    const visible = hostile.map((t) => t.replace(/\u0007/g, '\u2407').replace(/\u001b/g, '\u241b').replace(/\u009b/g, '\ufffd'));
    expect(codeBlocks(out)).toEqual([...visible, 'hi']);
    expect(out).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
    expect(tree.filter((n) => n.type === 'thematicBreak')).toHaveLength(1);
    expect(out).toContain('undeliverable: \\</p\\>\\<h1\\>x\\</h1\\> \\# y');
  });

  it('escapes what could start markup on one line, and fences longer than any backtick run', () => {
    expect(mdInline('a*b_c `d` <e> [f] #g\nh')).toBe('a\\*b\\_c \\`d\\` \\<e\\> \\[f\\] \\#g h');
    expect(mdFence('x')).toBe('```text\nx\n```');
    expect(mdFence('a ``` b\n`````')).toBe('``````text\na ``` b\n`````\n``````');
    expect(mdFence('line\r\nnext\rlast\n\n')).toBe('```text\nline\nnext\nlast\n```');
  });

  it('gives local times in the time zone asked for, and ISO times in UTC', () => {
    seq = 0;
    const one = [msg({ from: 'researcher', to: 'user', text: 'x' }, T0)];
    const kolkata = exportMarkdown({ team, member, messages: one, exportedAt: T0, timeZone: 'Asia/Kolkata' });
    expect(headings(kolkata, 3)).toEqual(['2026-02-09 18:32:11 — researcher → you']);
    expect(kolkata).toContain('`2026-02-09T13:02:11.000Z`');
    expect(kolkata).toContain('- Times: local to Asia/Kolkata (UTC+05:30 when exported)');
    const ny = exportMarkdown({ team, member, messages: one, exportedAt: T0, timeZone: 'America/New_York' });
    expect(headings(ny, 3)).toEqual(['2026-02-09 08:02:11 — researcher → you']);
    // A message whose file timestamp did not parse keeps its place and says so.
    const undated = exportMarkdown({ team, member, messages: [{ ...one[0]!, time: 0, timestamp: 'yesterday-ish' }], exportedAt: T0, timeZone: 'UTC' });
    expect(headings(undated, 3)).toEqual(['unknown time — researcher → you']);
    expect(undated).toContain('`yesterday-ish`');
    expect(() => exportMarkdown({ team, messages: [], exportedAt: T0, timeZone: 'Mars/Olympus' })).toThrow(/unknown time zone "Mars\/Olympus"/);
  });

  it('reads the clock as Intl does, across daylight-saving changes and quarter-hour zones', () => {
    // Paris springs forward at 01:00 UTC on 29 March 2026.
    expect(localTime(Date.parse('2026-03-29T00:59:59Z'), 'Europe/Paris')).toMatchObject({ text: '2026-03-29 01:59:59', offset: 'UTC+01:00' });
    expect(localTime(Date.parse('2026-03-29T01:00:00Z'), 'Europe/Paris')).toMatchObject({ text: '2026-03-29 03:00:00', offset: 'UTC+02:00' });
    expect(localTime(Date.parse('2026-02-09T13:02:11Z'), 'America/St_Johns')).toMatchObject({ text: '2026-02-09 09:32:11', offset: 'UTC-03:30' });
    const formats = new Map<string, Intl.DateTimeFormat>();
    const intl = (ms: number, timeZone: string) => {
      let f = formats.get(timeZone);
      if (!f) formats.set(timeZone, (f = new Intl.DateTimeFormat('en-US', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' })));
      const p = Object.fromEntries(f.formatToParts(ms).map((x) => [x.type, x.value]));
      return `${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute}:${p.second}`;
    };
    let seed = 7;
    const next = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
    const from = Date.parse('2020-01-01T00:00:00Z');
    const to = Date.parse('2031-01-01T00:00:00Z');
    for (const zone of ['Europe/Paris', 'America/New_York', 'Asia/Kathmandu', 'Australia/Lord_Howe', 'Pacific/Chatham', 'America/St_Johns', 'Africa/Casablanca', 'UTC']) {
      for (let i = 0; i < 400; i++) {
        const ms = Math.floor(from + next() * (to - from));
        expect(localTime(ms, zone)!.text, `${zone} ${new Date(ms).toISOString()}`).toBe(intl(ms, zone));
      }
      // Every minute around each change of the zone's offset in 2026.
      const start = Date.parse('2026-01-01T00:00:00Z');
      let before = localTime(start, zone)!.offset;
      for (let h = 1; h < 366 * 24; h++) {
        const at = start + h * 3_600_000;
        const now = localTime(at, zone)!.offset;
        if (now === before) continue;
        before = now;
        for (let m = -120; m <= 60; m++) {
          const ms = at + m * 60_000 + 59_000;
          expect(localTime(ms, zone)!.text, `${zone} ${new Date(ms).toISOString()}`).toBe(intl(ms, zone));
        }
      }
    }
  });

  it('says so when there is nothing to export, and names an ended team with when and why', () => {
    const ended = { ...team, state: 'ended' as const, endedAt: T0, endedReason: 'the lead exited and Claude removed the team folder.' };
    const out = exportMarkdown({ team: ended, member, messages: [], exportedAt: T0, timeZone: 'UTC' });
    expect(out).toContain('- Team: Alpha Team (folder `alpha`) · current era · ended 2026-02-09 13:02:11: the lead exited and Claude removed the team folder\n');
    expect(out).toContain('- Messages: 0\n');
    expect(out).toContain('No messages between you and researcher.');
    expect(headings(out, 3)).toEqual([]);
  });
});

describe('JSON', () => {
  seq = 0;
  const messages = [
    msg({ from: 'user', to: 'researcher', text: 'Look <b>here</b>\n```', summary: 's', status: 'seen', sentAs: 'teamdeck', channel: 'inbox' }),
    msg({ from: 'researcher', to: 'teamdeck', text: 'Done.', source: 'transcript' }),
    msg({ from: 'researcher', to: 'team-lead', text: '{"type":"idle_notification","idleReason":"available"}', frame: frame('idle_notification', { idleReason: 'available' }) }),
    { ...msg({ from: 'tester', to: 'researcher', text: 'odd time' }), time: 0, timestamp: 'not a time' },
    msg({ from: 'user', to: 'researcher', text: 'late', status: 'undeliverable', sentAs: 'teamdeck', reason: 'the member shut down' }),
  ];
  const ended = { ...team, state: 'ended' as const, endedAt: T0 + 10 * 60_000, endedReason: 'the lead exited' };
  const doc = exportDocument({ team: ended, member, messages, exportedAt: T0 + 3_600_000, timeZone: 'Europe/Paris' });

  it('is a teamdeck-export v1 document with its fields in the documented order', () => {
    expect(Object.keys(doc)).toEqual(['format', 'version', 'exportedAt', 'scope', 'team', 'member', 'messages']);
    expect(doc).toMatchObject({ format: 'teamdeck-export', version: 1, exportedAt: '2026-02-09T14:02:11.000Z', scope: 'thread' });
    expect(doc.team).toEqual({ id: 'alpha', name: 'Alpha Team', era: 'current', state: 'ended', endedAt: '2026-02-09T13:12:11.000Z', endedReason: 'the lead exited' });
    expect(Object.keys(doc.team)).toEqual(['id', 'name', 'era', 'state', 'endedAt', 'endedReason']);
    expect(Object.keys(doc.member!)).toEqual(['name', 'isLead', 'agentType', 'model']);
    const [sent, answer, protocol, odd, late] = doc.messages;
    expect(Object.keys(sent!)).toEqual(['id', 'at', 'timestamp', 'from', 'to', 'kind', 'text', 'summary', 'delivery']);
    expect(sent!.delivery).toEqual({ status: 'seen', words: 'delivered, seen', channel: 'inbox', sentAs: 'teamdeck' });
    expect(Object.keys(answer!)).toEqual(['id', 'at', 'timestamp', 'from', 'to', 'kind', 'text', 'answer']);
    expect(answer!.answer).toEqual({ source: 'transcript', words: 'answer from its transcript' });
    expect(protocol).toMatchObject({ kind: 'protocol', protocol: { type: 'idle_notification', words: 'went idle', fields: { type: 'idle_notification', idleReason: 'available' } } });
    expect(Object.keys(protocol!.protocol!)).toEqual(['type', 'words', 'fields']);
    expect(odd).toMatchObject({ at: null, timestamp: 'not a time', kind: 'message' });
    expect(Object.keys(late!.delivery!)).toEqual(['status', 'words', 'channel', 'sentAs', 'reason']);
    expect(late!.delivery).toMatchObject({ status: 'undeliverable', words: 'undeliverable: the member shut down', reason: 'the member shut down' });
  });

  it('keeps every text exactly, through a JSON round trip', () => {
    const file = buildExport({ team, member, messages, exportedAt: T0, timeZone: 'UTC' }, 'json');
    expect(file.mime).toBe('application/json');
    expect(file.count).toBe(messages.length);
    expect(file.text.endsWith('}\n')).toBe(true);
    const back = JSON.parse(file.text) as { messages: { text: string; timestamp: string }[] };
    expect(back.messages.map((m) => m.text)).toEqual(messages.map((m) => m.text));
    expect(back.messages.map((m) => m.timestamp)).toEqual(messages.map((m) => m.timestamp));
  });

  it('has no member for a whole team, and leaves out what does not apply', () => {
    const whole = exportDocument({ team, messages: [], exportedAt: T0 });
    expect(Object.keys(whole)).toEqual(['format', 'version', 'exportedAt', 'scope', 'team', 'messages']);
    expect(whole.scope).toBe('team');
    expect(Object.keys(whole.team)).toEqual(['id', 'name', 'era', 'state']);
  });
});

describe('file', () => {
  it('is named for the team, the member and the local time, in characters any file system takes', () => {
    const at = T0;
    expect(exportFilename({ team, member, exportedAt: at, timeZone: 'UTC' }, 'md')).toBe('teamdeck-alpha-researcher-20260209-130211.md');
    expect(exportFilename({ team, exportedAt: at, timeZone: 'Asia/Kolkata' }, 'json')).toBe('teamdeck-alpha-team-20260209-183211.json');
    const odd = exportFilename({ team: { ...team, id: '../../etc/passwd' }, member: { name: 'r\u00e9searcher/..\\x', isLead: false }, exportedAt: at, timeZone: 'UTC' }, 'md');
    expect(odd).toBe('teamdeck-etc-passwd-researcher-.-x-20260209-130211.md');
    expect(odd).not.toMatch(/[/\\]/);
    expect(buildExport({ team, member, messages: [], exportedAt: at, timeZone: 'UTC' }, 'md').mime).toBe('text/markdown; charset=utf-8');
  });
});
