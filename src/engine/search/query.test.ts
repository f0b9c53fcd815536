// The user's words become quoted FTS5 strings, never FTS5 syntax: each hostile query below is
// run against a real FTS5 table too, where it must neither fail nor match more than its words.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IndexDb } from './index-db.js';
import { matchFor, MAX_QUERY_LENGTH, parseQuery, SearchQueryError, splitTerms } from './query.js';
import type { IndexRow } from './records.js';

describe('splitTerms', () => {
  it('splits words and keeps "quoted phrases" whole', () => {
    expect(splitTerms('retry  "upload timer" flaky')).toEqual([
      { text: 'retry', phrase: false, prefix: false },
      { text: 'upload timer', phrase: true, prefix: false },
      { text: 'flaky', phrase: false, prefix: false },
    ]);
  });

  it('reads an unclosed quote as a phrase to the end, and a trailing * as a prefix', () => {
    expect(splitTerms('up* "race in the')).toEqual([
      { text: 'up', phrase: false, prefix: true },
      { text: 'race in the', phrase: true, prefix: false },
    ]);
  });

  it('drops terms with nothing a tokenizer keeps', () => {
    expect(splitTerms('" * ( ) : ^ - + "" *')).toEqual([]);
  });
});

describe('parseQuery', () => {
  it('quotes every term and ANDs them in the text column', () => {
    expect(parseQuery('retry "upload timer"').match).toBe('text : ("retry" AND "upload timer")');
    expect(parseQuery('retr*').match).toBe('text : ("retr" *)');
  });

  it('doubles quotes inside a word, so it cannot end the string', () => {
    expect(parseQuery('say"hi').match).toBe('text : ("say" AND "hi")');
    expect(parseQuery("it's").match).toBe('text : ("it\'s")');
    expect(parseQuery('a""b').terms.map((t) => t.text)).toEqual(['a', 'b']);
  });

  it('refuses an empty query, one of symbols only, and one too long, with a clear error', () => {
    for (const q of ['', '   ', '"', '""', '*', '( )', ': ^ -']) expect(() => parseQuery(q)).toThrow(SearchQueryError);
    expect(() => parseQuery('   ')).toThrow(/nothing to search for/);
    expect(() => parseQuery('x'.repeat(MAX_QUERY_LENGTH + 1))).toThrow(/longer than 1000/);
    expect(() => parseQuery(Array.from({ length: 40 }, (_, i) => `w${i}`).join(' '))).toThrow(/at most 32/);
  });

  it('adds the team as its own quoted column filter', () => {
    expect(matchFor(parseQuery('x'), 'session-"a')).toBe('text : ("x") AND team : ("session-""a")');
  });
});

describe('hostile queries against a real FTS5 table', () => {
  let dir: string;
  let db: IndexDb;
  const T = Date.parse('2026-03-01T10:00:00Z');
  const row = (id: string, text: string, team = 'alpha'): IndexRow => ({ team, id, member: 'researcher', direction: 'member', from: 'researcher', to: 'user', time: T + Number(id.slice(1)) * 1000, text });
  const ids = (q: string, team?: string) => db.query(matchFor(parseQuery(q), team), team, undefined, 50).map((h) => h.mid);

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'td-query-'));
    db = (await IndexDb.open(join(dir, 'index.sqlite'))).db;
    db.add([
      row('m1', 'the body: is here'),
      row('m2', 'near the river OR the sea'),
      row('m3', 'NEAR(a b) literally'),
      row('m4', 'star * power'),
      row('m5', 'retry the upload timer'),
      row('m6', 'timer upload retry', 'beta'),
      row('m7', 'the text column holds this'),
      row('m8', 'torn \ud83d surrogate kept'),
    ]);
  });
  afterAll(async () => {
    db.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('column filters are words, not filters', () => {
    expect(ids('body:')).toEqual(['m1']);
    expect(ids('team:alpha')).toEqual([]);
    expect(ids('text:column')).toEqual(['m7']);
  });

  it('OR, NOT and NEAR are words, not operators', () => {
    expect(ids('river OR sea')).toEqual(['m2']);
    expect(ids('NEAR(a b)')).toEqual(['m3']);
    expect(ids('river NOT sea')).toEqual([]);
  });

  it('a lone * or ^ is no syntax error, and a phrase keeps its order', () => {
    expect(ids('star * power')).toEqual(['m4']);
    expect(ids('^retry')).toEqual(['m6', 'm5']);
    expect(ids('"upload timer"')).toEqual(['m5']);
    expect(ids('upload timer')).toEqual(['m6', 'm5']);
  });

  it('a lone surrogate (half an emoji) in the query or the text is U+FFFD, not an SQL error (the IPC fuzz found "unterminated string")', () => {
    expect(ids('surrogate \udefe')).toEqual(['m8']);
    expect(ids('\ud83d surrogate')).toEqual(['m8']);
    expect(ids('torn')).toEqual(['m8']);
    expect(() => ids('\ud91b\udc7e\udd28')).toThrow(SearchQueryError);
  });

  it('a prefix matches, and a team filter keeps to that team', () => {
    expect(ids('uplo*')).toEqual(['m6', 'm5']);
    expect(ids('upload', 'beta')).toEqual(['m6']);
    expect(ids('upload', 'alph')).toEqual([]);
  });
});
