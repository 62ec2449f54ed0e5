// Every request the proxy refuses, each shown over loopback against the real server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exampleRequest } from '../../../helpers/fixtures';
import { pageHeaders, rawRequest, startWorkbench } from './helpers';
import type { TestWorkbench } from './helpers';

let wb: TestWorkbench;
beforeAll(async () => {
  wb = await startWorkbench({ PROXY_BODY_LIMIT_BYTES: '4096' });
});
afterAll(() => wb.close());

const getTargets = (headers: Record<string, string>) => rawRequest(wb.url, { path: '/api/targets', headers });
const detail = (body: string): { error_type: string; message: string } => JSON.parse(body).detail;

describe('Host (DNS rebinding)', () => {
  it('refuses a foreign host name that resolves to this machine', async () => {
    const res = await getTargets({ ...pageHeaders(wb.hostHeader), host: `attacker.example:${wb.port}` });
    expect(res.status).toBe(403);
    expect(detail(res.body)).toMatchObject({ error_type: 'forbidden' });
    expect(detail(res.body).message).toContain('attacker.example');
  });

  it('refuses the right name on another port', async () => {
    const res = await getTargets({ ...pageHeaders(wb.hostHeader), host: `127.0.0.1:${wb.port + 1}` });
    expect(res.status).toBe(403);
  });

  it('refuses a foreign Host for the page too, not only for /api', async () => {
    const res = await rawRequest(wb.url, { path: '/', headers: { host: `attacker.example:${wb.port}` } });
    expect(res.status).toBe(403);
  });

  it.each(['localhost', '127.0.0.1', '[::1]', 'LOCALHOST'])(
    'accepts the loopback spelling %s',
    async (name) => {
      const host = `${name}:${wb.port}`;
      const res = await getTargets({ ...pageHeaders(host), host });
      expect(res.status).toBe(200);
    },
  );
});

describe('Origin and Sec-Fetch-Site', () => {
  it('refuses a foreign Origin', async () => {
    const res = await getTargets({ ...pageHeaders(wb.hostHeader), origin: 'https://attacker.example' });
    expect(res.status).toBe(403);
    expect(detail(res.body).message).toContain('https://attacker.example');
  });

  it('refuses another local port as Origin (another dev server on this machine)', async () => {
    const res = await getTargets({
      ...pageHeaders(wb.hostHeader),
      origin: `http://127.0.0.1:${wb.port + 1}`,
    });
    expect(res.status).toBe(403);
  });

  it('refuses the opaque Origin "null" (sandboxed frames, file: pages)', async () => {
    const res = await getTargets({ ...pageHeaders(wb.hostHeader), origin: 'null' });
    expect(res.status).toBe(403);
  });

  it('refuses a cross-site request by Sec-Fetch-Site even without an Origin', async () => {
    const { origin: _origin, ...headers } = pageHeaders(wb.hostHeader);
    const res = await getTargets({ ...headers, 'sec-fetch-site': 'cross-site' });
    expect(res.status).toBe(403);
  });

  it('accepts the same origin, and a request with no Origin at all (curl)', async () => {
    expect((await getTargets(pageHeaders(wb.hostHeader))).status).toBe(200);
    const res = await getTargets({ host: wb.hostHeader, 'x-workbench-request': '1' });
    expect(res.status).toBe(200);
  });
});

