// Chromium for the e2e tests: one browser per file, a fresh context (profile) per test, artifacts kept on failure.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import type { TestContext } from 'vitest';
import { ROOT } from './server';

/** Debian's Chromium; .ci/run installs it with apt-get when it is missing. */
export const CHROMIUM = '/usr/bin/chromium';

/** Flags for a quiet, offline, headless Chromium in a container. */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/** Where screenshots and traces of failed tests go (git-ignored). */
export const ARTIFACTS = join(ROOT, 'tests/e2e/artifacts');

/** Trace every test (E2E_TRACE=1): for reading a failure step by step. */
const TRACE = process.env.E2E_TRACE === '1';

const CONTEXT_OPTIONS: BrowserContextOptions = { viewport: { width: 1280, height: 800 }, locale: 'en-US' };

export const launchBrowser = (): Promise<Browser> =>
  chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });

/**
 * A browser with a real user-data directory, for a test that needs a profile on disk (storage that survives a
 * browser restart). Close it, then call `remove` to delete the profile.
 */
export async function launchProfile(): Promise<{ context: BrowserContext; dir: string; remove(): void }> {
  const dir = mkdtempSync(join(tmpdir(), 'workbench-profile-'));
  const context = await chromium.launchPersistentContext(dir, {
    ...CONTEXT_OPTIONS,
    executablePath: CHROMIUM,
    args: CHROMIUM_ARGS,
  });
  return { context, dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** What a test gets: the page of its own fresh context, and what the page reported. */
export interface BrowserFixture {
  page(): Page;
  context(): BrowserContext;
  /** Uncaught exceptions and console errors on the page, in order. */
  pageErrors(): string[];
}

const safeName = (s: string): string => s.replace(/[^a-z0-9._-]+/gi, '_').slice(0, 120);

/**
 * Registers the hooks of a test file: a browser for the file, a new context per test, and on failure a screenshot in
 * tests/e2e/artifacts/. With E2E_TRACE=1 each test is traced too, and a failed one leaves its trace there (open with
 * `npx playwright-core show-trace <zip>`): off by default, as tracing every step costs a fifth of the run on 2 cores.
 */
export function useBrowser(): BrowserFixture {
  let browser: Browser | undefined;
  let context: BrowserContext | undefined;
  let page: Page | undefined;
  let errors: string[] = [];

  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  beforeEach(async () => {
    context = await browser!.newContext(CONTEXT_OPTIONS);
    if (TRACE) await context.tracing.start({ screenshots: true, snapshots: true });
    page = await context.newPage();
    errors = [];
    page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(`console: ${message.text()}`);
    });
  });

  afterEach(async (ctx: TestContext) => {
    const failed = ctx.task.result?.state === 'fail';
    if (failed && page && context) {
      mkdirSync(ARTIFACTS, { recursive: true });
      const base = join(ARTIFACTS, safeName(`${ctx.task.file.name}-${ctx.task.name}`));
      await page.screenshot({ path: `${base}.png`, fullPage: true }).catch(() => undefined);
      if (TRACE) await context.tracing.stop({ path: `${base}.trace.zip` }).catch(() => undefined);
    } else if (TRACE) {
      await context?.tracing.stop().catch(() => undefined);
    }
    await context?.close();
    context = undefined;
    page = undefined;
  });

  return {
    page: () => page ?? raise('No page: useBrowser() pages exist only inside a test.'),
    context: () => context ?? raise('No context: useBrowser() contexts exist only inside a test.'),
    pageErrors: () => [...errors],
  };
}

function raise(message: string): never {
  throw new Error(message);
}
