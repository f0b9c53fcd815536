// Export from the window: the open thread as Markdown (by keyboard) and as JSON, and the whole
// team from the feed; each file is the browser's download, read back and checked.
import { readFile } from 'node:fs/promises';
import type { Download, Page } from '@playwright/test';
import { test, expect, sentRow } from './fixtures.js';

async function download(page: Page, start: () => Promise<void>): Promise<{ name: string; text: string }> {
  const [d] = await Promise.all([page.waitForEvent('download'), start()]);
  return { name: (d as Download).suggestedFilename(), text: await readFile((await d.path())!, 'utf8') };
}

test('the thread exports as Markdown and JSON, and the whole team from the feed', async ({ page, deck }, testInfo) => {
  await deck.createTeam('alpha', ['researcher', 'tester']);
  const early = new Date(Date.now() - 60_000).toISOString();
  const hostile = 'Found it: <b>a race</b>\n```\n# not a heading\n```';
  await deck.append('alpha', 'user', { from: 'researcher', text: hostile, timestamp: early, read: false });
  await deck.append('alpha', 'team-lead', { from: 'tester', text: JSON.stringify({ type: 'shutdown_approved', requestId: 'r1', from: 'tester', timestamp: early }), timestamp: early, read: false });
  await deck.open(page);
  await page.getByTestId('member-researcher').click();
  await page.getByTestId('compose').fill('Please write it up');
  await page.getByTestId('compose').press('Enter');
  await expect(sentRow(page, 'Please write it up')).toHaveAttribute('data-status', 'accepted');

  // Markdown, by keyboard: focus the button, ↓ opens the menu on its first item, Enter exports.
  await page.getByTestId('export-button').focus();
  await page.keyboard.press('ArrowDown');
  await expect(page.getByTestId('export-thread-md')).toBeFocused();
  const md = await download(page, () => page.keyboard.press('Enter'));
  expect(md.name).toMatch(/^teamdeck-alpha-researcher-\d{8}-\d{6}\.md$/);
  expect(md.text).toMatch(/^# Thread with researcher\n/);
  expect(md.text).toContain('- Team: alpha (folder `alpha`) · legacy era · running');
  expect(md.text).toMatch(/### \d{4}-\d\d-\d\d \d\d:\d\d:\d\d — researcher → you\n\nAnswer in the user inbox · `[^`]+`\n\n````text\nFound it: <b>a race<\/b>\n```\n# not a heading\n```\n````\n/);
  expect(md.text).toMatch(/### [\d: -]+ — you → researcher\n\nAs user · delivered · `[^`]+`\n\n```text\nPlease write it up\n```\n/);
  expect(md.text).not.toContain('shutdown approved');
  await expect(page.getByTestId('export-status')).toHaveText(/^Saved teamdeck-alpha-researcher-\d{8}-\d{6}\.md \(2 messages\)$/);
  await expect(page.getByTestId('export-button')).toBeFocused();
  await page.screenshot({ path: testInfo.outputPath('export-saved.png') });

  // JSON, with the mouse.
  await page.getByTestId('export-button').click();
  await page.screenshot({ path: testInfo.outputPath('export-menu.png') });
  const json = await download(page, () => page.getByTestId('export-thread-json').click());
  expect(json.name).toMatch(/^teamdeck-alpha-researcher-\d{8}-\d{6}\.json$/);
  const doc = JSON.parse(json.text) as { format: string; version: number; scope: string; member: { name: string }; messages: { from: string; text: string; delivery?: { status: string; words: string } }[] };
  expect(doc).toMatchObject({ format: 'teamdeck-export', version: 1, scope: 'thread', member: { name: 'researcher' } });
  expect(doc.messages.map((m) => [m.from, m.text])).toEqual([
    ['researcher', hostile],
    ['user', 'Please write it up'],
  ]);
  expect(doc.messages[1]!.delivery).toMatchObject({ status: 'accepted', words: 'delivered' });

  // The whole team, from the feed: teammates' protocol traffic included, in words.
  await page.getByTestId('open-feed').click();
  await page.getByTestId('export-button').click();
  await expect(page.getByTestId('export-thread-md')).toHaveCount(0);
  const team = await download(page, () => page.getByTestId('export-team-md').click());
  expect(team.name).toMatch(/^teamdeck-alpha-team-\d{8}-\d{6}\.md$/);
  expect(team.text).toMatch(/^# Every message in alpha\n/);
  expect(team.text).toMatch(/— tester → team-lead\n\nProtocol event: shutdown approved · `/);
  expect(team.text).toContain('Please write it up');
  // Esc closes the menu and leaves the feed open.
  await page.getByTestId('export-button').click();
  await expect(page.getByTestId('export-menu')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('export-menu')).toHaveCount(0);
  await expect(page.getByTestId('feed')).toBeVisible();
  expect(deck.pageProblems).toEqual([]);
});
