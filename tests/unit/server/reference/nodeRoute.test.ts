// serveReference answers POST /v1/evaluate from node:http directly (nodeRoute.ts) and everything else through Hono;
// the proxy calls the Hono app in-process. Both carriers must say exactly the same thing.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createReferenceApp } from '../../../../src/server/reference/app';
import type { Judge } from '../../../../src/server/reference/judges';
import type { RunningReference } from '../../../../src/server/reference/serve';
import { exampleRequest } from '../../../helpers/fixtures';
import { KEY, start } from './http';

let served: RunningReference;
const app = createReferenceApp();
beforeAll(async () => {
  served = await start();
});
afterAll(() => served.close());

interface Seen {
  status: number;
  contentType: string | null;
  extra: Record<string, string | null>;
  body: string;
  hasRequestId: boolean;
}

const read = async (res: Response): Promise<Seen> => ({
  status: res.status,
  contentType: res.headers.get('content-type'),
  extra: {
    'www-authenticate': res.headers.get('www-authenticate'),
    'retry-after': res.headers.get('retry-after'),
  },
  body: await res.text(),
  hasRequestId: /^req_[0-9a-f]{32}$/.test(res.headers.get('x-request-id') ?? ''),
});

const cases: Array<[string, string, Record<string, string>]> = [
  ['a valid request', JSON.stringify(exampleRequest()), { authorization: `Bearer ${KEY}` }],
  ['no key', JSON.stringify(exampleRequest()), {}],
  ['a wrong key', JSON.stringify(exampleRequest()), { authorization: 'Bearer nope' }],
  ['not JSON', '{"state": ', { authorization: `Bearer ${KEY}` }],
  ['an empty body', '', { authorization: `Bearer ${KEY}` }],
  [
    'an invalid request',
    JSON.stringify({ ...exampleRequest(), questions: {} }),
    { authorization: `Bearer ${KEY}` },
  ],
  ['a body over 2 MB', 'x'.repeat(2 * 1024 * 1024 + 1), { authorization: `Bearer ${KEY}` }],
  [
    'a UTF-8 byte-order mark',
    `\uFEFF${JSON.stringify(exampleRequest())}`,
    { authorization: `Bearer ${KEY}` },
  ],
];

describe('the evaluate route over node:http and in-process', () => {
  it.each(cases)('%s gets the same status, headers and body', async (_name, body, headers) => {
    const init = { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body };
    const overHttp = await read(await fetch(`${served.url}/v1/systemone`, init));
    const inProcess = await read(await app.fetch(new Request('http://local/v1/systemone', init)));
    expect(overHttp).toEqual(inProcess);
    expect(overHttp.hasRequestId).toBe(true);
    expect(overHttp.contentType).toBe('application/json');
  });

  it('an unexpected failure of the judge is a JSON 500 over node:http as in-process, never a hanging request', async () => {
    const failing: Judge = {
      label: 'local: failing test judge',
      models: () => [],
      resolve: (id) => (id === 'failing-1' ? id : null),
      answer: () => Promise.reject(new Error('kaboom')),
      close: () => Promise.resolve(),
    };
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const broken = await start({ modelJudge: failing });
    try {
      const init = {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${KEY}` },
        body: JSON.stringify({ ...exampleRequest(), model: 'failing-1' }),
        signal: AbortSignal.timeout(5_000),
      };
      const overHttp = await read(await fetch(`${broken.url}/v1/evaluate`, init));
      const inProcess = await read(
        await createReferenceApp({ modelJudge: failing }).fetch(
          new Request('http://local/v1/evaluate', init),
        ),
      );
      expect(overHttp.status).toBe(500);
      expect(overHttp).toEqual(inProcess);
      expect(JSON.parse(overHttp.body)).toMatchObject({
        detail: { message: 'The reference service hit an unexpected error.' },
      });
      expect(errors).toHaveBeenCalledWith('reference: unexpected error', expect.any(Error));
    } finally {
      errors.mockRestore();
      await broken.close();
    }
  });

  it('a path with a query string still reaches the route (through Hono)', async () => {
    const res = await fetch(`${served.url}/v1/evaluate?trace=1`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${KEY}` },
      body: JSON.stringify(exampleRequest()),
    });
    expect(res.status).toBe(200);
  });

  it('a client that leaves mid-body is no error of the service, and the next request is answered', async () => {
    const errors = vi.spyOn(console, 'error');
    const { request } = await import('node:http');
    const url = new URL(`${served.url}/v1/evaluate`);
    await new Promise<void>((resolve) => {
      const req = request({
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'content-length': '5000',
          authorization: `Bearer ${KEY}`,
        },
      });
      req.on('error', () => resolve());
      req.write('{"state": "half');
      setTimeout(() => {
        req.destroy();
        resolve();
      }, 50);
    });
    const res = await fetch(`${served.url}/v1/evaluate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${KEY}` },
      body: JSON.stringify(exampleRequest()),
    });
    expect(res.status).toBe(200);
    expect(errors).not.toHaveBeenCalled();
    errors.mockRestore();
  });
});
