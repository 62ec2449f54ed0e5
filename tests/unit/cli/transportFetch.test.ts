// The command line's fetch over the proxy's transports, against the real reference over loopback and in process: the
// client's evaluate works through it, an abort rejects with its reason and lets go of the signal, a reset is reported
// as a dropped connection (may have been billed).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { evaluate } from '../../../src/client';
import { CONVERSATION_FIELD } from '../../../src/contract';
import { renderConversation } from '../../../src/core/conversation/render';
import { serveDecisionsStandin } from '../../helpers/standins/decisionsServer';
import { EXAMPLE_REQUEST } from '../../../src/core/example';
import { transportFetch } from '../../../src/cli/transportFetch';
import { inProcessTransport, networkTransportOnce } from '../../../src/server/targets/transport';
import { createReferenceApp } from '../../../src/server/reference/app';
import { DEFAULT_API_KEY } from '../../../src/server/reference/options';
import { serveReference } from '../../../src/server/reference/serve';
import type { RunningReference } from '../../../src/server/reference/serve';

const request = { ...EXAMPLE_REQUEST, model: 'model-1.13.0' };
const headers = { Authorization: `Bearer ${DEFAULT_API_KEY}` };

let reference: RunningReference;
let resets: RunningReference;
beforeAll(async () => {
  reference = await serveReference({ rpm: 1e9, tps: 1e12 });
  resets = await serveReference({
    rpm: 1e9,
    tps: 1e12,
    faults: { p429: 0, p529: 0, timeout: 0, reset: 1, latency: null },
  });
});
afterAll(async () => {
  await reference.close();
  await resets.close();
});

describe('transportFetch', () => {
  it('carries the client’s evaluate over node:http and in process, with the same answers', async () => {
    const overHttp = await evaluate(
      { baseUrl: reference.url, headers, fetch: transportFetch(networkTransportOnce) },
      request,
      {},
    );
    const app = createReferenceApp({});
    const inProcess = await evaluate(
      {
        baseUrl: 'http://local.invalid',
        headers,
        fetch: transportFetch(inProcessTransport((r) => app.fetch(r))),
      },
      request,
      {},
    );
    expect(overHttp.response.model).toBe('model-1.13.0');
    expect(inProcess.response.answers).toEqual(overHttp.response.answers);
    expect(overHttp.attempts).toHaveLength(1);
  });

  it('rejects an aborted call with the signal’s reason and removes its listener', async () => {
    const fetch = transportFetch(networkTransportOnce);
    const controller = new AbortController();
    const listeners: string[] = [];
    const add = controller.signal.addEventListener.bind(controller.signal);
    const remove = controller.signal.removeEventListener.bind(controller.signal);
    controller.signal.addEventListener = ((type: string, l: never, o: never) => {
      listeners.push(`+${type}`);
      add(type as 'abort', l, o);
    }) as typeof controller.signal.addEventListener;
    controller.signal.removeEventListener = ((type: string, l: never, o: never) => {
      listeners.push(`-${type}`);
      remove(type as 'abort', l, o);
    }) as typeof controller.signal.removeEventListener;
    const ok = await fetch(`${reference.url}/v1/models`, { headers, signal: controller.signal });
    expect(ok.status).toBe(200);
    expect(listeners).toEqual(['+abort', '-abort']);
    const reason = new DOMException('stop', 'AbortError');
    controller.abort(reason);
    await expect(fetch(`${reference.url}/v1/models`, { headers, signal: controller.signal })).rejects.toBe(
      reason,
    );
  });

  it('reports a reset as a dropped connection that may have been billed, one attempt each', async () => {
    const failure = await evaluate(
      { baseUrl: resets.url, headers, fetch: transportFetch(networkTransportOnce) },
      request,
      { maxRetries: 0 },
    ).catch((e: unknown) => e);
    expect(failure).toMatchObject({ kind: 'network', possiblyBilled: true });
    expect((failure as { attempts: unknown[] }).attempts).toHaveLength(1);
  });
});

describe('transportFetch on a target of another wire', () => {
  const conversation = [
    { role: 'user' as const, content: 'Refund order 7.' },
    { type: 'function_call' as const, call_id: 'c1', name: 'issue_refund', arguments: '{"order":7}' },
    { type: 'function_call_output' as const, call_id: 'c1', output: 'refunded' },
    { role: 'assistant' as const, content: 'Your refund is on its way.' },
  ];
  const carried = {
    state: renderConversation(conversation),
    model: 'model-1.13.0',
    questions: {
      promised: { type: 'noul' as const, instructions: 'Was a refund promised after the tool ran?' },
    },
    [CONVERSATION_FIELD]: conversation,
  };

  it('sends a Decisions target its own form with the conversation as input, and reads its answer back', async () => {
    const luna = await serveDecisionsStandin({ apiKey: 'k', models: { 'model-1.13.0': 'model-1.13.0' } });
    try {
      const decisions = { dialect: 'decisions' as const, envelope: 'none' as const, modelInPath: false };
      const result = await evaluate(
        {
          baseUrl: luna.url,
          evaluatePath: '/v1/decisions',
          headers: { Authorization: 'Bearer k' },
          fetch: transportFetch(networkTransportOnce, decisions, true),
        },
        carried,
        {},
      );
      expect((luna.received.at(-1) as { input: unknown }).input).toEqual(conversation);
      expect(result.response.answers['promised']?.type).toBe('noul');
    } finally {
      await luna.close();
    }
  });

  it("gives a target of the interface's form the rendered state without the workbench's field", async () => {
    const result = await evaluate(
      { baseUrl: reference.url, headers, fetch: transportFetch(networkTransportOnce) },
      carried,
      {},
    );
    expect(result.response.answers['promised']?.type).toBe('noul');
  });
});
