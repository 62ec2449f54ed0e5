// Every preset through the real proxy over loopback: a stand-in per server (tests/helpers/standins), its models
// listed in the contract's shape, a run answered, keys added as each server wants them and never leaked, and every
// refusal holding for every target.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { evaluate, EvaluationError, listModels } from '../../../../src/client';
import { listTargets, proxyClientTarget } from '../../../../src/client/workbenchApi';
import { classifyModelId } from '../../../../src/contract';
import {
  serveCustom,
  serveGateway,
  serveHosted,
  serveLitellm,
  serveLlamacpp,
  serveOllama,
  serveOpenrouter,
  standinKey,
  targetsFileFor,
} from '../../../helpers/standins';
import type { RunningStandin } from '../../../helpers/standins';
import { exampleRequest } from '../../../helpers/fixtures';
import { pageHeaders, rawRequest, startWorkbench } from './helpers';
import type { TestWorkbench } from './helpers';

/** Per target: a model it runs, the model it echoes, and the names its list shows (in the contract's shape). */
const EXPECT: Record<string, { model: string; echo: string; listed: string[] }> = {
  hosted: { model: 'jev-latest', echo: 'jev-1.13.0', listed: ['jev-latest', 'jev-preview'] },
  llama: { model: 'Kev-4B', echo: 'Kev-4B', listed: ['Kev-4B', 'laya'] },
  ollama: {
    model: 'nimble',
    echo: 'nimble',
    listed: ['nimble:latest', 'clef-flash:latest', 'llama3.2:latest'],
  },
  litellm: { model: 'jev-1.13.0', echo: 'model-1.13.0', listed: ['jev-latest', 'jev-1.13.0', 'clef-flash'] },
  openrouter: {
    model: '~typesafe/jev-latest',
    echo: 'typesafe/jev-1.14-20261001',
    listed: ['typesafe/jev-1.14', 'typesafe/jev-1.13', '~typesafe/jev-latest'],
  },
  gw: { model: 'typesafe/jev-latest', echo: 'typesafe/jev-1.13.0', listed: ['typesafe/jev-latest'] },
  custom: { model: 'model-latest', echo: 'model-1.13.0', listed: ['model-latest', 'model-preview'] },
};

let standins: Record<string, RunningStandin>;
let wb: TestWorkbench;
const keys = () => Object.values(standins).flatMap((s) => (s.key ? [s.key] : []));

beforeAll(async () => {
  standins = {
    hosted: await serveHosted(standinKey('hosted')),
    llama: await serveLlamacpp(),
    ollama: await serveOllama(),
    litellm: await serveLitellm(standinKey('litellm')),
    openrouter: await serveOpenrouter(standinKey('openrouter')),
    gw: await serveGateway(standinKey('gateway')),
    custom: await serveCustom(standinKey('custom')),
  };
  const { vars } = targetsFileFor(standins);
  wb = await startWorkbench(vars);
});

afterAll(async () => {
  await wb.close();
  await Promise.all(Object.values(standins).map((s) => s.close()));
});

