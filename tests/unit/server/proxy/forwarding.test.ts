// What crosses the proxy in each direction, seen by a real upstream that records every request it gets.
import type { ServerResponse } from 'node:http';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { pageHeaders, rawRequest, recordingUpstream, startWorkbench, uniqueSecret } from './helpers';
import type { Recorded, TestWorkbench } from './helpers';

type Upstream = Awaited<ReturnType<typeof recordingUpstream>>;
const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
});

async function setUp(
  reply: Parameters<typeof recordingUpstream>[0],
  vars: (upstream: Upstream) => Record<string, string>,
): Promise<{ upstream: Upstream; wb: TestWorkbench }> {
  const upstream = await recordingUpstream(reply);
  const wb = await startWorkbench(vars(upstream));
  open.push(wb, upstream);
  return { upstream, wb };
}

const okJson = (_req: Recorded, res: ServerResponse) => {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end('{"models":[]}');
};

describe('request headers', () => {
  it("drops the browser's Authorization, Cookie and hop-by-hop headers, and adds the target's key", async () => {
    const key = uniqueSecret('direct');
    const { upstream, wb } = await setUp(okJson, (u) => ({ EVAL_BASE_URL: u.url, EVAL_API_KEY: key }));
    await rawRequest(wb.url, {
      method: 'POST',
      path: '/api/targets/direct/v1/evaluate',
      headers: {
        ...pageHeaders(wb.hostHeader),
        authorization: 'Bearer from-the-page',
        cookie: 'session=abc',
        'proxy-authorization': 'Basic eDp5',
        te: 'trailers',
        'keep-alive': 'timeout=99',
        upgrade: 'websocket',
        connection: 'keep-alive, x-via-connection',
        'x-via-connection': '1',
        'x-forwarded-for': '10.0.0.1',
        'x-retry-count': '2',
      },
      body: '{}',
    });
    const seen = upstream.seen[0]!;
    expect(seen.headers.authorization).toBe(`Bearer ${key}`);
    expect(seen.headers['x-retry-count']).toBe('2');
    expect(seen.headers['content-type']).toBe('application/json');
    for (const dropped of [
      'cookie',
      'proxy-authorization',
      'te',
      'keep-alive',
      'upgrade',
      'x-via-connection',
      'x-forwarded-for',
      'x-workbench-request',
      'origin',
    ]) {
      expect(seen.headers[dropped], dropped).toBeUndefined();
    }
  });

  it("sends to the target's configured evaluate path and the models path, nowhere else", async () => {
    const { upstream, wb } = await setUp(okJson, (u) => ({
      EVAL_BASE_URL: `${u.url}/base`,
      EVAL_API_KEY: 'k',
      EVAL_EVALUATE_PATH: '/v1/systemone',
    }));
    await rawRequest(wb.url, {
      method: 'POST',
      path: '/api/targets/direct/v1/evaluate?target=http://attacker.example',
      headers: pageHeaders(wb.hostHeader),
      body: '{}',
    });
    await rawRequest(wb.url, { path: '/api/targets/direct/v1/models', headers: pageHeaders(wb.hostHeader) });
    expect(upstream.seen.map((r) => `${r.method} ${r.url}`)).toEqual([
      'POST /base/v1/systemone',
      'GET /base/v1/models',
    ]);
  });

  it('sends the gateway key raw in a custom header, and not as Authorization', async () => {
    const key = uniqueSecret('gw');
    const { upstream, wb } = await setUp(okJson, (u) => ({
      EVAL_GATEWAY_URL: u.url,
      EVAL_GATEWAY_KEY: key,
      EVAL_GATEWAY_AUTH_HEADER: 'x-api-key',
    }));
    await rawRequest(wb.url, {
      path: '/api/targets/gateway/v1/models',
      headers: { ...pageHeaders(wb.hostHeader), authorization: 'Bearer page' },
    });
    expect(upstream.seen[0]!.headers['x-api-key']).toBe(key);
    expect(upstream.seen[0]!.headers.authorization).toBeUndefined();
  });

  it('sends the gateway key as a Bearer Authorization by default', async () => {
    const key = uniqueSecret('gw');
    const { upstream, wb } = await setUp(okJson, (u) => ({ EVAL_GATEWAY_URL: u.url, EVAL_GATEWAY_KEY: key }));
    await rawRequest(wb.url, { path: '/api/targets/gateway/v1/models', headers: pageHeaders(wb.hostHeader) });
    expect(upstream.seen[0]!.headers.authorization).toBe(`Bearer ${key}`);
  });
});

