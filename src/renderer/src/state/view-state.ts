// Where the window looks, as the user moves it: the team, the member and its pane, the feed or
// the task board, a message brought into view, and the feed's filter.
import type { DeckState, MemberPane } from './deck-state';

export function selectTeam(s: DeckState, team: string): DeckState {
  if (s.selectedTeam === team && s.view !== 'terminal') return s;
  return { ...s, selectedTeam: team, view: 'thread', focus: undefined };
}

export function selectMember(s: DeckState, team: string, member: string): DeckState {
  const focus = s.focus && s.focus.team === team && s.focus.member === member ? s.focus : undefined;
  return { ...s, selectedTeam: team, view: 'thread', memberByTeam: { ...s.memberByTeam, [team]: member }, focus };
}

export function showFeed(s: DeckState, on = true): DeckState {
  return { ...s, view: on ? 'feed' : 'thread' };
}

export function showTasks(s: DeckState, on = true): DeckState {
  return { ...s, view: on ? 'tasks' : 'thread' };
}

/** Thread or Activity beside the open member; on a lead with a hosted terminal, that leaves its Terminal tab. */
export function setPane(s: DeckState, pane: MemberPane): DeckState {
  const team = s.selectedTeam;
  const onTerminal = team !== undefined && !!s.leadTerminal[team];
  if (s.pane === pane && s.view === 'thread' && !onTerminal) return s;
  return { ...s, pane, view: 'thread', ...(onTerminal ? { leadTerminal: { ...s.leadTerminal, [team]: false } } : {}) };
}

/** Opens a member's thread with one of its messages brought into view. */
export function focusMessage(s: DeckState, team: string, member: string, id: string): DeckState {
  return { ...selectMember(s, team, member), pane: 'thread', focus: { team, member, id } };
}

/** The `member` of a focus on the team's feed (no member is named so: names are safe segments). */
export const FEED_FOCUS = '\u0000feed';

/** Opens the team's feed, unfiltered, with one of its messages brought into view. */
export function focusFeedMessage(s: DeckState, team: string, id: string): DeckState {
  const { [team]: _filter, ...feedFilter } = s.feedFilter;
  return { ...showFeed(selectTeam(s, team), true), feedFilter, focus: { team, member: FEED_FOCUS, id } };
}

export function clearFocus(s: DeckState): DeckState {
  return s.focus ? { ...s, focus: undefined } : s;
}

export function setFeedFilter(s: DeckState, team: string, member: string): DeckState {
  return { ...s, feedFilter: { ...s.feedFilter, [team]: member } };
}