describe('a workbench with one target per preset', () => {
  it('lists every configured target in the file order, local last, none with a key or a URL', async () => {
    const targets = await listTargets({ origin: wb.url });
    expect(targets.map((t) => t.id)).toEqual([...Object.keys(standins), 'local']);
    expect(targets.map((t) => t.preset)).toEqual([
      'hosted',
      'llamacpp',
      'ollama',
      'litellm',
      'openrouter',
      'gateway',
      'custom',
      'local',
    ]);
    expect(targets.every((t) => t.keyMissing === null)).toBe(true);
    const text = JSON.stringify(targets);
    for (const key of keys()) expect(text).not.toContain(key);
    expect(text).not.toContain('http://127.0.0.1');
    expect(targets.find((t) => t.id === 'openrouter')!.evaluatePath).toBe('/api/v1/systemone');
    expect(targets.find((t) => t.id === 'llama')!.auth).toBe('none');
  });

  it.each(Object.keys(EXPECT))(
    '%s: lists its models in the contract shape, decision models only',
    async (id) => {
      const list = await listModels(proxyClientTarget(id, wb.url));
      expect(list.models.map((m) => m.name)).toEqual(EXPECT[id]!.listed);
    },
  );

  it('asks each server for its list at its own path (OpenRouter filtered by output modality)', () => {
    expect(standins.openrouter!.seen.map((r) => r.path)).toContain(
      '/api/v1/models?output_modalities=decisions',
    );
    expect(standins.llama!.seen.some((r) => r.path === '/v1/models')).toBe(true);
  });

  it.each(Object.keys(EXPECT))('%s: answers a run through the proxy with the model it echoes', async (id) => {
    const result = await evaluate(proxyClientTarget(id, wb.url), {
      ...exampleRequest(),
      model: EXPECT[id]!.model,
    });
    expect(result.response.model).toBe(EXPECT[id]!.echo);
    expect(Object.keys(result.response.answers).sort()).toEqual(
      Object.keys(exampleRequest().questions).sort(),
    );
  });

  it('pins each alias to a versioned id the shape rules recognise, on every server that echoes one', () => {
    // The alias badge and one-click pin rest on these two classifications.
    expect(classifyModelId(EXPECT.hosted!.model)).toBe('alias');
    expect(classifyModelId(EXPECT.hosted!.echo)).toBe('versioned');
    expect(classifyModelId(EXPECT.openrouter!.model)).toBe('alias');
    expect(classifyModelId(EXPECT.openrouter!.echo)).toBe('versioned');
  });

  it('sends each key as its server wants it, and no credential to a keyless server', () => {
    const lastPost = (s: RunningStandin) => s.seen.filter((r) => r.method === 'POST').at(-1)!;
    expect(lastPost(standins.hosted!).headers.authorization).toBe(`Bearer ${standins.hosted!.key}`);
    expect(lastPost(standins.gw!).headers['x-api-key']).toBe(standins.gw!.key);
    expect(lastPost(standins.gw!).headers.authorization).toBeUndefined();
    for (const keyless of [standins.llama!, standins.ollama!]) {
      expect(lastPost(keyless).headers.authorization).toBeUndefined();
      expect(Object.keys(lastPost(keyless).headers).some((h) => /key|auth/i.test(h))).toBe(false);
    }
  });

  it("passes llama.cpp's 501 for a model that is not a decision model through, with its sentence", async () => {
    const error = await evaluate(proxyClientTarget('llama', wb.url), {
      ...exampleRequest(),
      model: 'qwen3-8b',
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EvaluationError);
    expect((error as EvaluationError).status).toBe(501);
    expect((error as EvaluationError).message).toMatch(/not a decision model/);
  });

  it('never returns or logs any key, from any target', async () => {
    for (const id of Object.keys(EXPECT)) {
      const res = await rawRequest(wb.url, {
        method: 'POST',
        path: `/api/targets/${id}/v1/evaluate`,
        headers: pageHeaders(wb.hostHeader),
        body: JSON.stringify({ ...exampleRequest(), model: EXPECT[id]!.model }),
      });
      expect(res.status).toBe(200);
      for (const key of keys()) {
        expect(res.body).not.toContain(key);
        expect(JSON.stringify(res.headers)).not.toContain(key);
      }
    }
    const logText = wb.logs.map((l) => l.line).join('\n');
    for (const key of keys()) expect(logText).not.toContain(key);
  });

  it.each([...Object.keys(EXPECT), 'local'])(
    '%s: refuses a request without the workbench header or from another origin',
    async (id) => {
      const before = Object.values(standins).reduce((n, s) => n + s.seen.length, 0);
      const noHeader = { ...pageHeaders(wb.hostHeader) } as Record<string, string>;
      delete noHeader['x-workbench-request'];
      const body = JSON.stringify(exampleRequest());
      const path = `/api/targets/${id}/v1/evaluate`;
      expect((await rawRequest(wb.url, { method: 'POST', path, headers: noHeader, body })).status).toBe(403);
      const foreign = {
        ...pageHeaders(wb.hostHeader),
        origin: 'https://evil.example',
        'sec-fetch-site': 'cross-site',
      };
      expect((await rawRequest(wb.url, { method: 'POST', path, headers: foreign, body })).status).toBe(403);
      const foreignHost = { ...pageHeaders('evil.example:80') };
      expect(
        (
          await rawRequest(wb.url, {
            method: 'GET',
            path: `/api/targets/${id}/v1/models`,
            headers: foreignHost,
          })
        ).status,
      ).toBe(403);
      expect(Object.values(standins).reduce((n, s) => n + s.seen.length, 0)).toBe(before);
    },
  );
});

describe('a target whose key variable is unset', () => {
  let missing: TestWorkbench;
  beforeAll(async () => {
    const { vars } = targetsFileFor({ hosted: standins.hosted!, llama: standins.llama! });
    delete vars.HOSTED_KEY;
    missing = await startWorkbench(vars);
  });
  afterAll(() => missing.close());

  it('is listed as "key missing" with the variable, and the keyless one beside it is not', async () => {
    const targets = await listTargets({ origin: missing.url });
    expect(targets.find((t) => t.id === 'hosted')!.keyMissing).toBe('key missing: HOSTED_KEY');
    expect(targets.find((t) => t.id === 'llama')!.keyMissing).toBeNull();
  });

  it('does not send: 401 with a sentence naming the variable, and the server sees nothing', async () => {
    const before = standins.hosted!.seen.length;
    const error = await evaluate(proxyClientTarget('hosted', missing.url), {
      ...exampleRequest(),
      model: 'jev-latest',
    }).catch((e: unknown) => e);
    expect((error as EvaluationError).status).toBe(401);
    expect((error as EvaluationError).message).toMatch(/HOSTED_KEY/);
    await expect(listModels(proxyClientTarget('hosted', missing.url))).rejects.toThrow(/HOSTED_KEY/);
    expect(standins.hosted!.seen.length).toBe(before);
  });
});
