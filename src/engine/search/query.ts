// What the user typed into search, turned into an FTS5 MATCH expression that can only ever mean
// "these words and phrases": every term is a quoted FTS5 string, so nothing the user types (`"`,
// `*`, `NEAR(`, `OR`, `body:`, `^`, parentheses) is read as FTS5 syntax. Words are ANDed; text in
// "double quotes" stays a phrase; a word ending in `*` matches as a prefix.
import { TeamdeckError } from '../errors.js';

export const MAX_QUERY_LENGTH = 1_000;
/** More terms than this are refused: each one is a lookup in the index. */
export const MAX_TERMS = 32;

/** A search with nothing to look for, or too much: a refusal like any bad input, and nothing was looked up. */
export class SearchQueryError extends TeamdeckError {
  constructor(message: string) {
    super('refused', message);
  }
}

export interface SearchTerm {
  text: string;
  phrase: boolean;
  prefix: boolean;
}

export interface ParsedQuery {
  terms: SearchTerm[];
  /** The MATCH expression for the `text` column. */
  match: string;
}

/** A term has something the tokenizer keeps: a letter, a digit, or a symbol it treats as a word. */
const WORDY = /[\p{L}\p{N}\p{Co}]/u;

function quote(s: string): string {
  return `"${s.replace(/"/g, '""')}"`;
}

/** Splits the query into words and "quoted phrases"; an unclosed quote runs to the end. */
export function splitTerms(query: string): SearchTerm[] {
  const terms: SearchTerm[] = [];
  let i = 0;
  const n = query.length;
  while (i < n) {
    const ch = query[i]!;
    if (/\s/u.test(ch)) {
      i++;
      continue;
    }
    if (ch === '"') {
      const close = query.indexOf('"', i + 1);
      const end = close === -1 ? n : close;
      const text = query.slice(i + 1, end).replace(/\s+/gu, ' ').trim();
      i = end + 1;
      if (WORDY.test(text)) terms.push({ text, phrase: true, prefix: false });
      continue;
    }
    let j = i;
    while (j < n && !/\s/u.test(query[j]!) && query[j] !== '"') j++;
    let word = query.slice(i, j);
    i = j;
    const prefix = word.length > 1 && word.endsWith('*') && WORDY.test(word.at(-2)!);
    if (prefix) word = word.slice(0, -1);
    if (WORDY.test(word)) terms.push({ text: word, phrase: false, prefix });
  }
  return terms;
}

/** Half of a surrogate pair with no other half: not text, and SQLite's binding cuts the string there. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** The text with each lone surrogate as U+FFFD, as a UTF-8 encoder writes it. */
export function wellFormed(text: string): string {
  return text.replace(LONE_SURROGATE, '\uFFFD');
}

/** Throws SearchQueryError for a query with nothing to look for, or one too long. */
export function parseQuery(query: string): ParsedQuery {
  if (query.length > MAX_QUERY_LENGTH) throw new SearchQueryError(`the search is longer than ${MAX_QUERY_LENGTH} characters`);
  const terms = splitTerms(wellFormed(query));
  if (terms.length === 0) throw new SearchQueryError('nothing to search for: type a word or a "phrase"');
  if (terms.length > MAX_TERMS) throw new SearchQueryError(`at most ${MAX_TERMS} words or phrases`);
  const parts = terms.map((t) => (t.prefix ? `${quote(t.text)} *` : quote(t.text)));
  return { terms, match: `text : (${parts.join(' AND ')})` };
}

/** The MATCH expression for one team's rows, or for all teams. */
export function matchFor(parsed: ParsedQuery, team?: string): string {
  return team === undefined ? parsed.match : `${parsed.match} AND team : (${quote(team)})`;
}
