// The proxy end to end over loopback: the local target in-process, the direct target against a second reference.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { evaluate, listModels } from '../../../../src/client';
import { listTargets, proxyClientTarget } from '../../../../src/client/workbenchApi';
import { MODEL_ALIASES } from '../../../../src/contract';
import { describeTargets, onlyLocal } from '../../../../src/server/proxy';
import { serveReference } from '../../../../src/server/reference/serve';
import type { RunningReference } from '../../../../src/server/reference/serve';
import { exampleRequest } from '../../../helpers/fixtures';
import { pageHeaders, rawRequest, startWorkbench, uniqueSecret, withDirectTarget } from './helpers';
import type { TestWorkbench } from './helpers';

describe('with no key configured', () => {
  let wb: TestWorkbench;
  beforeAll(async () => {
    wb = await startWorkbench();
  });
  afterAll(() => wb.close());

  it('lists the local target only, labelled as not a language model', async () => {
    const targets = await listTargets({ origin: wb.url });
    expect(targets).toEqual([
      expect.objectContaining({
        id: 'local',
        label: 'Local reference (not a language model)',
        kind: 'local',
        preset: 'local',
        host: 'in-process',
        evaluatePath: '/v1/evaluate',
        keyMissing: null,
      }),
    ]);
    expect(onlyLocal(wb.targets)).toBe(true);
  });

  it('answers an evaluation from the in-process reference, adding its key itself', async () => {
    const result = await evaluate(proxyClientTarget('local', wb.url), exampleRequest());
    expect(result.response.model).toBe('model-1.13.0');
    expect(Object.keys(result.response.answers).sort()).toEqual(['department', 'frustration', 'is_urgent']);
    expect(result.requestId).toMatch(/^req_/);
  });

  it("lists the local reference's models", async () => {
    const models = await listModels(proxyClientTarget('local', wb.url));
    expect(models.models.map((m) => m.name)).toEqual([...MODEL_ALIASES]);
  });

  it('passes a 422 through with its field locations', async () => {
    const bad = { ...exampleRequest(), metadata: { run: 1 } };
    const res = await rawRequest(wb.url, {
      method: 'POST',
      path: '/api/targets/local/v1/evaluate',
      headers: pageHeaders(wb.hostHeader),
      body: JSON.stringify(bad),
    });
    expect(res.status).toBe(422);
    expect(JSON.parse(res.body).detail.errors[0].loc).toEqual(['metadata']);
    expect(res.headers['x-request-id']).toMatch(/^req_/);
  });

  it('never lets the browser reach the reference with a key of its own choosing', async () => {
    // The browser's Authorization is dropped: a wrong key from the page does not turn into a 401.
    const res = await rawRequest(wb.url, {
      path: '/api/targets/local/v1/models',
      headers: { ...pageHeaders(wb.hostHeader), authorization: 'Bearer wrong-key' },
    });
    expect(res.status).toBe(200);
  });
});

describe('with EVAL_BASE_URL and EVAL_API_KEY pointing at a second reference', () => {
  const key = uniqueSecret('direct-secret');
  let upstream: RunningReference;
  let wb: TestWorkbench;
  beforeAll(async () => {
    upstream = await serveReference({ port: 0, apiKeys: [key] });
    wb = await startWorkbench({ EVAL_BASE_URL: upstream.url, EVAL_API_KEY: key });
  });
  afterAll(async () => {
    await wb.close();
    await upstream.close();
  });

  it('lists the direct target first, by host, without its key or URL', async () => {
    const res = await rawRequest(wb.url, { path: '/api/targets', headers: pageHeaders(wb.hostHeader) });
    const host = new URL(upstream.url).host;
    expect(JSON.parse(res.body).targets.map((t: { id: string; host: string }) => [t.id, t.host])).toEqual([
      ['direct', host],
      ['local', 'in-process'],
    ]);
    expect(res.body).not.toContain(key);
  });

  it('forwards an evaluation with the configured key, and the key is in nothing the browser gets', async () => {
    const res = await rawRequest(wb.url, {
      method: 'POST',
      path: '/api/targets/direct/v1/evaluate',
      headers: pageHeaders(wb.hostHeader),
      body: JSON.stringify(exampleRequest()),
    });
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body).model).toBe('model-1.13.0');
    expect(res.body).not.toContain(key);
    expect(JSON.stringify(res.headers)).not.toContain(key);
  });

  it('works through the client as the browser uses it', async () => {
    const result = await evaluate(proxyClientTarget('direct', wb.url), exampleRequest());
    expect(result.response.answers.department?.type).toBe('choice');
    const models = await listModels(proxyClientTarget('direct', wb.url));
    expect(models.models.length).toBeGreaterThan(0);
  });

  it('replaces an Authorization header from the page with the configured key', async () => {
    const res = await rawRequest(wb.url, {
      method: 'POST',
      path: '/api/targets/direct/v1/evaluate',
      headers: { ...pageHeaders(wb.hostHeader), authorization: 'Bearer not-the-key', cookie: 'session=abc' },
      body: JSON.stringify(exampleRequest()),
    });
    expect(res.status).toBe(200);
  });

  it('logs nothing that holds the key', () => {
    expect(wb.logs.map((l) => l.line).join('\n')).not.toContain(key);
  });

  it('describes the targets for the terminal by id, label and host, without the key', () => {
    const host = new URL(upstream.url).host;
    const lines = describeTargets(wb.targets);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(
      new RegExp(`^  direct  Evaluation Service \\(${host}\\)\\s+${host}/v1/evaluate$`),
    );
    expect(lines[1]).toMatch(/^ {2}local {3}Local reference \(not a language model\)\s+in-process$/);
    expect(lines.join('\n')).not.toContain(key);
    expect(onlyLocal(wb.targets)).toBe(false);
  });
});

