// End-to-end tests: the built renderer served by the browser host (`teamdeck serve`) to a
// Chromium, against real team folders and simulated members. The Electron spec runs only where
// the Electron binary is installed (see e2e/electron.spec.ts).
import { defineConfig } from '@playwright/test';

/** Playwright's own browser when one is installed; otherwise the system Chromium. */
const executablePath = process.env.TEAMDECK_CHROMIUM ?? '/usr/bin/chromium';

export default defineConfig({
  testDir: 'e2e',
  outputDir: 'test-results',
  timeout: 60_000,
  expect: { timeout: 15_000 },
  fullyParallel: false,
  workers: process.env.CI ? 1 : 2,
  retries: 0,
  forbidOnly: !!process.env.CI,
  reporter: [['list'], ['json', { outputFile: '.playwright-results.json' }]],
  globalSetup: './e2e/global-setup.ts',
  use: {
    headless: true,
    viewport: { width: 1280, height: 800 },
    screenshot: 'only-on-failure',
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath,
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
    },
  },
});
