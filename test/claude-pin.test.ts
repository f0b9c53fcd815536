// The contract suite's pin and the range the app calls tested must move together: the pin is
// the newest proven version (docs/claude-contract.md#versions), and its capture is committed.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROVEN_CLAUDE } from '../src/shared/claude-versions.js';
import { PINNED_CLAUDE_CODE_VERSION, selectedClaudeVersion } from './claude/harness/binary.js';
import { REPO_ROOT } from './helpers/tmp.js';

describe('the pinned Claude Code', () => {
  it('is the newest proven version, with its capture in test/fixtures', () => {
    expect(PINNED_CLAUDE_CODE_VERSION).toBe(PROVEN_CLAUDE.newest);
    expect(existsSync(join(REPO_ROOT, 'test', 'fixtures', `claude-${PINNED_CLAUDE_CODE_VERSION}`, 'team-lifecycle', 'README.md'))).toBe(true);
  });

  it('TEAMDECK_CLAUDE_VERSION picks another version for a run; anything but a version is refused', () => {
    expect(selectedClaudeVersion({})).toBe(PINNED_CLAUDE_CODE_VERSION);
    expect(selectedClaudeVersion({ TEAMDECK_CLAUDE_VERSION: ' 2.1.335 ' })).toBe('2.1.335');
    expect(() => selectedClaudeVersion({ TEAMDECK_CLAUDE_VERSION: 'latest' })).toThrow(/must look like/);
  });
});