describe('responses', () => {
  it('passes status, body, Retry-After, retry-after-ms and x-request-id through unchanged', async () => {
    const body = '{"detail":{"error_type":"overloaded","message":"Busy, try later."}}';
    const { wb } = await setUp(
      (_req, res) => {
        res.writeHead(529, {
          'content-type': 'application/json; charset=utf-8',
          'retry-after': '7',
          'retry-after-ms': '6500',
          'x-request-id': 'req_upstream_42',
          'x-ratelimit-remaining-requests': '0',
        });
        res.end(body);
      },
      (u) => ({ EVAL_BASE_URL: u.url, EVAL_API_KEY: 'k' }),
    );
    const res = await rawRequest(wb.url, {
      method: 'POST',
      path: '/api/targets/direct/v1/evaluate',
      headers: pageHeaders(wb.hostHeader),
      body: '{}',
    });
    expect(res.status).toBe(529);
    expect(res.body).toBe(body);
    expect(res.headers).toMatchObject({
      'content-type': 'application/json; charset=utf-8',
      'retry-after': '7',
      'retry-after-ms': '6500',
      'x-request-id': 'req_upstream_42',
      'x-ratelimit-remaining-requests': '0',
      'cache-control': 'no-store',
    });
  });

  it('does not forward hop-by-hop headers, headers named in Connection, Set-Cookie or others', async () => {
    const { wb } = await setUp(
      (_req, res) => {
        res.setHeader('content-type', 'application/json');
        res.setHeader('connection', 'x-hop');
        res.setHeader('x-hop', 'connection-specific');
        res.setHeader('keep-alive', 'timeout=60');
        res.setHeader('proxy-authenticate', 'Basic realm="upstream"');
        res.setHeader('trailer', 'x-checksum');
        res.setHeader('set-cookie', 'upstream_session=1; Path=/');
        res.setHeader('www-authenticate', 'Basic realm="upstream"');
        res.setHeader('server', 'upstream/1.0');
        res.setHeader('access-control-allow-origin', '*');
        res.end('{"models":[]}');
      },
      (u) => ({ EVAL_BASE_URL: u.url, EVAL_API_KEY: 'k' }),
    );
    const res = await rawRequest(wb.url, {
      path: '/api/targets/direct/v1/models',
      headers: pageHeaders(wb.hostHeader),
    });
    expect(res.status).toBe(200);
    expect(res.body).toBe('{"models":[]}');
    for (const name of [
      'x-hop',
      'proxy-authenticate',
      'trailer',
      'set-cookie',
      'www-authenticate',
      'server',
      'access-control-allow-origin',
    ]) {
      expect(res.headers[name], name).toBeUndefined();
    }
    // The proxy's own connection headers describe its own socket, not the upstream's.
    expect(res.headers['keep-alive']).not.toBe('timeout=60');
    expect(res.headers.connection).not.toBe('x-hop');
  });

  it('redacts the key when a target echoes it, in body and headers, and logs no key', async () => {
    const key = uniqueSecret('echoed');
    const { wb } = await setUp(
      (req, res) => {
        res.writeHead(401, {
          'content-type': 'application/json',
          'x-request-id': `echo ${req.headers.authorization}`,
        });
        res.end(JSON.stringify({ error: `The key ${req.headers.authorization} is not valid.` }));
      },
      (u) => ({ EVAL_BASE_URL: u.url, EVAL_API_KEY: key }),
    );
    const res = await rawRequest(wb.url, {
      path: '/api/targets/direct/v1/models',
      headers: pageHeaders(wb.hostHeader),
    });
    expect(res.status).toBe(401);
    expect(res.body).toBe('{"error":"The key Bearer [redacted] is not valid."}');
    expect(res.headers['x-request-id']).toBe('[redacted]');
    const logged = wb.logs.map((l) => l.line).join('\n');
    expect(logged).toContain('held a key; it was redacted');
    expect(logged).not.toContain(key);
  });

  it('does not follow a redirect with the key, and says where it pointed', async () => {
    const { upstream, wb } = await setUp(
      (req, res) => {
        if (req.url === '/moved/v1/models') return okJson(req, res);
        res.writeHead(301, { location: 'http://elsewhere.example/moved/v1/models' });
        res.end();
      },
      (u) => ({ EVAL_BASE_URL: u.url, EVAL_API_KEY: 'k' }),
    );
    const res = await rawRequest(wb.url, {
      path: '/api/targets/direct/v1/models',
      headers: pageHeaders(wb.hostHeader),
    });
    expect(res.status).toBe(502);
    expect(JSON.parse(res.body).detail.message).toContain('redirect (301) to elsewhere.example');
    expect(upstream.seen).toHaveLength(1);
  });

  it('stops the upstream call when the browser goes away', async () => {
    let closed: () => void = () => {};
    const upstreamClosed = new Promise<void>((resolve) => (closed = resolve));
    const { upstream, wb } = await setUp(
      (_req, res) => {
        // Never answers; resolves once the proxy drops the connection.
        res.on('close', () => closed());
      },
      (u) => ({ EVAL_BASE_URL: u.url, EVAL_API_KEY: 'k' }),
    );
    const controller = new AbortController();
    const pending = fetch(`${wb.url}/api/targets/direct/v1/models`, {
      headers: { 'x-workbench-request': '1' },
      signal: controller.signal,
    }).catch(() => 'aborted');
    // The page gives up once the request has reached the upstream.
    await vi.waitFor(() => expect(upstream.seen).toHaveLength(1));
    controller.abort();
    expect(await pending).toBe('aborted');
    await upstreamClosed;
  });
});