describe('X-Workbench-Request', () => {
  it('refuses a request without it with 403', async () => {
    const { 'x-workbench-request': _h, ...headers } = pageHeaders(wb.hostHeader);
    const res = await getTargets(headers);
    expect(res.status).toBe(403);
    expect(detail(res.body).message).toContain('X-Workbench-Request: 1');
  });

  it('refuses any value but 1', async () => {
    const res = await getTargets({ ...pageHeaders(wb.hostHeader), 'x-workbench-request': 'true' });
    expect(res.status).toBe(403);
  });

  it('refuses a cross-site form post to evaluate (no custom header possible), spending nothing', async () => {
    const res = await rawRequest(wb.url, {
      method: 'POST',
      path: '/api/targets/local/v1/evaluate',
      headers: { host: wb.hostHeader, 'content-type': 'text/plain' },
      body: JSON.stringify(exampleRequest()),
    });
    expect(res.status).toBe(403);
  });

  it('refuses a CORS preflight: no Access-Control-Allow-* ever comes back', async () => {
    const res = await rawRequest(wb.url, {
      method: 'OPTIONS',
      path: '/api/targets/local/v1/evaluate',
      headers: {
        host: wb.hostHeader,
        origin: 'https://attacker.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'x-workbench-request',
      },
    });
    expect(res.status).toBe(403);
    expect(Object.keys(res.headers).filter((h) => h.startsWith('access-control-'))).toEqual([]);
  });
});

describe('routes', () => {
  it('answers JSON 404 for anything else under /api', async () => {
    for (const path of ['/api', '/api/', '/api/keys', '/api/targets/local/v1/batch', '/api/targets/local']) {
      const res = await rawRequest(wb.url, { path, headers: pageHeaders(wb.hostHeader) });
      expect(res.status, path).toBe(404);
      expect(res.headers['content-type'], path).toMatch(/application\/json/);
      expect(detail(res.body).error_type, path).toBe('not_found');
    }
  });

  it('answers 404 naming the known targets for an unknown target', async () => {
    const res = await rawRequest(wb.url, {
      path: '/api/targets/prod/v1/models',
      headers: pageHeaders(wb.hostHeader),
    });
    expect(res.status).toBe(404);
    expect(detail(res.body).message).toContain('it has: local');
  });

  it('cannot be steered to another upstream by the path', async () => {
    for (const path of [
      '/api/targets/http%3A%2F%2Fattacker.example/v1/models',
      '/api/targets/local/../../v1/models',
      '/api/targets/local%2F..%2Fx/v1/models',
    ]) {
      const res = await rawRequest(wb.url, { path, headers: pageHeaders(wb.hostHeader) });
      expect(res.status, path).toBe(404);
    }
  });

  it('answers 405 with Allow for a wrong method on a known route', async () => {
    const res = await rawRequest(wb.url, {
      path: '/api/targets/local/v1/evaluate',
      headers: pageHeaders(wb.hostHeader),
    });
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe('POST');
  });
});

describe('body size', () => {
  const big = JSON.stringify({ ...exampleRequest(), state: 'x'.repeat(5000) });

  it('refuses a body over the limit with 413 by its Content-Length', async () => {
    const res = await rawRequest(wb.url, {
      method: 'POST',
      path: '/api/targets/local/v1/evaluate',
      headers: pageHeaders(wb.hostHeader),
      body: big,
    });
    expect(res.status).toBe(413);
    expect(detail(res.body)).toMatchObject({ error_type: 'payload_too_large' });
    expect(detail(res.body).message).toContain('4 KiB');
  });

  it('refuses a chunked body over the limit with 413 as it streams', async () => {
    const res = await rawRequest(wb.url, {
      method: 'POST',
      path: '/api/targets/local/v1/evaluate',
      headers: pageHeaders(wb.hostHeader),
      body: big,
      chunked: true,
    });
    expect(res.status).toBe(413);
  });

  it('forwards a chunked body under the limit', async () => {
    const res = await rawRequest(wb.url, {
      method: 'POST',
      path: '/api/targets/local/v1/evaluate',
      headers: pageHeaders(wb.hostHeader),
      body: JSON.stringify(exampleRequest()),
      chunked: true,
    });
    expect(res.status).toBe(200);
  });
});

it('logs a refusal as a warning line that says why', async () => {
  await rawRequest(wb.url, { path: '/api/targets?logged=1', headers: { host: wb.hostHeader } });
  const line = wb.logs.find((l) => l.line.includes('/api/targets') && l.line.includes('X-Workbench-Request'));
  expect(line?.level).toBe('warn');
  expect(line?.line).toMatch(/^\[proxy\] refused GET \/api\/targets: /);
});
