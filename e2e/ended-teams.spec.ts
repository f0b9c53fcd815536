// Ended teams listed from the ended-teams index (written by `teamdeck gen --ended`'s writer, as
// Teamdeck keeps them after Claude removed their folders): the switcher's Ended group lists every
// one beside the running team, and picking one opens its history on demand, with the reason
// nothing can be sent to it.
import { writeEndedTeams } from '../src/sim/ended-gen.js';
import { test, expect } from './fixtures.js';

test('every ended team is listed in the switcher and opens on demand with its history', async ({ page, deck }) => {
  const ended = await writeEndedTeams({ stateDir: deck.stateDir, teams: 60, members: 3, messages: 40, seed: 21 });
  await deck.createTeam('alpha', ['researcher']);
  await deck.open(page);
  const switcher = page.getByTestId('team-switcher');
  await expect(switcher.locator('optgroup[label="Ended"] option')).toHaveCount(60);
  await expect(switcher.locator('optgroup[label="Running"] option')).toHaveCount(1);
  // Each ended option says when it ended (filled in once the page has painted).
  await expect(switcher.locator(`option[value="${ended.teams[3]!.id}"]`)).toContainText(' · ended');

  const pick = ended.teams[17]!;
  await switcher.selectOption(pick.id);
  await expect(page.getByTestId('member-team-lead')).toBeVisible();
  await expect(page.getByTestId('member-researcher')).toBeVisible();
  await page.getByTestId('open-feed').click();
  await expect(page.getByTestId('feed')).toHaveAttribute('data-count', String(pick.messages));
  await page.getByTestId('member-team-lead').click();
  await expect(page.getByTestId('compose-disabled')).toContainText(/ended/i);
  await expect(page.getByTestId('compose')).toBeDisabled();
});
