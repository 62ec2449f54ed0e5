// The static half of the workbench server: content types, caching of hashed assets, the SPA fallback, page headers.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { rawRequest, startWorkbench } from './helpers';
import type { TestWorkbench } from './helpers';

let wb: TestWorkbench;
beforeAll(async () => {
  wb = await startWorkbench();
});
afterAll(() => wb.close());

const get = (path: string, headers: Record<string, string> = {}) =>
  rawRequest(wb.url, { path, headers: { host: wb.hostHeader, ...headers } });

it('serves index.html as HTML that is revalidated on every load', async () => {
  const res = await get('/');
  expect(res.status).toBe(200);
  expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
  expect(res.headers['cache-control']).toBe('no-cache');
  expect(res.body).toContain('<div id="root">');
});

it('serves hashed assets with their content type, cached for a year as immutable', async () => {
  const js = await get('/assets/index-AbC123.js');
  expect(js.headers['content-type']).toMatch(/^text\/javascript/);
  expect(js.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  const css = await get('/assets/index-AbC123.css');
  expect(css.headers['content-type']).toMatch(/^text\/css/);
});

it('answers a page navigation to an unknown path with the app, and a missing file with 404', async () => {
  const page = await get('/sessions/abc', { accept: 'text/html,application/xhtml+xml' });
  expect(page.status).toBe(200);
  expect(page.body).toContain('<div id="root">');
  expect((await get('/assets/missing-123.js', { accept: 'text/html' })).status).toBe(404);
  expect((await get('/favicon-missing.svg')).status).toBe(404);
});

it('does not serve files outside dist/', async () => {
  for (const path of ['/../package.json', '/%2e%2e/package.json', '/assets/..%2f..%2fpackage.json']) {
    const res = await get(path, { accept: 'application/json' });
    expect(res.body, path).not.toContain('"devDependencies"');
  }
});

it('forbids framing and sniffing on every page', async () => {
  const res = await get('/');
  expect(res.headers).toMatchObject({
    'x-frame-options': 'DENY',
    'content-security-policy': "frame-ancestors 'none'",
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
  });
});
