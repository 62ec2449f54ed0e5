// Every preset end to end, as a new user would: a workbench.targets.json naming a stand-in per server (hosted service,
// llama.cpp, Ollama, LiteLLM, OpenRouter, a gateway) plus one whose key is unset; all appear in the picker, each lists
// its models and answers a run, jev-latest pins to jev-1.13.0 in one click, one comparison puts three servers side by
// side, the check report names each server's differences, and no key reaches the browser.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  serveGateway,
  serveHosted,
  serveLitellm,
  serveLlamacpp,
  serveOllama,
  serveOpenrouter,
  standinKey,
  targetsFileFor,
} from '../helpers/standins';
import type { RunningStandin } from '../helpers/standins';
import { useBrowser } from './harness/browser';
import { startWorkbenchProcess } from './harness/server';
import type { WorkbenchProcess } from './harness/server';
import { storageSnapshot } from './harness/storage';
import { CompareArea } from './pages/CompareArea';
import { WorkbenchPage } from './pages/WorkbenchPage';

/** Per target: a model to run, the model the answer names, and the models the picker lists. */
const PRESETS: Record<string, { model: string; answeredBy: string; listed: string[] }> = {
  hosted: { model: 'jev-latest', answeredBy: 'jev-1.13.0', listed: ['jev-latest', 'jev-preview'] },
  llama: { model: 'Kev-4B', answeredBy: 'Kev-4B', listed: ['Kev-4B', 'laya'] },
  ollama: {
    model: 'nimble',
    answeredBy: 'nimble',
    listed: ['nimble:latest', 'clef-flash:latest', 'llama3.2:latest'],
  },
  litellm: {
    model: 'jev-1.13.0',
    answeredBy: 'model-1.13.0',
    listed: ['jev-latest', 'jev-1.13.0', 'clef-flash'],
  },
  openrouter: {
    model: '~typesafe/jev-latest',
    answeredBy: 'typesafe/jev-1.14-20261001',
    listed: ['typesafe/jev-1.14', 'typesafe/jev-1.13', '~typesafe/jev-latest'],
  },
  gw: { model: 'typesafe/jev-latest', answeredBy: 'typesafe/jev-1.13.0', listed: ['typesafe/jev-latest'] },
};

let standins: Record<string, RunningStandin>;
let server: WorkbenchProcess;
const keys = (): string[] => Object.values(standins).flatMap((s) => (s.key ? [s.key] : []));

beforeAll(async () => {
  standins = {
    hosted: await serveHosted(standinKey('hosted')),
    llama: await serveLlamacpp(),
    ollama: await serveOllama(),
    litellm: await serveLitellm(standinKey('litellm')),
    openrouter: await serveOpenrouter(standinKey('openrouter')),
    gw: await serveGateway(standinKey('gateway')),
  };
  // One more target on the hosted stand-in whose key variable is not set.
  const unset = {
    ...standins.hosted!,
    key: null,
    entry: { preset: 'hosted', keyVar: 'UNSET_TEST_KEY', label: 'Hosted, no key' },
  };
  const { vars } = targetsFileFor({ ...standins, nokey: unset });
  server = await startWorkbenchProcess(vars);
});
afterAll(async () => {
  await server?.stop();
  await Promise.all(Object.values(standins ?? {}).map((s) => s.close()));
});

const browser = useBrowser();

