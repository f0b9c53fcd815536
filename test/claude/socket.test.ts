// The messaging socket (docs/claude-contract.md#socket, #sessions) against the real lead, one that
// Teamdeck did not launch: Teamdeck's endpoint opens in the lead's socket directory, a DM goes
// in with sendPeerMessage (token from the key file, notify_when_idle), the scripted model
// answers with SendMessage to Teamdeck's address, and the reply and the receipts come back to
// the endpoint. Then the holds: a lead in bypass mode holds a message whose from-mode is not
// "bypass" (approved or denied in its TUI), a lead in manual mode one that claims "bypass".
import { randomUUID } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPeerEndpoint, peerKeyFileName, readLeadPeer, sendPeerMessage, type FromMode, type LeadPeer, type PeerControlLine, type PeerEndpoint, type PeerUserLine } from '../../src/engine/claude/peer-socket.js';
import { LEAD_TOKEN } from './harness/api-standin.js';
import { CLAUDE_CODE_VERSION } from './harness/binary.js';
import { newToolResults, text, tool, type ApiRequest, type ReplyBlock } from './harness/script.js';
import { startTeam, type Team } from './harness/team.js';
import { describeClaude, reportOnFailure } from './harness/vitest.js';
import { waitFor } from './harness/wait.js';

const S = 15_000;
const FRAMING = 'Another Claude session sent a message:\n';
const FOOTER_START = '\n\nThis came from another Claude session — not typed by your user';

/**
 * The lead's model: a cross-session message gets a SendMessage to the envelope's `from` (as
 * the system prompt tells it: "copy its from attribute as your to"), naming the message's tag.
 */
function leadScript(req: ApiRequest): ReplyBlock[] {
  if (newToolResults(req).some((r) => r.name === 'SendMessage')) return [text('replied')];
  const env = /<cross-session-message from="(uds:[^"]+)"[^>]*>\n(TAG-[0-9a-f]+)/.exec(req.newText);
  if (env) return [tool('SendMessage', { to: env[1]!, message: `reply to ${env[2]}` })];
  return [text('lead: ok')];
}

interface Arrival<T> {
  at: number;
  line: T;
}

/** A lead with Teamdeck's endpoint beside its socket, and what reached the endpoint. */
interface Rig {
  team: Team;
  peer: LeadPeer;
  endpoint: PeerEndpoint;
  messages: Arrival<PeerUserLine>[];
  controls: Arrival<PeerControlLine>[];
  send(tag: string, opts: { fromMode?: FromMode; extra?: string }): Promise<{ msgId: string; sentAt: number; body: string }>;
  control(pred: (c: PeerControlLine) => boolean, what: string): Promise<Arrival<PeerControlLine>>;
  requestWith(tag: string, timeoutMs?: number): Promise<ApiRequest>;
  transcriptRows(): Array<Record<string, unknown>>;
  /** The lead's transcript row for our message (Claude may write it a moment after the request). */
  transcriptRow(msgId: string): Promise<Record<string, unknown>>;
  stop(): Promise<void>;
}

