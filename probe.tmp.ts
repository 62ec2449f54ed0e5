import { chromium } from 'playwright-core';
import { serveHosted, standinKey, targetsFileFor } from './tests/helpers/standins';
import { startWorkbenchProcess } from './tests/e2e/harness/server';
import { CHROMIUM, CHROMIUM_ARGS } from './tests/e2e/harness/browser';
const hosted = await serveHosted(standinKey('hosted'));
const dead = await serveHosted(standinKey('hosted'));
const mode = process.argv[2] ?? 'one';
const set: Record<string, typeof hosted> = { hosted };
if (mode === 'failing') { set.broken = { ...dead, entry: { ...dead.entry, label: 'Broken server' } }; }
const { vars } = targetsFileFor(set);
if (mode === 'failing') await dead.close();
const server = await startWorkbenchProcess(vars);
const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
try {
  for (const width of [1024, 1440]) {
    const page = await browser.newPage({ viewport: { width, height: 900 } });
    await page.goto(server.url);
    await page.getByTestId('workbench').waitFor({ timeout: 30000 });
    if (mode === 'failing') { await page.getByTestId('shell.targets').selectOption('broken'); }
    await page.waitForTimeout(1500);
    const info = await page.evaluate(() => {
      const bar = document.querySelector('[data-testid="shell.topBar"]')!;
      const r = bar.getBoundingClientRect();
      return { h: r.height, kids: [...bar.children].map((c) => { const b = c.getBoundingClientRect(); return `${c.className || c.tagName} x=${Math.round(b.left)} y=${Math.round(b.top)} w=${Math.round(b.width)} h=${Math.round(b.height)} :: ${c.textContent?.slice(0, 90)}`; }) };
    });
    console.log(mode, width, JSON.stringify(info, null, 1));
    await page.screenshot({ path: `/tmp/wtb/top-${mode}-${width}.png` });
    await page.close();
  }
} finally { await browser.close(); await server.stop(); await hosted.close(); }
