// The browser host's start-up data: the page `teamdeck serve` sends carries the first snapshot
// and the roster of the team the window opens first, as JSON in a non-executable
// <script type="application/json"> element (never as markup), so the first roster paints
// without waiting for the WebSocket to open and answer two calls one after the other. Events
// the engine emits after that snapshot was taken are kept for the page under the boot's id and
// replayed when its socket opens with `?boot=<id>`, as the store replays events held while a
// snapshot loads. No Node, no DOM: shared by src/browser-host and src/renderer.
import type { Snapshot, WsServerMessage } from './contract';
import type { RosterEntry, TeamSummary } from './types';

/** The id of the element that holds the data. */
export const BOOT_ELEMENT_ID = 'teamdeck-boot';

export interface HostBoot {
  /** Names the events kept for this page (the socket's `boot` query parameter). */
  id: string;
  snapshot: Snapshot;
  /** The roster of firstTeam(snapshot.teams), when it was read in time. */
  roster?: { team: string; entries: RosterEntry[] };
}

/**
 * What the host may send besides results and events: `resync` says the events since the page's
 * boot data are not all kept (too many, or too late), so the page loads a fresh snapshot, as
 * after a reconnect.
 */
export type HostServerMessage = WsServerMessage | { t: 'resync' };

/** Ended teams, the most recently ended first; those with no known end time last, in host order. */
export function endedNewestFirst(teams: readonly TeamSummary[]): TeamSummary[] {
  // Array.prototype.sort is stable: teams with equal (or no) end times keep the host's order.
  return teams.filter((t) => t.state === 'ended').sort((a, b) => (b.endedAt ?? 0) - (a.endedAt ?? 0));
}

/** The team the window opens when nothing is chosen yet: the first running one, else the latest ended. */
export function firstTeam(teams: readonly TeamSummary[]): string | undefined {
  return (teams.find((t) => t.state !== 'ended') ?? endedNewestFirst(teams)[0])?.id;
}

/**
 * JSON that can sit inside a <script> element: `<`, `>` and `&` escaped, so no text in it (a
 * message, a member's name) can end the element or open a comment; U+2028/2029 escaped too.
 */
export function scriptSafeJson(value: unknown): string {
  return JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** The boot data as parsed from the element's text, or undefined when it is not that shape. */
export function parseHostBoot(value: unknown): HostBoot | undefined {
  if (!value || typeof value !== 'object') return undefined;
  const v = value as Partial<HostBoot>;
  if (typeof v.id !== 'string' || !v.snapshot || typeof v.snapshot !== 'object' || !Array.isArray(v.snapshot.teams)) return undefined;
  const r = v.roster;
  const roster = r && typeof r === 'object' && typeof r.team === 'string' && Array.isArray(r.entries) ? r : undefined;
  return { id: v.id, snapshot: v.snapshot, ...(roster ? { roster } : {}) };
}