describe('a workbench with a target per preset', () => {
  it('lists them, answers on each, pins an alias, compares three servers, checks one, and leaks no key', async () => {
    const page = browser.page();
    const traffic: string[] = [];
    const reads: Promise<void>[] = [];
    page.on('request', (r) =>
      traffic.push(`${r.url()} ${JSON.stringify(r.headers())} ${r.postData() ?? ''}`),
    );
    page.on('response', (r) => {
      // A response the page stopped reading (a request cancelled after its headers) may never yield its body or its
      // raw headers, and waiting for them hung the test at its ceiling: each is waited for at most 10 s, then the
      // headers Chromium reported at once are kept.
      const read = (async () =>
        `${r.url()} ${JSON.stringify(await r.allHeaders().catch(() => ({})))} ${(await r.body().catch(() => Buffer.alloc(0))).toString('utf8')}`)();
      let timer: ReturnType<typeof setTimeout> | undefined;
      const unread = new Promise<string>((done) => {
        timer = setTimeout(() => done(`${r.url()} ${JSON.stringify(r.headers())} (body never read)`), 10_000);
      });
      reads.push(
        Promise.race([read, unread]).then((seen) => {
          clearTimeout(timer);
          traffic.push(seen);
        }),
      );
    });
    const workbench = new WorkbenchPage(page, server.url);
    await workbench.open();
    const { shell, editor, answers } = workbench;

    // Every configured target, the one without its key saying so; a new session starts on the first that can send.
    const options = await shell.targetOptions();
    expect(options.map((o) => o.id)).toEqual([...Object.keys(PRESETS), 'nokey', 'local']);
    expect(options.find((o) => o.id === 'nokey')!.label).toBe('Hosted, no key (key missing: UNSET_TEST_KEY)');
    await expect.poll(() => shell.selectedTarget()).toBe('hosted');
    // …with a model that target offers, not the reference's example id.
    await expect.poll(() => editor.model.inputValue()).toBe('jev-latest');
    await shell.banner.waitFor();
    expect(await page.getByTestId('shell.bannerLines').textContent()).toBe('UNSET_TEST_KEY=your-key');

    // Each preset: its models listed in the picker, a run answered, the model that answered shown.
    for (const [id, expected] of Object.entries(PRESETS)) {
      await shell.selectTarget(id);
      await expect.poll(() => shell.modelNames()).toEqual(expected.listed);
      await editor.model.fill(expected.model);
      await editor.run.click();
      await answers.waitAnswered();
      await expect.poll(() => answers.fact('resolvedModel')).toContain(expected.answeredBy);
    }

    // The check report of llama.cpp names its differences in sentences.
    await shell.selectTarget('llama');
    await editor.model.fill('Kev-4B');
    await page.getByTestId('shell.checkTarget').click();
    const summary = page.getByTestId('shell.checkSummary');
    await summary.waitFor({ timeout: 30_000 });
    const findings = await page.getByTestId('shell.checkFinding').allTextContents();
    expect(findings.join('\n')).toMatch(/OpenAI's shape.*keeping the 2 marked as decision models of 3/);
    expect(findings.join('\n')).toMatch(/400, not 422/);

    // The hosted alias: badged as an alias, pinned to the version that answered in one click.
    await shell.selectTarget('hosted');
    await editor.model.fill('jev-latest');
    await editor.run.click();
    await answers.waitAnswered();
    expect(await page.getByTestId('workbench.modelKind').first().textContent()).toBe('alias · moves');
    await page.getByRole('button', { name: 'Pin jev-1.13.0' }).click();
    expect(await editor.model.inputValue()).toBe('jev-1.13.0');

    // One comparison across three servers: hosted, llama.cpp and OpenRouter.
    const compare = new CompareArea(page);
    await compare.open();
    await page.getByTestId('compare.addColumn').click();
    const columns: [string, string][] = [
      ['hosted', 'jev-1.13.0'],
      ['llama', 'Kev-4B'],
      ['openrouter', 'typesafe/jev-1.13'],
    ];
    for (const [index, [target, model]] of columns.entries()) {
      await compare.column(index).getByTestId('compare.target').selectOption(target);
      await compare.setModel(index, model);
    }
    await compare.runAll.click();
    for (const index of [0, 1, 2]) await compare.waitPhase(index, 'answered');
    expect(await compare.column(1).getByTestId('compare.columnStatus').textContent()).toContain('Kev-4B');
    expect(await compare.column(2).getByTestId('compare.columnStatus').textContent()).toContain(
      'typesafe/jev-1.13-20260917',
    );
    expect((await compare.questionNames()).length).toBeGreaterThan(0);

    await Promise.all(reads);
    const seen = traffic.join('\n');
    for (const key of keys()) {
      expect(seen).not.toContain(key);
      expect(server.output()).not.toContain(key);
      expect(await storageSnapshot(page, browser.context())).not.toContain(key);
    }
    expect(seen).not.toMatch(/127\.0\.0\.1:\d+\/v1\/systemone/);
    expect(browser.pageErrors()).toEqual([]);
    // Six servers, a comparison and a check in one walk: a ceiling for a loaded 2-core machine, not an expectation.
  }, 240_000);
});
