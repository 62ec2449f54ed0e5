// Sessions as a user meets them: they survive a browser restart, move between profiles by file and by link (a shared
// run replays without a request), and a corrupted file is refused without touching what is stored.
import { chromium } from 'playwright-core';
import type { Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import { exportFile } from '../../src/core/sessionFile';
import type { Session } from '../../src/core/session';
import { sampleSession } from '../helpers/sessions';
import { CHROMIUM, CHROMIUM_ARGS, launchProfile, useBrowser } from './harness/browser';
import { storageSnapshot } from './harness/storage';
import { EditorArea } from './pages/EditorArea';
import { SessionsArea } from './pages/SessionsArea';

const browser = useBrowser();
const url = (): string => inject('workbenchUrl');

/** Two sessions with runs; the answered run is the latest, so opening a session shows its answers. */
function fixture(): Session[] {
  const base = sampleSession();
  const [answered, failed] = base.runs;
  return [
    { ...base, runs: [failed!, answered!] },
    sampleSession({ id: 'session-2', name: 'Refund wording', runs: [] }),
  ];
}

async function openApp(page: Page, at = url()): Promise<SessionsArea> {
  await page.goto(at);
  const sessions = new SessionsArea(page);
  await sessions.waitReady();
  return sessions;
}

/** What the page stores, once two reads in a row agree (the import's last meta write may still be landing). */
async function stableSnapshot(page: Page): Promise<string> {
  let previous = await storageSnapshot(page, browser.context());
  for (;;) {
    await page.waitForTimeout(100);
    const next = await storageSnapshot(page, browser.context());
    if (next === previous) return next;
    previous = next;
  }
}

const sessionsOf = (text: string): Session[] => (JSON.parse(text) as { sessions: Session[] }).sessions;

describe('sessions', () => {
  it('keeps three sessions and the open one across a browser restart', async () => {
    const profile = await launchProfile();
    try {
      let sessions = await openApp(profile.context.pages()[0] ?? (await profile.context.newPage()));
      expect(await sessions.listNames()).toEqual(['Example session']);
      await sessions.create();
      await sessions.rename('Untitled session', 'Tone rubric');
      await sessions.create();
      await sessions.rename('Untitled session', 'Refund wording');
      await sessions.open('Tone rubric');
      await sessions.waitSaved();
      await profile.context.close();

      const again = await chromium.launchPersistentContext(profile.dir, {
        executablePath: CHROMIUM,
        args: CHROMIUM_ARGS,
      });
      try {
        sessions = await openApp(again.pages()[0] ?? (await again.newPage()));
        expect((await sessions.listNames()).sort()).toEqual([
          'Example session',
          'Refund wording',
          'Tone rubric',
        ]);
        expect(await sessions.openName()).toBe('Tone rubric');
      } finally {
        await again.close();
      }
    } finally {
      profile.remove();
    }
  });

  it('keeps what was typed 50 ms before the whole browser closed (issue 29 item 20)', async () => {
    const profile = await launchProfile();
    try {
      const page = profile.context.pages()[0] ?? (await profile.context.newPage());
      const sessions = await openApp(page);
      const editor = new EditorArea(page);
      await editor.waitReady();
      await sessions.waitSaved();
      await editor.goTo('state', 1);
      await page.keyboard.type('Typed just before closing ');
      await page.waitForTimeout(50);
      // The whole browser goes, not a tab: no debounce, and no pagehide to rely on.
      await profile.context.close();

      const again = await chromium.launchPersistentContext(profile.dir, {
        executablePath: CHROMIUM,
        args: CHROMIUM_ARGS,
      });
      try {
        const reopened = again.pages()[0] ?? (await again.newPage());
        await openApp(reopened);
        const back = new EditorArea(reopened);
        await back.waitReady();
        await expect
          .poll(() => back.visibleLines('state').then((lines) => lines.join('\n')))
          .toContain('Typed just before closing ');
      } finally {
        await again.close();
      }
    } finally {
      profile.remove();
    }
  });

  it('exports from one profile and imports into a fresh one, identical', async () => {
    const sessions = await openApp(browser.page());
    await sessions.importFile('fixture.json', exportFile(fixture()));
    await expect.poll(() => sessions.toast.textContent()).toBe('Imported 2 sessions.');
    const exported = await sessions.exportAll();
    expect(exported.fileName).toMatch(/^evaluate-workbench-3-sessions-\d{4}-\d\d-\d\d\.json$/);

    const fresh = await browser.context().browser()!.newContext();
    try {
      const other = await openApp(await fresh.newPage());
      expect(await other.listNames()).toEqual(['Example session']);
      await other.importFile(exported.fileName, exported.text);
      // Each profile's example session has its own id, so nothing collides.
      await expect.poll(() => other.toast.textContent()).toBe('Imported 3 sessions.');
      const reexported = sessionsOf((await other.exportAll()).text);
      expect(reexported).toHaveLength(4);
      for (const session of sessionsOf(exported.text)) {
        expect(reexported.find((s) => s.id === session.id)).toEqual(session);
      }
      for (const session of fixture()) expect(reexported.find((s) => s.id === session.id)).toEqual(session);
    } finally {
      await fresh.close();
    }
  });

  it('opens a share link in a fresh profile and shows its answers without sending a request', async () => {
    const sessions = await openApp(browser.page());
    await sessions.importFile('fixture.json', exportFile(fixture()));
    await sessions.item('Support triage').waitFor();
    const link = await sessions.shareLink('Support triage', true);
    expect(link.startsWith(`${url().replace(/\/$/, '')}/#share=v1.`)).toBe(true);

    const fresh = await browser.context().browser()!.newContext();
    try {
      const page = await fresh.newPage();
      const sent: string[] = [];
      page.on('request', (request) => {
        if (request.url().includes('/api/'))
          sent.push(`${request.method()} ${new URL(request.url()).pathname}`);
      });
      await page.goto(link);
      const other = new SessionsArea(page);
      await other.sharePreview.waitFor();
      expect(await page.getByTestId('sessions.sharePreviewName').textContent()).toBe('Support triage');
      expect(await page.getByTestId('sessions.sharePreviewRuns').textContent()).toMatch(/^2 runs/);
      await page.getByTestId('sessions.shareImport').click();
      await other.item('Support triage').locator('[aria-current="true"]').waitFor();
      expect(new URL(page.url()).hash).toBe('');

      // The stored run's answers, as the link carried them.
      await page.getByTestId('answers.card').nth(2).waitFor();
      expect(await page.getByTestId('answers.noul').textContent()).toBe('0.93');
      expect(await page.getByTestId('answers.choice').textContent()).toBe('technical');
      expect(await page.getByTestId('answers.score').textContent()).toContain('1.42');
      // Listing targets and models is fine; nothing may have been evaluated.
      expect(sent.filter((s) => s.startsWith('POST') || /evaluate|systemone/.test(s))).toEqual([]);
    } finally {
      await fresh.close();
    }
  });

  it('refuses a corrupted file with a clear message and leaves the stored sessions untouched', async () => {
    const page = browser.page();
    const sessions = await openApp(page);
    await sessions.importFile('fixture.json', exportFile(fixture()));
    await sessions.item('Refund wording').waitFor();
    await sessions.waitSaved();
    const names = await sessions.listNames();
    const before = await stableSnapshot(page);

    const good = exportFile([sampleSession({ id: 'never-stored', name: 'Never stored' })]);
    await sessions.importFile('broken.json', good.slice(0, Math.floor(good.length / 2)));
    const alert = page.getByTestId('sessions.toast');
    await alert.filter({ hasText: 'Nothing was imported' }).waitFor();
    expect(await alert.getAttribute('role')).toBe('alert');
    expect(await sessions.toast.textContent()).toMatch(
      /^Nothing was imported\. The file is cut off: it ends in the middle of its data/,
    );

    await sessions.importFile('notes.json', '{"title": "my notes", "items": []}');
    await expect
      .poll(() => sessions.toast.textContent())
      .toMatch(/This file is not an Evaluate Workbench export: it has no "format"/);

    expect(await sessions.listNames()).toEqual(names);
    expect(await stableSnapshot(page)).toBe(before);
    expect(browser.pageErrors()).toEqual([]);
  });
});
