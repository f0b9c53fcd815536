// The compose box in the state: a draft per thread, the send on its way, the host's refusal in
// words, and a send the host accepted or queued, shown at once in its thread.
import type { SendRequest, SendResult, ThreadMessage } from '../../../shared/types';
import { USER } from '../../../shared/threads';
import { memberKey, teamCache, withTeam, type DeckState, type Draft } from './deck-state';
import { lastIndexOfId, mergeMessage, upsertMessage } from './message-list';

export function setDraft(s: DeckState, team: string, member: string, patch: Partial<Draft>): DeckState {
  const key = memberKey(team, member);
  const cur = s.drafts[key] ?? { text: '', summary: '' };
  return { ...s, drafts: { ...s.drafts, [key]: { ...cur, ...patch } } };
}

export function setSending(s: DeckState, team: string, member: string, on: boolean): DeckState {
  const key = memberKey(team, member);
  const { [key]: _x, ...rest } = s.sending;
  const { [key]: _e, ...sendErrors } = s.sendErrors;
  return on ? { ...s, sending: { ...rest, [key]: true }, sendErrors } : { ...s, sending: rest };
}

export function setSendError(s: DeckState, team: string, member: string, message: string | undefined): DeckState {
  const key = memberKey(team, member);
  const { [key]: _x, ...rest } = s.sendErrors;
  const { [key]: _s, ...sending } = s.sending;
  return { ...s, sending, sendErrors: message ? { ...rest, [key]: message } : rest };
}

/** A send the host accepted or queued: the message shows at once with that status; the draft clears. */
export function applySent(s: DeckState, req: SendRequest, result: SendResult, hostNow: number): DeckState {
  const key = memberKey(req.team, req.to);
  const sentAs = s.teams.find((t) => t.id === req.team)?.sendAs;
  const msg: ThreadMessage = {
    id: result.id,
    team: req.team,
    from: USER,
    to: req.to,
    text: req.text,
    ...(req.summary ? { summary: req.summary } : {}),
    timestamp: new Date(hostNow).toISOString(),
    time: hostNow,
    read: false,
    status: result.status,
    ...(result.reason ? { reason: result.reason } : {}),
    // The host's echo of the message says for sure; until it comes, the team's sender name is
    // the one the host writes, and the channel the one asked for.
    ...(sentAs ? { sentAs } : {}),
    ...(req.channel ? { channel: req.channel } : {}),
  };
  const cache = teamCache(s, req.team);
  // If the host already pushed this message (or its delivery), keep the host's timestamp and the later status.
  const known = lastIndexOfId(cache.messages, msg.id);
  const { list } = known >= 0
    ? upsertMessage(cache.messages, mergeMessage(msg, cache.messages[known]!, undefined), cache.deliveries)
    : upsertMessage(cache.messages, msg, cache.deliveries);
  const { [key]: _d, ...drafts } = s.drafts;
  const { [key]: _e, ...sendErrors } = s.sendErrors;
  const { [key]: _s, ...sending } = s.sending;
  return { ...withTeam(s, req.team, { ...cache, messages: list }), drafts, sendErrors, sending };
}
