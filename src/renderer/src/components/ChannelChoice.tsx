// The compose box's channel: how a message to this member will arrive (as you, typed into the
// lead's terminal; as teamdeck, a teammate message; as another session), asked of the host again
// whenever what it depends on changes, and a small switch among the ones the host lists. A
// channel that cannot be used now stays visible, disabled, with the reason on hover.
import { useEffect } from 'react';
import type { ChannelKind, ChannelOption } from '../../../shared/types';
import { channelInputs, channelShort, pickChannel } from '../lib/channels';
import { memberKey } from '../state/deck-state';
import { useActions, useDeck } from '../state/context';
import { teamOf } from '../state/selectors';
import { terminalOfTeam } from '../state/terminal-state';

export interface ChannelState {
  options?: ChannelOption[];
  chosen?: ChannelOption;
  /** The host could not say (an error, or an older host): the compose box falls back to its own words. */
  error?: string;
}

/** Loads this member's channels (again when the team's terminal, roster or state changes) and picks the one a send uses. */
export function useChannels(team: string, member: string): ChannelState {
  const actions = useActions();
  const key = memberKey(team, member);
  const inputs = useDeck((s) => {
    const t = teamOf(s, team);
    const term = terminalOfTeam(s, team);
    return channelInputs({
      teamState: t?.state,
      leadReadsInbox: t?.leadReadsInbox,
      terminal: term ? { id: term.id, state: term.state } : undefined,
      roster: s.byTeam[team]?.roster,
    });
  });
  useEffect(() => {
    actions.loadChannels(team, member, inputs);
  }, [actions, team, member, inputs]);
  const options = useDeck((s) => s.channels[key]?.options);
  const error = useDeck((s) => s.channels[key]?.error);
  const choice = useDeck((s) => s.channelChoice[key]);
  return { options, chosen: pickChannel(options, choice), error };
}

export function ChannelSwitch({ team, member, options, chosen }: { team: string; member: string; options: ChannelOption[]; chosen?: ChannelKind }) {
  const actions = useActions();
  const sendAs = useDeck((s) => teamOf(s, team)?.sendAs ?? 'teamdeck');
  if (options.length < 2) return null;
  return (
    <div role="radiogroup" aria-label={`How the message reaches ${member}`} data-testid="channel-switch" className="inline-flex items-center gap-0.5 rounded-md bg-zinc-100 p-0.5 dark:bg-zinc-800">
      {options.map((o) => {
        const on = o.kind === chosen;
        return (
          <button
            key={o.kind}
            type="button"
            role="radio"
            aria-checked={on}
            aria-disabled={!o.available || undefined}
            data-testid={`channel-${o.kind}`}
            title={o.available ? `Arrives ${o.label}` : `Not now: ${o.reason ?? 'unavailable'}`}
            onClick={() => {
              if (!o.available) return;
              actions.setChannel(team, member, o.preferred ? undefined : o.kind);
            }}
            className={`rounded px-1.5 py-px text-[11px] font-medium outline-none focus-visible:ring-2 focus-visible:ring-indigo-500/50 ${
              on
                ? 'bg-white text-zinc-900 shadow-xs dark:bg-zinc-700 dark:text-white'
                : o.available
                  ? 'text-zinc-500 hover:text-zinc-800 dark:text-zinc-400 dark:hover:text-zinc-200'
                  : 'cursor-not-allowed text-zinc-400/70 line-through decoration-zinc-400/50 dark:text-zinc-600'
            }`}
          >
            {channelShort(o.kind, sendAs)}
          </button>
        );
      })}
    </div>
  );
}