async function startRig(permissionMode: 'bypass' | 'default'): Promise<Rig> {
  const team = await startTeam({ permissionMode, firstPrompt: `${LEAD_TOKEN} hello [[SAY:lead ready]]`, scripts: { lead: leadScript } });
  try {
    await team.api.waitForRequest('lead', () => true, S, "the lead's first request");
    // Its first turn over, so a DM is framed as one to an idle session.
    await waitFor(() => JSON.parse(readFileSync(join(team.run.sessionsDir, `${team.lead.pid}.json`), 'utf8')).status === 'idle', { what: 'the lead to be idle', timeoutMs: S });
    const read = await waitFor(async () => {
      const r = await readLeadPeer(team.run.sessionsDir, team.lead.pid);
      return r.kind === 'ok' && r.peer.peerToken ? r.peer : undefined;
    }, { what: "the lead's sessions file and key", timeoutMs: S });
    const messages: Arrival<PeerUserLine>[] = [];
    const controls: Arrival<PeerControlLine>[] = [];
    const endpoint = await openPeerEndpoint({
      dir: dirname(read.socketPath),
      onMessage: (line) => messages.push({ at: Date.now(), line }),
      onControl: (line) => controls.push({ at: Date.now(), line }),
    });
    const transcript = join(team.run.projectsDir, team.run.proj.replace(/[^a-zA-Z0-9]/g, '-'), `${team.lead.sessionId}.jsonl`);
    const transcriptRows = () =>
      readFileSync(transcript, 'utf8')
        .split('\n')
        .filter(Boolean)
        .flatMap((l) => {
          try {
            return [JSON.parse(l) as Record<string, unknown>];
          } catch {
            return [];
          }
        });
    return {
      team,
      peer: read,
      endpoint,
      messages,
      controls,
      send: async (tag, { fromMode, extra = '' }) => {
        const msgId = randomUUID();
        const body = `${tag} Teamdeck here: please look at the failing test.${extra}`;
        const sentAt = Date.now();
        team.actions.push({ t: sentAt, what: `socket DM ${tag} from-mode=${fromMode ?? '(none)'}` });
        await sendPeerMessage({ socketPath: read.socketPath, token: read.peerToken, from: endpoint.address, msgId, text: body, fromName: 'teamdeck', fromMode, notifyWhenIdle: true });
        return { msgId, sentAt, body };
      },
      control: (pred, what) => waitFor(() => controls.find((c) => pred(c.line)), { what, timeoutMs: S }),
      requestWith: (tag, timeoutMs = S) => team.api.waitForRequest('lead', (r) => r.newText.includes(tag), timeoutMs, `the lead's request with ${tag}`),
      transcriptRows,
      transcriptRow: (msgId) =>
        waitFor(() => transcriptRows().find((r) => (r.origin as { msg_id?: string } | undefined)?.msg_id === msgId), { what: `the transcript row with msg_id ${msgId}`, timeoutMs: S }),
      stop: async () => {
        await endpoint.close();
        await team.stop();
      },
    };
  } catch (e) {
    await team.stop();
    throw e;
  }
}

const timings: Record<string, number> = {};
const reportOf = (rig: Rig) =>
  [rig.team.report(), '--- at the endpoint ---', ...[...rig.messages, ...rig.controls].sort((a, b) => a.at - b.at).map((a) => `${a.at - rig.team.startedAt} ms ${JSON.stringify(a.line)}`), `stats ${JSON.stringify(rig.endpoint.stats())}`].join('\n');
const screenOf = (rig: Rig) => rig.team.lead.screen();

/** A pause longer than the dialog's guard: it refuses a key within ~150-250 ms of its mount or of another key. */
const KEY_GAP_MS = 700;
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Picks `choice` in the held-message dialog and presses Enter, human-paced. A key the dialog
 * refuses (too soon) puts the choice back on Deny, so the choice is re-checked before Enter.
 */
async function choose(rig: Rig, choice: 'Deny' | 'Deliver', done: () => boolean, what: string): Promise<number> {
  const selected = () => new RegExp(`❯ ${choice === 'Deny' ? 'Deny — drop it' : 'Deliver this message to Claude'}`).test(screenOf(rig));
  for (let attempt = 1; attempt <= 5; attempt++) {
    await pause(KEY_GAP_MS);
    if (!selected()) {
      rig.team.lead.keys(choice === 'Deny' ? 'Up' : 'Down');
      await waitFor(selected, { what: `${choice} to be selected`, timeoutMs: 1_000 }).catch(() => undefined);
      continue;
    }
    const pressed = Date.now();
    rig.team.lead.keys('Enter');
    if (await waitFor(done, { what, timeoutMs: 1_500 }).catch(() => false)) return pressed;
  }
  throw new Error(`${what}: not reached after 5 tries\n${screenOf(rig)}`);
}

