// The target check through the real proxy, against a stand-in per preset: the sentences name each server's real
// differences from the contract, and the report never holds a key. Also `npm run check-target` as a process.
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkTarget } from '../../../../src/client/workbenchApi';
import { worstSeverity } from '../../../../src/contract';
import type { TargetCheckReport } from '../../../../src/contract';
import { parseCheckArgs } from '../../../../src/server/checkTargetMain';
import {
  serveCustom,
  serveGateway,
  serveHosted,
  serveLlamacpp,
  serveOllama,
  serveOpenrouter,
  standinKey,
  targetsFileFor,
} from '../../../helpers/standins';
import type { RunningStandin } from '../../../helpers/standins';
import { serveCloudflareStandin } from '../../../helpers/standins/cloudflareServer';
import { serveDecisionsStandin } from '../../../helpers/standins/decisionsServer';
import { isolatedEnv, ROOT } from '../../../e2e/harness/server';
import { startWorkbench } from '../proxy/helpers';
import type { TestWorkbench } from '../proxy/helpers';

let standins: Record<string, RunningStandin>;
let vars: Record<string, string>;
let wb: TestWorkbench;
const reports: Record<string, TargetCheckReport> = {};
const texts = (id: string): string => reports[id]!.findings.map((f) => `${f.severity}: ${f.text}`).join('\n');

beforeAll(async () => {
  standins = {
    hosted: await serveHosted(standinKey('hosted')),
    llama: await serveLlamacpp(),
    ollama: await serveOllama(),
    openrouter: await serveOpenrouter(standinKey('openrouter')),
    gw: await serveGateway(standinKey('gateway')),
    custom: await serveCustom(standinKey('custom')),
  };
  // Servers of another wire, each described as its targets-file entry says (no model list: the check names a model).
  const dialectKey = standinKey('dialects');
  const luna = await serveDecisionsStandin({ apiKey: dialectKey });
  const clef = await serveCloudflareStandin({ apiKey: dialectKey });
  const described = (
    url: string,
    close: () => Promise<void>,
    entry: Record<string, unknown>,
  ): RunningStandin => ({
    url,
    key: dialectKey,
    entry: { preset: 'custom', keyVar: 'DIALECT_TEST_KEY', modelsPath: null, ...entry },
    seen: [],
    close,
  });
  const cloudflarePath = '/client/v4/accounts/acct/ai/run/@cf/cloudflare';
  const wired = {
    luna: described(luna.url, () => luna.close(), { evaluatePath: '/v1/decisions', dialect: 'decisions' }),
    clef: described(clef.url, () => clef.close(), {
      evaluatePath: cloudflarePath,
      envelope: 'cloudflare',
      modelInPath: true,
    }),
    // The same Cloudflare server on a target that does not say so yet.
    clefbare: described(clef.url, () => Promise.resolve(), {
      evaluatePath: cloudflarePath,
      modelInPath: true,
    }),
  };
  vars = targetsFileFor({ ...standins, ...wired }).vars;
  wb = await startWorkbench(vars);
  for (const id of Object.keys(standins)) reports[id] = await checkTarget(id, undefined, { origin: wb.url });
  reports.luna = await checkTarget('luna', 'gpt-6-luna', { origin: wb.url });
  reports.clef = await checkTarget('clef', 'clef', { origin: wb.url });
  reports.clefbare = await checkTarget('clefbare', 'clef', { origin: wb.url });
  Object.assign(standins, wired);
});
afterAll(async () => {
  await wb.close();
  await Promise.all(Object.values(standins).map((s) => s.close()));
});

