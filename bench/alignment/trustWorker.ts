// The bench's trust worker: trustFigures on the question it is sent, in a Node worker thread as the app's alignment
// worker would run it, with the time the computation took inside.
import { parentPort } from 'node:worker_threads';
import { trustFigures } from '../../src/core/trust/figures';
import type { TrustOptions } from '../../src/core/trust/figures';
import type { TrustData } from '../../src/core/trust/ratings';

parentPort!.on('message', (m: { data: TrustData; options: Partial<TrustOptions> }) => {
  const started = performance.now();
  const figures = trustFigures(m.data, m.options);
  parentPort!.postMessage({ figures, computeMs: performance.now() - started });
});
