// The needs-you queue through the real engine on a live copy of the captured 2.1.332 team, with
// an injected clock: each kind of need appears when its condition holds (judged on the rescan
// tick, as the clock moves on) and clears when it is resolved.
import { appendFile, mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AppEvent } from '../../shared/contract.js';
import type { NeedItem } from '../../shared/types.js';
import { CAPTURED_TEAM as TEAM, CAPTURED_TX, liveCapturedTeam } from '../../../test/helpers/captured-team.js';
import { makeTempDir } from '../../../test/helpers/tmp.js';
import { claudeAppend, claudeConsume } from '../../sim/claude-inbox.js';
import { IDLE_MAIL_MS, STUCK_MS } from './needs.js';
import { TeamService } from '../service/team-service.js';

let base: string;
let config: string;
let svc: TeamService | undefined;
let clock: number;
let latest: NeedItem[] | undefined;

beforeEach(async () => {
  base = await makeTempDir();
  config = join(base, '.claude');
  clock = Date.parse('2026-12-01T12:00:00.000Z');
  latest = undefined;
});
afterEach(async () => {
  await svc?.stop();
  svc = undefined;
  await rm(base, { recursive: true, force: true });
});

const inbox = (owner: string) => join(config, 'teams', TEAM, 'inboxes', `${owner}.json`);

async function start(): Promise<TeamService> {
  svc = new TeamService({ teamsRoot: join(config, 'teams'), stateDir: join(base, 'state'), rescanMs: 50, now: () => clock, backoff: { initialMs: 30, maxMs: 100 } });
  svc.onEvent((e: AppEvent) => {
    if (e.type === 'needs') latest = e.needs;
  });
  await svc.start();
  return svc;
}

