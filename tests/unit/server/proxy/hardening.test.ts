// Regression tests of issue 18's audit of the proxy: no message it writes carries a key (its own sentences, escaped
// echoes, compressed answers), statuses it cannot hand on become a 502 with a sentence, answers are capped, its own
// refusals carry an x-request-id, and a browser leaving mid-body leaves one log line, not a stack.
import { createServer as createNetServer } from 'node:net';
import type { AddressInfo, Socket } from 'node:net';
import { connect } from 'node:net';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MAX_ANSWER_BYTES } from '../../../../src/server/targets/answers';
import { redact } from '../../../../src/server/proxy/log';
import { pageHeaders, rawRequest, recordingUpstream, startWorkbench, uniqueSecret } from './helpers';
import type { TestWorkbench } from './helpers';

const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
  vi.restoreAllMocks();
});

async function proxied(reply: Parameters<typeof recordingUpstream>[0], key: string): Promise<TestWorkbench> {
  const upstream = await recordingUpstream(reply);
  const wb = await startWorkbench({ EVAL_BASE_URL: upstream.url, EVAL_API_KEY: key });
  open.push(wb, upstream);
  return wb;
}

const models = (wb: TestWorkbench) =>
  rawRequest(wb.url, { path: '/api/targets/direct/v1/models', headers: pageHeaders(wb.hostHeader) });

