// Two tabs of one browser profile (two pages of one context) on one store: a run of rows driven in one tab and
// watched in the other, which takes it over when the first is killed, with every request counted at the service; two
// windows editing one session; a tab closed right after typing; a store that never opens. (A full store is tested in
// tests/unit/app/persistence/storageTrouble.test.ts: this Chromium ignores DevTools' quota override, see the report.)
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { CountingReference } from '../../bench/lib/countingReference';
import { serveCountingReference } from '../../bench/lib/countingReference';
import { useBrowser } from './harness/browser';
import { startWorkbenchProcess } from './harness/server';
import type { WorkbenchProcess } from './harness/server';
import { RowsArea } from './pages/RowsArea';
import { SessionsArea } from './pages/SessionsArea';
import { WorkbenchPage } from './pages/WorkbenchPage';

const KEY = `tabs-key-${Math.random().toString(36).slice(2)}`;
let upstream: CountingReference;
let server: WorkbenchProcess;
beforeAll(async () => {
  // The service behind the direct target counts, per row (the `ref` field of each state), the answers it gave.
  upstream = await serveCountingReference({ apiKeys: [KEY], rpm: 1e9, tps: 1e12, idField: 'ref' });
  server = await startWorkbenchProcess({ EVAL_BASE_URL: upstream.url, EVAL_API_KEY: KEY });
});
afterAll(async () => {
  await server?.stop();
  await upstream?.close();
});

const browser = useBrowser();

const ROWS = 200;
const CSV = `ref,text,lang\n${Array.from(
  { length: ROWS },
  (_, i) => `t${i + 1},"Ticket ${i + 1}: I was charged twice and want a refund",en`,
).join('\n')}\n`;

/** Every record of one IndexedDB table of the app, read straight from the browser's store. */
function readTable(page: Page, table: string): Promise<unknown[]> {
  return page.evaluate(
    (name) =>
      new Promise<unknown[]>((resolve, reject) => {
        const open = indexedDB.open('evaluate-workbench');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const request = open.result.transaction(name, 'readonly').objectStore(name).getAll();
          request.onsuccess = () => {
            open.result.close();
            resolve(request.result as unknown[]);
          };
          request.onerror = () => reject(request.error);
        };
      }),
    table,
  );
}

const evaluatePosts = (page: Page): string[] => {
  const posts: string[] = [];
  page.on('request', (r) => {
    if (r.method() === 'POST' && r.url().endsWith('/v1/evaluate')) posts.push(r.url());
  });
  return posts;
};

it('a run driven in one tab is watched live in another, which cannot resume it, and takes it over when the first is killed: each row is billed once but those in flight at the kill', async () => {
  const a = browser.page();
  const b = await browser.context().newPage();
  const before = upstream.counts();
  const workbenchA = new WorkbenchPage(a, server.url);
  await workbenchA.open();
  await workbenchA.shell.selectTarget('direct');
  const rowsA = new RowsArea(a);
  await rowsA.open();
  await rowsA.pick('tickets.csv', CSV);
  await expect.poll(() => a.getByTestId('rows.plan.rows').textContent()).toBe(String(ROWS));
  await rowsA.start.click(); // 1,200 rows a minute by default: about 10 s for the file
  await rowsA.waitAnswered(20);

  const postsFromB = evaluatePosts(b);
  await new WorkbenchPage(b, server.url).open();
  const rowsB = new RowsArea(b);
  await rowsB.open();
  const listed = b.getByTestId('rows.run').filter({ hasText: 'tickets.csv' });
  await expect.poll(() => listed.getByTestId('rows.run.status').textContent()).toBe('running in another tab');
  await expect.poll(() => listed.getByRole('button', { name: /^Delete/ }).isDisabled()).toBe(true);
  await rowsB.openRun('tickets.csv');
  await expect.poll(() => rowsB.status.getAttribute('data-owner')).toBe('elsewhere');
  expect(await rowsB.status.textContent()).toBe('Running in another tab');
  expect(await rowsB.resume.isDisabled()).toBe(true);
  // Watched live: B's counts move while A sends, and B sends nothing.
  const seen = await rowsB.count('done');
  await rowsB.waitAnswered(seen + 20);
  expect(postsFromB).toEqual([]);
  expect(await rowsB.pause.isEnabled()).toBe(true);

  // A is killed mid-run: no beforeunload, no pagehide handlers to rely on.
  await rowsB.waitAnswered(80);
  await a.close({ runBeforeUnload: false });

  await expect.poll(() => rowsB.status.getAttribute('data-owner'), { timeout: 15_000 }).toBe('none');
  await expect.poll(() => rowsB.message.textContent()).toMatch(/interrupted/);
  await rowsB.resume.click();
  await rowsB.waitFinished(60_000);
  const unknown = await rowsB.count('unknown');
  expect(await rowsB.count('done')).toBe(ROWS - unknown);
  const items = (await readTable(b, 'rowItems')) as { data: { ref: string }; outcome?: { status: string } }[];
  const unknownRefs = items.filter((i) => i.outcome?.status === 'unknown').map((i) => i.data.ref);
  expect(unknownRefs).toHaveLength(unknown);

  // The rows in flight at the kill go again only on request; then every row is answered.
  if (unknown > 0) {
    await rowsB.retryUnknown.click();
    await rowsB.waitFinished(60_000);
  }
  expect(await rowsB.count('done')).toBe(ROWS);
  const after = upstream.counts();
  const answered = Object.fromEntries(
    Object.entries(after.answers).map(([ref, n]) => [ref, n - (before.answers[ref] ?? 0)]),
  );
  expect(Object.keys(answered)).toHaveLength(ROWS);
  const twice = Object.entries(answered)
    .filter(([, n]) => n > 1)
    .map(([ref]) => ref);
  for (const ref of twice) expect(unknownRefs).toContain(ref);
  expect(Math.max(...Object.values(answered))).toBeLessThanOrEqual(2);
  // Every POST the service saw is one of those: the 200 rows, plus at most the rows that were in flight.
  expect(after.posts - before.posts).toBeLessThanOrEqual(ROWS + unknown);
  expect(after.posts - before.posts).toBe(Object.values(answered).reduce((sum, n) => sum + n, 0));
  expect(browser.pageErrors().filter((e) => e.startsWith('pageerror'))).toEqual([]);
});

