// Connection resets through the proxy, counted at the service: the reference's injected reset (REFERENCE_FAULTS
// reset=...) drops the connection after it has read the request, so the evaluation may have run. Every request the
// service receives must be an attempt the client made and counted: sent with its X-Retry-Count after the backoff,
// and reported as possibly billed, never re-sent behind the client's back on a pooled connection.
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createAdaptorServer } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { evaluate, isEvaluationError } from '../../../../src/client';
import type { AttemptReport } from '../../../../src/client';
import { proxyClientTarget } from '../../../../src/client/workbenchApi';
import type { Questions } from '../../../../src/contract';
import { createReferenceApp } from '../../../../src/server/reference/app';
import { DEFAULT_API_KEY, parseFaults } from '../../../../src/server/reference/options';
import { startWorkbench } from './helpers';
import type { TestWorkbench } from './helpers';

/** What the service saw of one evaluation: the row it was for and its X-Retry-Count (null when absent). */
interface Received {
  row: string;
  retryCount: string | null;
}

const received: Received[] = [];
let service: Server;
let wb: TestWorkbench;

beforeAll(async () => {
  const app = createReferenceApp({
    rpm: 1e9,
    tps: 1e12,
    faults: parseFaults('reset=0.3'),
    seed: 29,
  });
  service = createAdaptorServer({
    hostname: '127.0.0.1',
    // The adaptor's env (the Node request) goes on: over Node the reference drops the socket itself.
    fetch: async (request: Request, env: unknown) => {
      if (request.method === 'POST') {
        const body = (await request.clone().json()) as { state: { row: string } };
        received.push({ row: body.state.row, retryCount: request.headers.get('x-retry-count') });
      }
      return app.fetch(request, env);
    },
  }) as Server;
  await new Promise<void>((resolve) => service.listen(0, '127.0.0.1', resolve));
  const { port } = service.address() as AddressInfo;
  wb = await startWorkbench({ EVAL_BASE_URL: `http://127.0.0.1:${port}`, EVAL_API_KEY: DEFAULT_API_KEY });
});
afterAll(async () => {
  await wb.close();
  await new Promise<void>((resolve) => {
    service.close(() => resolve());
    service.closeAllConnections();
  });
});

const questions: Questions = { urgent: { type: 'noul', instructions: 'Does this convey urgency?' } };

describe('a connection reset through the proxy', () => {
  it('is an attempt like any other: one request at the service per attempt, X-Retry-Count on each retry, possibly billed', async () => {
    const target = proxyClientTarget('direct', wb.url);
    const attemptsByRow = new Map<string, AttemptReport[]>();
    // One row after another, so the proxy's pooled connection is reused between rows (where the reset met it).
    for (let i = 0; i < 30; i++) {
      const row = `r${i}`;
      const attempts: AttemptReport[] = [];
      attemptsByRow.set(row, attempts);
      try {
        await evaluate(
          target,
          {
            state: { row, text: `Payout ${i} failed again, fix it today` },
            model: 'model-1.13.0',
            questions,
          },
          // The backoff's length is not what is tested here; its place between attempts is.
          { onAttempt: (a) => attempts.push(a), sleep: () => Promise.resolve() },
        );
      } catch (error) {
        if (!isEvaluationError(error) || error.kind !== 'http') throw error;
      }
    }
    const resets = [...attemptsByRow.values()].flat().filter((a) => a.outcome === 502).length;
    expect(resets).toBeGreaterThan(3);
    for (const [row, attempts] of attemptsByRow) {
      const atService = received.filter((r) => r.row === row);
      // Each request that reached the service is an attempt the client made, with its own retry count.
      expect(
        atService.map((r) => r.retryCount),
        row,
      ).toEqual(attempts.map((a) => (a.attempt === 0 ? null : String(a.attempt))));
      // A reset after the request was written may have been evaluated: counted as possibly billed.
      for (const a of attempts.filter((a) => a.outcome === 502)) {
        expect(a.possiblyBilled, row).toBe(true);
        expect(a.message, row).toMatch(/dropped after the request was sent .*may have run and been billed/);
      }
    }
  });
});
