import { defineConfig } from '@playwright/test';

/**
 * Browser tests: Playwright drives Debian's Chromium (/usr/bin/chromium, installed by `npm test`;
 * never a downloaded browser) against the built control plane, started once for the run by
 * support/global-setup.ts with a throw-away data directory and a local SMTP server.
 */
export default defineConfig({
  testDir: 'tests',
  globalSetup: './support/global-setup.ts',
  // One worker: the machine has two cores, and the control plane and Chromium need them.
  workers: 1,
  fullyParallel: false,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list'], ['json', { outputFile: process.env.PLAYWRIGHT_JSON ?? 'test-results/results.json' }]],
  use: {
    baseURL: process.env.RAMPART_E2E_URL,
    locale: 'en-US',
    // A failed test keeps its trace: every step's DOM snapshot, its network and console. Without the
    // screencast film strip, whose frames the browser encoded all through every test: the same tests
    // took 25-35 % less time without it (sign-in.spec.ts, twice each way, loaded machine).
    trace: { mode: 'retain-on-failure', screenshots: false, snapshots: true, sources: true },
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
        '--disable-quic',
      ],
    },
  },
});