it('two windows editing one session keep both edits', async () => {
  const a = browser.page();
  const b = await browser.context().newPage();
  const workbenchA = new WorkbenchPage(a, server.url);
  await workbenchA.open();
  const sessionsA = new SessionsArea(a);
  await sessionsA.waitReady();
  await sessionsA.waitSaved();
  const workbenchB = new WorkbenchPage(b, server.url);
  await workbenchB.open();
  const sessionsB = new SessionsArea(b);
  await sessionsB.waitReady();
  await workbenchA.editor.waitReady();
  await workbenchB.editor.waitReady();

  // Both edit before either save lands: the state in A, the model in B.
  await workbenchA.editor.replaceText('state', 'State typed in window A');
  await workbenchB.editor.model.fill('model-1.12.0');
  await sessionsA.waitSaved();
  await sessionsB.waitSaved();

  const stored = (await readTable(a, 'sessions')) as { doc: { stateText: string; model: string } }[];
  expect(stored).toHaveLength(1);
  expect(stored[0]!.doc).toMatchObject({ stateText: 'State typed in window A', model: 'model-1.12.0' });
  // Each window follows the other live, without a reload or a focus change.
  await expect.poll(() => workbenchA.editor.model.inputValue()).toBe('model-1.12.0');
  await expect
    .poll(() => workbenchB.editor.visibleLines('state').then((l) => l.join('')))
    .toContain('State typed in window A');
  await b.reload();
  await workbenchB.editor.waitReady();
  expect((await workbenchB.editor.visibleLines('state')).join('')).toContain('State typed in window A');
  expect(await workbenchB.editor.model.inputValue()).toBe('model-1.12.0');
});

it('a tab closed within 100 ms of typing keeps the text, and the browser asks before leaving while it is not saved', async () => {
  const a = browser.page();
  const workbench = new WorkbenchPage(a, server.url);
  await workbench.open();
  const sessions = new SessionsArea(a);
  await sessions.waitReady();
  await sessions.waitSaved();
  await workbench.editor.waitReady();
  const dialogs: string[] = [];
  a.on('dialog', (dialog) => {
    dialogs.push(dialog.type());
    void dialog.accept(); // "Leave"
  });
  await workbench.editor.replaceText('state', 'Typed just before closing');
  await a.close({ runBeforeUnload: true });
  await a.waitForEvent('close');
  expect(dialogs).toEqual(['beforeunload']);

  const again = await browser.context().newPage();
  await new WorkbenchPage(again, server.url).open();
  await new SessionsArea(again).waitReady();
  const stored = (await readTable(again, 'sessions')) as { doc: { stateText: string } }[];
  expect(stored.map((s) => s.doc.stateText)).toEqual(['Typed just before closing']);
});

it('an IndexedDB open that never answers ends in "sessions cannot be saved here", and the save line claims no save', async () => {
  const page = browser.page();
  // The open request is made but never answered, as when another tab's old build blocks the upgrade for good.
  await page.addInitScript(() => {
    IDBFactory.prototype.open = function open() {
      return {} as IDBOpenDBRequest;
    };
  });
  const workbench = new WorkbenchPage(page, server.url);
  await workbench.open();
  const sessions = new SessionsArea(page);
  expect(await sessions.saveStatus.textContent()).not.toMatch(/saved/i);
  await page
    .locator('[data-testid="sessions.sidebar"][data-phase="unavailable"]')
    .waitFor({ timeout: 10_000 });
  expect(await sessions.saveStatus.getAttribute('data-state')).toBe('unavailable');
  expect(await sessions.saveStatus.textContent()).toMatch(
    /^Sessions cannot be saved in this browser \(The browser's storage did not answer within 4 s\); export your work to keep it\./,
  );
  // The workbench still works, unsaved.
  await workbench.editor.waitReady();
});