/** An upstream that writes `raw` bytes as its whole answer to any request: for statuses Node's server refuses. */
async function rawUpstream(raw: string): Promise<string> {
  const sockets = new Set<Socket>();
  const server = createNetServer((socket) => {
    sockets.add(socket);
    socket.once('data', () => socket.end(raw));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  open.push({
    close: () =>
      new Promise<void>((resolve) => {
        sockets.forEach((s) => s.destroy());
        server.close(() => resolve());
      }),
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** `text` with every character written as a \\u escape, in lower- or upper-case hex. */
function everyCharEscaped(text: string, upper = false): string {
  const hex = (ch: string) => ch.charCodeAt(0).toString(16).padStart(4, '0');
  return [...text].map((ch) => `\\u${upper ? hex(ch).toUpperCase() : hex(ch)}`).join('');
}

describe("the proxy's own messages", () => {
  it('a redirect to a host that carries the key names it redacted', async () => {
    const key = uniqueSecret('inhost');
    const wb = await proxied((req, res) => {
      res.writeHead(302, { location: `http://${key}.collector.example/v1/models` });
      res.end();
    }, key);
    const res = await models(wb);
    expect(res.status).toBe(502);
    expect(res.body).not.toContain(key);
    expect(JSON.parse(res.body).detail.message).toContain('[redacted].collector.example');
    expect(wb.logs.map((l) => l.line).join('\n')).not.toContain(key);
  });

  it('its own 403, 404 and 413 carry an x-request-id', async () => {
    const wb = await startWorkbench({ PROXY_BODY_LIMIT_BYTES: '1024' });
    open.push(wb);
    const forbidden = await rawRequest(wb.url, {
      path: '/api/targets',
      headers: { ...pageHeaders(wb.hostHeader), 'x-workbench-request': '0' },
    });
    const missing = await rawRequest(wb.url, { path: '/api/nothing', headers: pageHeaders(wb.hostHeader) });
    const tooLarge = await rawRequest(wb.url, {
      method: 'POST',
      path: '/api/targets/local/v1/evaluate',
      headers: pageHeaders(wb.hostHeader),
      body: 'x'.repeat(4096),
    });
    expect([forbidden.status, missing.status, tooLarge.status]).toEqual([403, 404, 413]);
    for (const res of [forbidden, missing, tooLarge])
      expect(res.headers['x-request-id']).toMatch(/^proxy_[0-9a-f]{32}$/);
  });
});

describe('echoed keys in every escaped form', () => {
  it('redact() finds a key written with \\u escapes: every character, upper- or lower-case hex, or one character', () => {
    const key = 'sk+live/AbC"9';
    const oneEscaped = JSON.stringify(key).slice(1, -1).replace('+', '\\u002B');
    for (const form of [
      everyCharEscaped(key),
      everyCharEscaped(key, true),
      oneEscaped,
      key.replace('+', '\\u002b'),
    ]) {
      expect(redact(`{"echo":"${form}"}`, [key])).toBe('{"echo":"[redacted]"}');
    }
    // Text with escapes but no key is left as it is.
    expect(redact('{"a":"\\u0041\\n"}', [key])).toBe('{"a":"\\u0041\\n"}');
  });

  it('an upstream echoing the key \\u-escaped reaches the browser redacted', async () => {
    const key = uniqueSecret('escaped');
    const wb = await proxied((_req, res) => {
      res.writeHead(401, { 'content-type': 'application/json' });
      res.end(`{"error":"bad key Bearer ${everyCharEscaped(key)}"}`);
    }, key);
    const res = await models(wb);
    expect(res.status).toBe(401);
    expect(JSON.parse(res.body)).toEqual({ error: 'bad key Bearer [redacted]' });
  });

  it.each([
    ['gzip', gzipSync],
    ['br', brotliCompressSync],
  ] as const)(
    'an upstream that compresses (%s) despite identity is decompressed, then redacted',
    async (name, compress) => {
      const key = uniqueSecret('compressed');
      const wb = await proxied((_req, res) => {
        res.writeHead(401, { 'content-type': 'application/json', 'content-encoding': name });
        res.end(compress(Buffer.from(JSON.stringify({ error: `bad key ${key}` }))));
      }, key);
      const res = await models(wb);
      expect(res.status).toBe(401);
      expect(res.headers['content-encoding']).toBeUndefined();
      expect(JSON.parse(res.body)).toEqual({ error: 'bad key [redacted]' });
    },
  );

  it('an honest upstream that always compresses still works', async () => {
    const wb = await proxied((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
      res.end(gzipSync(Buffer.from('{"models":[]}')));
    }, uniqueSecret('key'));
    const res = await models(wb);
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body)).toEqual({ models: [] });
  });

  it('an encoding the proxy cannot undo is a 502 with a sentence, never bytes the page cannot read', async () => {
    const wb = await proxied((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'compress' });
      res.end('?????');
    }, uniqueSecret('key'));
    const res = await models(wb);
    expect(res.status).toBe(502);
    expect(JSON.parse(res.body).detail.message).toContain('encoding the workbench cannot read (compress)');
  });
});

describe('upstream statuses and sizes', () => {
  it.each([
    [
      101,
      'HTTP/1.1 101 Switching Protocols\r\nConnection: upgrade\r\nUpgrade: websocket\r\n\r\n',
      /informational status 101/,
    ],
    [600, 'HTTP/1.1 600 Odd\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}', /600/],
    [999, 'HTTP/1.1 999 Odd\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}', /999/],
  ])('an upstream status %i becomes a 502 with a sentence', async (_status, raw, says) => {
    const url = await rawUpstream(raw);
    const wb = await startWorkbench({ EVAL_BASE_URL: url, EVAL_API_KEY: uniqueSecret('key') });
    open.push(wb);
    const res = await models(wb);
    expect(res.status).toBe(502);
    const body = JSON.parse(res.body) as { detail: { error_type: string; message: string } };
    expect(body.detail.error_type).toBe('bad_gateway');
    expect(`${res.status} ${body.detail.message}`).toMatch(says);
    expect(body.detail.message).toMatch(/\.$/);
  });

  it('an answer over the cap is dropped with a 502, not held', async () => {
    const wb = await proxied((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(Buffer.alloc(MAX_ANSWER_BYTES + 1024, 0x20));
    }, uniqueSecret('key'));
    const res = await models(wb);
    expect(res.status).toBe(502);
    expect(JSON.parse(res.body).detail.message).toContain('more than 8 MiB');
  });
});

describe('a browser that leaves mid-body', () => {
  it('leaves one redacted log line and no stack on the console', async () => {
    const consoleError = vi.spyOn(console, 'error');
    const wb = await startWorkbench();
    open.push(wb);
    const { port } = new URL(wb.url);
    await new Promise<void>((resolve) => {
      const socket = connect(Number(port), '127.0.0.1', () => {
        const head = Object.entries(pageHeaders(wb.hostHeader))
          .map(([k, v]) => `${k}: ${v}`)
          .join('\r\n');
        socket.write(
          `POST /api/targets/local/v1/evaluate HTTP/1.1\r\n${head}\r\ncontent-length: 100000\r\n\r\n{"state":`,
        );
        setTimeout(() => {
          socket.destroy();
          resolve();
        }, 100);
      });
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    const printed = consoleError.mock.calls.flat().map(String).join('\n');
    expect(printed).not.toMatch(/\n\s+at /);
  });
});