describe('POST /api/targets/<id>/check', () => {
  it('reads a contract-exact server as the contract says', () => {
    expect(worstSeverity(reports.custom!.findings)).not.toBe('problem');
    expect(texts('custom')).toMatch(
      /ok: It refuses an invalid request with 422 and field locations \(the contract's/,
    );
    expect(texts('custom')).toMatch(/ok: It answers yes\/no, choice and score questions/);
  });

  it('names the hosted service: the pinned version it answers with, its request id header, FastAPI 422s', () => {
    expect(reports.hosted!.model).toBe('jev-latest');
    expect(texts('hosted')).toMatch(
      /"jev-latest" was answered by "jev-1\.13\.0", a version the workbench can pin/,
    );
    expect(texts('hosted')).toMatch(/difference: It sends its request id as `x-typesafe-request-id`/);
    expect(texts('hosted')).toMatch(/normalised: .*422 and field locations \(FastAPI's/);
  });

  it("names llama.cpp's OpenAI-style list (decision models kept), its 400 and error envelope", () => {
    expect(texts('llama')).toMatch(
      /normalised: It lists models in OpenAI's shape.*keeping the 2 marked as decision models of 3: Kev-4B, laya/,
    );
    expect(texts('llama')).toMatch(
      /difference: It refuses an invalid request with 400, not 422, in \{error: \{code, message, type\}\}/,
    );
  });

  it("names Ollama's echo of the name it was sent and its string errors", () => {
    expect(texts('ollama')).toMatch(
      /difference: It echoes the alias "nimble:latest" as sent.*pinning is not offered/,
    );
    expect(texts('ollama')).toMatch(/400, not 422, in \{error: "…"\}/);
  });

  it("names OpenRouter's extra answer fields and usage cost as harmless", () => {
    expect(texts('openrouter')).toMatch(
      /normalised: Answers carry fields the contract does not define \(`id`, `provider`\)/,
    );
    expect(texts('openrouter')).toMatch(/normalised: Usage adds `cost`/);
  });

  it('names a gateway whose 422 has no field locations', () => {
    expect(texts('gw')).toMatch(/difference: It refuses an invalid request with 422 but no field locations/);
  });

  it('sends the model it is given, and says a route is missing when the evaluate path is wrong', async () => {
    const report = await checkTarget('llama', 'qwen3-8b', { origin: wb.url });
    expect(report.model).toBe('qwen3-8b');
    expect(worstSeverity(report.findings)).toBe('problem');
    expect(report.findings.map((f) => f.text).join('\n')).toMatch(
      /The yes\/no request answered 501: This model is not a decision model/,
    );
  });

  it('speaks Decisions to a Decisions target, through the translation of a run, and reports its differences', () => {
    expect(worstSeverity(reports.luna!.findings)).not.toBe('problem');
    expect(texts('luna')).toMatch(/ok: It speaks the Decisions dialect, as this target is set/);
    expect(texts('luna')).toMatch(/ok: It answers yes\/no, choice and score questions/);
    // The server's own differences, now that the probes reach it in its form.
    expect(texts('luna')).toMatch(/normalised: Usage adds .*`input_tokens_details`/);
    expect(texts('luna')).toMatch(
      /difference: It refuses an invalid request with 400, not 422, with field locations \(\{error: \{message, type, param, code\}\}\)/,
    );
    expect(texts('luna')).not.toMatch(/Extra inputs are not permitted/);
  });

  it('advises only what a target does not already say: the Cloudflare envelope', () => {
    expect(worstSeverity(reports.clef!.findings)).not.toBe('problem');
    expect(texts('clef')).toMatch(
      /ok: Answers come wrapped in .*as this target is set \("envelope": "cloudflare"\)/,
    );
    expect(texts('clef')).not.toMatch(/set "envelope": "cloudflare" on this target/);
    expect(texts('clef')).toMatch(/difference: It sends its request id as `cf-ai-req-id`/);
    expect(texts('clefbare')).toMatch(
      /difference: Answers come wrapped in .*: set "envelope": "cloudflare" on this target/,
    );
  });

  it('holds no key', () => {
    const all = JSON.stringify(reports);
    for (const s of Object.values(standins)) if (s.key) expect(all).not.toContain(s.key);
  });
});

describe('npm run check-target', () => {
  it('reads its arguments', () => {
    expect(parseCheckArgs(['llama'])).toEqual({ id: 'llama' });
    expect(parseCheckArgs(['llama', '--model', 'laya'])).toEqual({ id: 'llama', model: 'laya' });
    expect(parseCheckArgs([])).toMatch(/Name one target/);
    expect(parseCheckArgs(['a', '--model'])).toMatch(/Give the model after --model/);
  });

  it('prints the same sentences in a terminal and exits 0 for a server that works', async () => {
    const run = (args: string[]) =>
      new Promise<{ code: number | null; out: string }>((resolve) => {
        const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/checkTargetMain.ts', ...args], {
          cwd: ROOT,
          env: isolatedEnv(vars),
        });
        let out = '';
        child.stdout.on('data', (c: Buffer) => (out += c.toString()));
        child.stderr.on('data', (c: Buffer) => (out += c.toString()));
        child.on('exit', (code) => resolve({ code, out }));
      });
    const ok = await run(['hosted']);
    expect(ok.out).toMatch(/Checking hosted/);
    expect(ok.out).toMatch(/different +It sends its request id as `x-typesafe-request-id`/);
    expect(ok.out).not.toContain(standins.hosted!.key!);
    expect(ok.code).toBe(0);
    // A Decisions server checked from the terminal: its probes go out in its own form, and it works.
    const decisions = await run(['luna', '--model', 'gpt-6-luna']);
    expect(decisions.out).toMatch(/It speaks the Decisions dialect/);
    expect(decisions.out).not.toMatch(/PROBLEM/);
    expect(decisions.code).toBe(0);
    const missing = await run(['nope']);
    expect(missing.code).toBe(2);
    expect(missing.out).toMatch(/There is no target "nope"; configured: hosted, llama/);
  }, 60_000);
});
