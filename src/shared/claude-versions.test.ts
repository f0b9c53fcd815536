import { describe, expect, it } from 'vitest';
import { compareClaudeVersions, judgeClaudeVersion, parseClaudeVersion, PROVEN_CLAUDE } from './claude-versions.js';

describe('Claude Code versions', () => {
  it('parses what claude --version and the files say, and compares by number', () => {
    expect(parseClaudeVersion('2.1.337 (Claude Code)')).toEqual([2, 1, 337]);
    expect(parseClaudeVersion('v2.1.9')).toEqual([2, 1, 9]);
    expect(parseClaudeVersion('latest')).toBeUndefined();
    expect(compareClaudeVersions('2.1.99', '2.1.337')).toBeLessThan(0);
    expect(compareClaudeVersions('2.10.0', '2.9.999')).toBeGreaterThan(0);
    expect(compareClaudeVersions('x', '2.1.337')).toBeUndefined();
  });

  it('judges a version against the proven range: nothing inside it, a note above, a warning below', () => {
    expect(judgeClaudeVersion(PROVEN_CLAUDE.oldest)).toMatchObject({ kind: 'proven', words: '' });
    expect(judgeClaudeVersion(PROVEN_CLAUDE.newest)).toMatchObject({ kind: 'proven' });
    expect(judgeClaudeVersion('2.1.340').words).toBe('Claude Code 2.1.340: newer than Teamdeck was tested with (2.1.332–2.1.337)');
    const older = judgeClaudeVersion('2.1.89');
    expect(older.kind).toBe('older');
    expect(older.wontWork!.length).toBeGreaterThan(0);
    expect(older.words).toContain('older than the oldest version Teamdeck supports (2.1.332)');
    expect(judgeClaudeVersion('nightly').kind).toBe('unknown');
  });
});