/** Waits until the last `needs` event satisfies `pred` (the queue is pushed, never polled by the UI). */
async function pushed(what: string, pred: (n: NeedItem[]) => boolean, ms = 5_000): Promise<NeedItem[]> {
  const end = Date.now() + ms;
  while (!(latest && pred(latest))) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}; last needs: ${JSON.stringify(latest)}`);
    await new Promise((r) => setTimeout(r, 20));
  }
  return latest;
}

const kinds = (n: NeedItem[]) => n.map((x) => x.kind);

describe('needs you', () => {
  it('a message queued for more than 2 min is stuck; delivered, it clears', async () => {
    await liveCapturedTeam(config, { config: 4 });
    await mkdir(`${inbox('researcher')}.lock`);
    const s = await start();
    const r = await s.send({ team: TEAM, to: 'researcher', text: 'Are you there?' });
    expect(r.status).toBe('queued');
    clock += STUCK_MS - 1_000;
    await new Promise((r2) => setTimeout(r2, 150));
    expect(await s.needs()).toEqual([]);
    clock += 2_000;
    const n = await pushed('stuck-queued', (x) => x.some((i) => i.kind === 'stuck-queued'));
    expect(n.find((i) => i.kind === 'stuck-queued')).toMatchObject({ id: `stuck-queued:${TEAM}:${r.id}`, team: TEAM, member: 'researcher', messageId: r.id, title: 'A message to researcher has been queued for 2 min: "Are you there?"', detail: expect.stringMatching(/locked/) });
    await rm(`${inbox('researcher')}.lock`, { recursive: true });
    await pushed('stuck-queued cleared', (x) => !x.some((i) => i.kind === 'stuck-queued'));
  });

  it('an idle member with mail waiting is a need; taken but not seen for 2 min another; seen, both clear', async () => {
    await liveCapturedTeam(config, { config: 4 });
    const s = await start();
    const text = 'What is the answer?';
    const r = await s.send({ team: TEAM, to: 'researcher', text });
    expect(r.status).toBe('accepted');
    clock += IDLE_MAIL_MS + 1_000;
    const idle = await pushed('idle-with-mail', (x) => x.some((i) => i.kind === 'idle-with-mail'));
    expect(idle).toEqual([expect.objectContaining({ id: `idle-with-mail:${TEAM}:${r.id}`, kind: 'idle-with-mail', member: 'researcher', title: `researcher is idle while a message to it waits: "${text}"`, messageId: r.id })]);
    // Claude takes it (prunes the inbox): no longer waiting in the inbox.
    await claudeConsume(inbox('researcher'), 'prune');
    await pushed('idle-with-mail cleared', (x) => x.length === 0);
    clock += STUCK_MS + 1_000;
    const taken = await pushed('stuck-taken', (x) => x.some((i) => i.kind === 'stuck-taken'));
    expect(taken[0]).toMatchObject({ kind: 'stuck-taken', member: 'researcher', title: expect.stringMatching(/^researcher took a message 2 min ago, but its model has not seen it/) });
    // The block in its transcript: its model has it.
    const row = { type: 'user', message: { role: 'user', content: `<teammate-message teammate_id="teamdeck">\n${text}\n</teammate-message>` }, timestamp: new Date(clock).toISOString(), uuid: 'u-seen' };
    await appendFile(join(config, CAPTURED_TX.researcher), JSON.stringify(row) + '\n');
    await pushed('stuck-taken cleared', (x) => x.length === 0);
  });

  it('a plan approval request waits until its response is seen; a permission request frame (no sessions file) until its answer', async () => {
    await liveCapturedTeam(config, { config: 4, session: 'none' });
    await start();
    const ts = new Date(clock).toISOString();
    const requestId = `plan_approval-${clock}@researcher@${TEAM}`;
    await claudeAppend(inbox('team-lead'), { from: 'researcher', text: JSON.stringify({ type: 'plan_approval_request', from: 'researcher', timestamp: ts, planFilePath: '/p.md', planContent: 'Plan: fix auth.ts\nthen test', requestId }), timestamp: ts, read: false });
    await claudeAppend(inbox('team-lead'), { from: 'researcher', text: JSON.stringify({ type: 'permission_request', request_id: 'perm-1-x', agent_id: 'researcher', tool_name: 'Bash', tool_use_id: 't1', description: 'npm test', input: { command: 'npm test' }, permission_suggestions: [] }), timestamp: ts, read: false });
    const both = await pushed('plan and permission', (x) => x.length === 2);
    expect(both.map((i) => [i.kind, i.id, i.title])).toEqual([
      ['permission', `permission:${TEAM}:researcher`, 'researcher waits for a permission answer: Bash: npm test'],
      ['plan-approval', `plan:${TEAM}:${requestId}`, 'researcher waits for its plan to be approved: Plan: fix auth.ts'],
    ]);
    // The answers, as the lead writes them into the researcher's inbox.
    await claudeAppend(inbox('researcher'), { from: 'team-lead', text: JSON.stringify({ type: 'plan_approval_response', requestId, approved: true, timestamp: ts }), timestamp: ts, read: false });
    await pushed('plan cleared', (x) => kinds(x).join() === 'permission');
    await claudeAppend(inbox('researcher'), { from: 'team-lead', text: JSON.stringify({ type: 'permission_response', request_id: 'perm-1-x', subtype: 'success' }), timestamp: ts, read: false });
    await pushed('permission cleared', (x) => x.length === 0);
  });

  it('an inbox no member reads, with its message count; gone, it clears', async () => {
    await liveCapturedTeam(config, { config: 4 });
    await writeFile(inbox('teamdeck'), JSON.stringify([{ from: 'researcher', text: 'to the app', timestamp: '2026-12-01T11:00:00.000Z', read: false }]));
    const s = await start();
    expect(await s.needs()).toEqual([]);
    // The writer shut down and left config.json: what is sent to its inbox now is never read.
    await writeFile(inbox('writer'), JSON.stringify([1, 2].map((i) => ({ from: 'team-lead', text: `note ${i}`, timestamp: `2026-12-01T11:5${i}:00.000Z`, read: false })), null, 2));
    const n = await pushed('orphan inbox', (x) => x.length === 1);
    expect(n[0]).toEqual({ id: `orphan-inbox:${TEAM}:writer`, kind: 'orphan-inbox', team: TEAM, title: '2 messages in inboxes/writer.json, which no member reads', detail: expect.any(String), since: Date.parse('2026-12-01T11:51:00.000Z'), orphan: { inbox: 'writer', messages: 2 } });
    await rm(inbox('writer'));
    await pushed('orphan cleared', (x) => x.length === 0);
  });

  it('an ended team needs nothing', async () => {
    await liveCapturedTeam(config, { config: 4 });
    await writeFile(inbox('writer'), JSON.stringify([{ from: 'team-lead', text: 'x', timestamp: '2026-12-01T11:51:00.000Z', read: false }]));
    const s = await start();
    expect(kinds(await s.needs())).toEqual(['orphan-inbox']);
    await rm(join(config, 'teams', TEAM), { recursive: true });
    await pushed('cleared at the end', (x) => x.length === 0);
  });
});
