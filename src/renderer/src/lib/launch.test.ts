import { describe, expect, it } from 'vitest';
import { PERMISSION_MODES } from '../../../shared/types';
import { PERMISSION_WORDS, launchRequest } from './launch';

describe('launchRequest', () => {
  it('sends only the folder when nothing else was filled in', () => {
    expect(launchRequest({ cwd: '  ~/proj ', prompt: '  \n', model: ' ', mode: 'default' })).toEqual({ cwd: '~/proj' });
  });

  it('keeps a multi-line prompt as written (trailing blank lines dropped), the model and a chosen mode', () => {
    expect(launchRequest({ cwd: '/srv/app', prompt: '  Plan the refactor.\n\nThen spawn a tester.\n\n', model: ' sonnet ', mode: 'plan' })).toEqual({
      cwd: '/srv/app',
      prompt: '  Plan the refactor.\n\nThen spawn a tester.',
      model: 'sonnet',
      permissionMode: 'plan',
    });
  });
});

describe('PERMISSION_WORDS', () => {
  it('names every permission mode in words', () => {
    for (const m of PERMISSION_MODES) expect(PERMISSION_WORDS[m]).toMatch(/^[A-Z][a-z]/);
    expect(PERMISSION_WORDS.bypassPermissions).toBe('Skip all permission prompts');
  });
});
