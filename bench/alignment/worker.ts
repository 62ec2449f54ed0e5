// The bench's alignment worker: the same computation the app's worker runs, in a Node worker thread.
import { parentPort } from 'node:worker_threads';
import { computeAlignment } from '../../src/core/alignment/compute';
import type { Questions } from '../../src/contract';
import { unpackTable } from '../../src/core/alignment/table';
import type { PackedTable } from '../../src/core/alignment/table';
import type { AlignmentOptions } from '../../src/core/alignment/types';

parentPort!.on(
  'message',
  (m: { questions: Questions; table: PackedTable; options: Partial<AlignmentOptions> }) => {
    // The whole report goes back, as the app's worker sends it, with the time the computation took inside.
    const started = performance.now();
    const report = computeAlignment(m.questions, unpackTable(m.table), m.options);
    parentPort!.postMessage({ report, computeMs: performance.now() - started });
  },
);