describe('pooled connections', () => {
  it('retries once on a fresh socket when a reused keep-alive socket is reset before any answer', async () => {
    const perSocket = new Map<unknown, number>();
    const { upstream, wb } = await setUp(
      (req, res) => {
        const socket = res.socket!;
        const n = (perSocket.get(socket) ?? 0) + 1;
        perSocket.set(socket, n);
        // The keep-alive race: the server drops a pooled connection just as the proxy reuses it.
        if (n === 2) return void socket.destroy();
        okJson(req, res);
      },
      (u) => ({ EVAL_BASE_URL: u.url, EVAL_API_KEY: 'k' }),
    );
    const get = () =>
      rawRequest(wb.url, { path: '/api/targets/direct/v1/models', headers: pageHeaders(wb.hostHeader) });
    expect((await get()).status).toBe(200);
    expect((await get()).status).toBe(200);
    expect(upstream.seen).toHaveLength(3);
  });

  it('does not retry a reset on a fresh socket: the browser gets 502 and decides', async () => {
    const { upstream, wb } = await setUp(
      (_req, res) => void res.socket!.destroy(),
      (u) => ({ EVAL_BASE_URL: u.url, EVAL_API_KEY: 'k' }),
    );
    const res = await rawRequest(wb.url, {
      path: '/api/targets/direct/v1/models',
      headers: pageHeaders(wb.hostHeader),
    });
    expect(res.status).toBe(502);
    expect(JSON.parse(res.body).detail.message).toContain('ECONNRESET');
    expect(upstream.seen).toHaveLength(1);
  });
});