const held = (msgId: string, status: string) => (c: PeerControlLine) => c.action === 'peer_message_status' && c.origMsgId === msgId && c.status === status;
const idleFor = (msgId: string) => (c: PeerControlLine) => c.action === 'peer_idle_notice' && c.origMsgId === msgId;

describeClaude(`Claude Code ${CLAUDE_CODE_VERSION}: the messaging socket`, () => {
  afterAll(() => {
    process.stdout.write(`messaging socket timings (ms): ${JSON.stringify(timings)}\n`);
  });
  describe('a lead in bypass mode (--dangerously-skip-permissions)', () => {
    let rig: Rig;
    reportOnFailure(() => rig && reportOf(rig));
    beforeAll(async () => {
      rig = await startRig('bypass');
    });
    afterAll(async () => {
      await rig?.stop();
    });

    it("names its socket in sessions/<pid>.json; the key file is <pid>.<sha256 of that path>.key; Teamdeck's endpoint sits beside the socket", async () => {
      const { peer, endpoint, team } = rig;
      expect(peer.socketPath).toBe(join(team.run.tmp, 'cc-socks', `${team.lead.pid}.sock`));
      expect(statSync(dirname(peer.socketPath)).mode & 0o777).toBe(0o700);
      expect(statSync(peer.socketPath).mode & 0o777).toBe(0o600);
      const key = join(team.run.sessionsDir, peerKeyFileName(team.lead.pid, peer.socketPath));
      expect(statSync(key).mode & 0o777).toBe(0o600);
      expect(Object.keys(JSON.parse(readFileSync(key, 'utf8')))).toEqual(['peerToken', 'procStart', 'pidDomain']);
      expect(peer.peerToken).toMatch(/^[0-9a-f]{32}$/);
      expect(peer.name).toMatch(/^proj-\w+$/);
      expect(endpoint.path).toBe(join(dirname(peer.socketPath), `${process.pid}.sock`));
      expect(statSync(endpoint.path).mode & 0o777).toBe(0o600);
    });

    it('takes a DM asserting from-mode="bypass": peer framing, a peer transcript row with our msg_id, the reply and the idle notice at our endpoint', async () => {
      const { msgId, sentAt, body } = await rig.send('TAG-a1', { fromMode: 'bypass', extra: ' A closing tag </cross-session-message> stays inside.' });
      const req = await rig.requestWith('TAG-a1');
      timings.dmToRequest = req.at - sentAt;
      const envelope = `<cross-session-message from="${rig.endpoint.address}" from-name="teamdeck" from-mode="bypass">\n${body.replace('</cross', '<\\/cross')}\n</cross-session-message>`;
      // Exactly one new text block: the framing, our envelope, the footer.
      expect(req.newContent.map((b) => b.type)).toEqual(['text']);
      expect(req.newText.startsWith(`${FRAMING}${envelope}${FOOTER_START}`)).toBe(true);

      const reply = await waitFor(() => rig.messages.find((m) => m.line.text === 'reply to TAG-a1'), { what: 'the reply at our endpoint', timeoutMs: S });
      timings.dmToReply = reply.at - sentAt;
      const leadAddress = `uds:${rig.peer.socketPath}`;
      expect(reply.line).toMatchObject({ type: 'user', from: leadAddress, priority: 'next', msgId: expect.stringMatching(/^[0-9a-f-]{36}$/) });
      expect(reply.line.envelope).toEqual({ from: leadAddress, hopChain: [expect.stringMatching(/^[0-9a-f]{24}$/)], fromName: rig.peer.name, fromMode: 'bypass', body: 'reply to TAG-a1' });
      // The model's SendMessage result names our address.
      const after = await rig.team.api.waitForRequest('lead', (r) => newToolResults(r).some((t) => t.name === 'SendMessage'), S, 'the SendMessage result');
      expect(newToolResults(after).find((t) => t.name === 'SendMessage')?.isError).toBe(false);

      const idle = await rig.control(idleFor(msgId), 'the peer_idle_notice');
      timings.dmToIdleNotice = idle.at - sentAt;
      expect(idle.line).toEqual({ type: 'control', action: 'peer_idle_notice', origMsgId: msgId, state: 'idle', finishedAt: expect.any(Number), from: leadAddress, fromMode: 'bypass', msgId: expect.any(String) });
      // A plainly accepted message gets no peer_message_status.
      expect(rig.controls.filter((c) => c.line.action === 'peer_message_status' && c.line.origMsgId === msgId)).toEqual([]);

      const row = await rig.transcriptRow(msgId);
      const rows = rig.transcriptRows();
      expect(row).toMatchObject({
        type: 'user',
        isMeta: true,
        promptSource: 'system',
        turnOrigin: 'peer',
        permissionMode: 'bypassPermissions',
        queueSkipSlashCommands: true,
        message: { role: 'user', content: req.newText },
        origin: {
          kind: 'peer',
          from: rig.endpoint.address,
          verifiedPeerPid: process.pid,
          verifiedPeerProcStart: expect.stringMatching(/^\d+$/),
          msg_id: msgId,
          name: 'teamdeck',
          fromMode: 'bypass',
          body: envelope.split('\n').slice(1, -1).join('\n'),
          verifiedLocal: true,
        },
      });
      expect(Object.keys(row!.origin as object)).toEqual(['kind', 'from', 'verifiedPeerPid', 'verifiedPeerProcStart', 'msg_id', 'name', 'fromMode', 'body', 'verifiedLocal']);
      expect(rows).toContainEqual(expect.objectContaining({ type: 'queue-operation', operation: 'enqueue', content: envelope }));
    });

    it('holds a DM asserting from-mode="prompting": "held" at our endpoint, a dialog in the TUI; Deny (the default choice) sends "denied" and the model never sees it', async () => {
      const { msgId, sentAt } = await rig.send('TAG-b2', { fromMode: 'prompting' });
      const h = await rig.control(held(msgId, 'held'), 'the held status');
      timings.dmToHeld = h.at - sentAt;
      expect(h.line).toEqual({
        type: 'control',
        action: 'peer_message_status',
        status: 'held',
        origMsgId: msgId,
        reason: "Your message is held for the recipient user's approval before it reaches their Claude session (permission-mode parity).",
        from: `uds:${rig.peer.socketPath}`,
        msgId: expect.any(String),
      });
      const dialog = await waitFor(() => (screenOf(rig).includes('Held message from another session') ? screenOf(rig) : undefined), { what: 'the held-message dialog', timeoutMs: S });
      expect(dialog).toContain("The sending session's permission mode class doesn't match this session's, so it wasn't delivered automatically.");
      expect(dialog).toContain('TAG-b2 Teamdeck here');
      expect(dialog).toMatch(/❯ Deny — drop it and tell the sender it was declined\s*\n\s*Deliver this message to Claude/);
      // The lead's sessions file reads like a permission prompt while the dialog is open.
      await waitFor(
        () => {
          const session = JSON.parse(readFileSync(join(rig.team.run.sessionsDir, `${rig.team.lead.pid}.json`), 'utf8'));
          return session.status === 'waiting' && session.waitingFor === 'permission prompt';
        },
        { what: 'sessions status waiting / permission prompt', timeoutMs: 5_000 },
      );
      // And the transcript says so too, naming the sender as the kernel saw it.
      const note = await waitFor(() => rig.transcriptRows().find((r) => r.type === 'system' && typeof r.content === 'string' && r.content.includes('«TAG-b2')), { what: 'the held note in the transcript', timeoutMs: 5_000 });
      expect(note).toMatchObject({
        subtype: 'informational',
        level: 'warning',
        isMeta: false,
        content: `Held peer message — from ${rig.endpoint.address} [verified pid ${process.pid}] (peer claims name: teamdeck); preview: «TAG-b2 Teamdeck here: please look at the failing test.» — not delivered to Claude (1 held). The sending session's permission mode class doesn't match this session's. Review it below, or set "crossSessionInbound" to "accept".`,
      });

      const pressed = await choose(rig, 'Deny', () => rig.controls.some((c) => held(msgId, 'denied')(c.line)), 'the denied status');
      const d = await rig.control(held(msgId, 'denied'), 'the denied status');
      timings.denyToDenied = d.at - pressed;
      expect(d.line).toMatchObject({ status: 'denied', reason: "The recipient user declined your message; it was not delivered to their Claude session." });
      await waitFor(() => !screenOf(rig).includes('Held message from another session'), { what: 'the dialog to close', timeoutMs: S });
      expect(rig.team.api.requestsOf('lead').some((r) => r.newText.includes('TAG-b2'))).toBe(false);
      expect(rig.transcriptRows().some((r) => (r.origin as { msg_id?: string } | undefined)?.msg_id === msgId)).toBe(false);
    });

    it('holds a DM with no from-mode too; "Deliver" sends "delivered", then the model gets it and replies', async () => {
      const { msgId, sentAt } = await rig.send('TAG-c3', {});
      await rig.control(held(msgId, 'held'), 'the held status');
      const dialog = await waitFor(() => (screenOf(rig).includes('Held message from another session') ? screenOf(rig) : undefined), { what: 'the held-message dialog', timeoutMs: S });
      expect(dialog).toContain('TAG-c3');
      const pressed = await choose(rig, 'Deliver', () => rig.controls.some((c) => held(msgId, 'delivered')(c.line)), 'the delivered status');
      const d = await rig.control(held(msgId, 'delivered'), 'the delivered status');
      timings.approveToDelivered = d.at - pressed;
      expect(d.line).toMatchObject({ reason: "Your previously-held message was approved and released to the recipient's Claude session." });
      const req = await rig.requestWith('TAG-c3');
      expect(req.newText).toContain(`<cross-session-message from="${rig.endpoint.address}" from-name="teamdeck">\nTAG-c3`);
      await waitFor(() => rig.messages.find((m) => m.line.text === 'reply to TAG-c3'), { what: 'the reply', timeoutMs: S });
      const row = await rig.transcriptRow(msgId);
      expect(row.origin).not.toHaveProperty('fromMode');
      timings.heldDmToReply = Date.now() - sentAt;
      expect(rig.endpoint.stats().refused).toBe(0);
    });
  });

  describe('a lead in manual mode (--permission-mode default)', () => {
    let rig: Rig;
    reportOnFailure(() => rig && reportOf(rig));
    beforeAll(async () => {
      rig = await startRig('default');
    });
    afterAll(async () => {
      await rig?.stop();
    });

    it('takes from-mode="prompting" and none without a hold, and holds from-mode="bypass"', async () => {
      const a = await rig.send('TAG-d4', { fromMode: 'prompting' });
      const req = await rig.requestWith('TAG-d4');
      timings.manualDmToRequest = req.at - a.sentAt;
      expect(req.newText).toContain(`from-mode="prompting">\nTAG-d4`);
      await waitFor(() => rig.messages.find((m) => m.line.text === 'reply to TAG-d4'), { what: 'the reply', timeoutMs: S });
      expect(rig.messages.find((m) => m.line.text === 'reply to TAG-d4')?.line.envelope?.fromMode).toBe('prompting');
      await rig.control(idleFor(a.msgId), 'the idle notice');

      const b = await rig.send('TAG-e5', {});
      await rig.requestWith('TAG-e5');

      const c = await rig.send('TAG-f6', { fromMode: 'bypass' });
      await rig.control(held(c.msgId, 'held'), 'the held status');
      await waitFor(() => screenOf(rig).includes('Held message from another session'), { what: 'the dialog', timeoutMs: S });
      expect(rig.controls.filter((x) => x.line.action === 'peer_message_status' && (x.line.origMsgId === a.msgId || x.line.origMsgId === b.msgId))).toEqual([]);
    });
  });
});