describe('upstream failures', () => {
  it('passes a 429 through with its status, body, Retry-After, retry-after-ms and x-request-id', async () => {
    const faults = { p429: 1, p529: 0, timeout: 0, reset: 0, latency: null };
    await withDirectTarget(
      { faults, faultRetryAfterMs: 1500 },
      { EVAL_API_KEY: uniqueSecret('k') },
      async (wb) => {
        const res = await rawRequest(wb.url, {
          method: 'POST',
          path: '/api/targets/direct/v1/evaluate',
          headers: pageHeaders(wb.hostHeader),
          body: JSON.stringify(exampleRequest()),
        });
        expect(res.status).toBe(429);
        expect(res.headers['retry-after']).toBe('2');
        expect(res.headers['retry-after-ms']).toBe('1500');
        expect(res.headers['x-request-id']).toMatch(/^req_/);
        expect(JSON.parse(res.body).detail.error_type).toBe('rate_limit');
      },
    );
  });

  it('answers 504 with a sentence when the target does not answer in time', async () => {
    const faults = { p429: 0, p529: 0, timeout: 1, reset: 0, latency: null };
    const vars = { EVAL_API_KEY: uniqueSecret('k'), PROXY_TIMEOUT_MS: '200' };
    await withDirectTarget({ faults, timeoutHoldMs: 30_000 }, vars, async (wb) => {
      const res = await rawRequest(wb.url, {
        method: 'POST',
        path: '/api/targets/direct/v1/evaluate',
        headers: pageHeaders(wb.hostHeader),
        body: JSON.stringify(exampleRequest()),
      });
      expect(res.status).toBe(504);
      expect(res.headers['content-type']).toMatch(/application\/json/);
      const { detail } = JSON.parse(res.body);
      expect(detail.error_type).toBe('gateway_timeout');
      expect(detail.message).toMatch(/within 0\.2 s.*may have run and been billed/);
      expect(wb.logs.some((l) => l.level === 'error' && l.line.includes('no answer within'))).toBe(true);
    });
  });

  it('answers 502 naming the cause when the target is down', async () => {
    const upstream = await serveReference({ port: 0 });
    const url = upstream.url;
    await upstream.close();
    const wb = await startWorkbench({ EVAL_BASE_URL: url, EVAL_API_KEY: 'k' });
    try {
      const res = await rawRequest(wb.url, {
        path: '/api/targets/direct/v1/models',
        headers: pageHeaders(wb.hostHeader),
      });
      expect(res.status).toBe(502);
      expect(JSON.parse(res.body).detail.message).toContain('ECONNREFUSED');
    } finally {
      await wb.close();
    }
  });

  it('passes a 401 through when the configured key is wrong, and logs it without the key', async () => {
    const wrongKey = uniqueSecret('wrong');
    await withDirectTarget(
      {},
      { EVAL_API_KEY: wrongKey },
      async (wb) => {
        const res = await rawRequest(wb.url, {
          path: '/api/targets/direct/v1/models',
          headers: pageHeaders(wb.hostHeader),
        });
        expect(res.status).toBe(401);
        expect(res.headers['www-authenticate']).toBeUndefined();
        const logged = wb.logs.map((l) => l.line).join('\n');
        expect(logged).toMatch(/direct: GET \/v1\/models -> 401/);
        expect(logged).not.toContain(wrongKey);
      },
      'the-right-key',
    );
  });
});
