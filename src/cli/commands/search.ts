// `teamdeck search QUERY`: every team's messages (running and ended) matching the words and
// "phrases", newest first, through the app's engine while it runs. On a terminal the matches are
// bold; piped, the text is plain (`--json` has the match ranges).
import type { SearchHit } from '../../shared/contract.js';
import { SEARCH_LIMIT_RANGE } from '../../shared/contract-schema.js';
import { intOpt, stringOpt, UsageError } from '../args.js';
import type { Command } from '../command.js';
import { table } from '../format.js';
import { openService } from '../service.js';

const pad2 = (n: number) => String(n).padStart(2, '0');
function when(ms: number): string {
  const d = new Date(ms);
  return `${d.getFullYear()}-${pad2(d.getMonth() + 1)}-${pad2(d.getDate())} ${pad2(d.getHours())}:${pad2(d.getMinutes())}`;
}

/** One line of text for a terminal: runs of white space one space, control characters visible. */
function visible(s: string): string {
  return s.replace(/\s+/g, ' ').replace(/[\x00-\x1f\x7f]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
}

/** The snippet with its matches in bold (`bold` false: plain), made safe for a terminal. */
export function markedSnippet(hit: Pick<SearchHit, 'snippet'>, bold: boolean): string {
  const { text, ranges } = hit.snippet;
  let out = '';
  let at = 0;
  for (const [a, b] of ranges) {
    if (a < at || b > text.length) continue;
    out += visible(text.slice(at, a));
    const m = visible(text.slice(a, b));
    out += bold ? `\x1b[1m${m}\x1b[22m` : m;
    at = b;
  }
  return (out + visible(text.slice(at))).trim();
}

export function who(hit: SearchHit): string {
  if (hit.direction === 'you') return `you -> ${hit.to}`;
  if (hit.direction === 'member') return `${hit.from} -> you`;
  return `${hit.from} -> ${hit.to}`;
}

export const searchCommand: Command = {
  name: 'search',
  summary: 'every team\'s messages (running and ended) matching words and "phrases", newest first',
  usage: 'teamdeck search QUERY [--team T] [--limit N] [--before CURSOR]',
  help: [
    '  QUERY           words (all must match; word* matches as a prefix) and "quoted phrases";',
    '                  several arguments are one query',
    '  --team T        only this team (folder name or team name)',
    `  --limit N       hits to print, ${SEARCH_LIMIT_RANGE.min}..${SEARCH_LIMIT_RANGE.max} (default 20)`,
    '  --before C      the page after the one whose `next` was C (--json prints it)',
    '  (--json prints {hits: [{team, teamName, member?, messageId, time, direction, from, to,',
    '   snippet: {text, ranges}}], more, next?, building, progress?})',
  ],
  options: { team: { type: 'string' }, limit: { type: 'string' }, before: { type: 'string' } },
  positionals: true,
  async run(p, io) {
    const query = p.positionals.join(' ');
    if (query.trim() === '') throw new UsageError('give the words to search for, e.g. teamdeck search retry "upload timer"');
    const limit = intOpt(p, 'limit', SEARCH_LIMIT_RANGE.min) ?? 20;
    if (limit > SEARCH_LIMIT_RANGE.max) throw new UsageError(`--limit must be at most ${SEARCH_LIMIT_RANGE.max}`);
    const team = stringOpt(p, 'team');
    if (team === '') throw new UsageError('--team needs a team name');
    const before = stringOpt(p, 'before');
    if (before !== undefined && !/^[0-9]{1,20}$/.test(before)) throw new UsageError('--before takes the `next` of an earlier --json answer');
    const s = await openService(p.common, io, { watch: false, readOnly: true });
    try {
      const r = await s.service.search({ query, limit, ...(team === undefined ? {} : { team }), ...(before === undefined ? {} : { before }) });
      if (p.common.json) {
        io.out(JSON.stringify(r));
        return 0;
      }
      if (r.building) io.err(`The search index is being built (${Math.round((r.progress ?? 0) * 100)}%): these are the hits so far.`);
      if (r.hits.length === 0) {
        io.out(`No messages match ${JSON.stringify(query)}${team === undefined ? '' : ` in ${team}`}.`);
        return 0;
      }
      const bold = process.stdout.isTTY === true && !process.env.NO_COLOR;
      const multiTeam = new Set(r.hits.map((h) => h.team)).size > 1 || team === undefined;
      const rows = r.hits.map((h) => [when(h.time), ...(multiTeam ? [visible(h.teamName)] : []), visible(who(h)), markedSnippet(h, bold)]);
      io.out(table(['time', ...(multiTeam ? ['team'] : []), 'who', 'message'], rows));
      if (r.more) io.out(`(more: --before ${r.next})`);
      return 0;
    } finally {
      await s.close();
    }
  },
};
