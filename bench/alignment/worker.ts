// The bench's alignment worker: the same computation the app's worker runs, in a Node worker thread.
import { parentPort } from 'node:worker_threads';
import { computeAlignment } from '../../src/core/alignment/compute';
import type { Questions } from '../../src/contract';
import type { AlignTable } from '../../src/core/alignment/table';
import type { AlignmentOptions } from '../../src/core/alignment/types';

parentPort!.on(
  'message',
  (m: { questions: Questions; table: AlignTable; options: Partial<AlignmentOptions> }) => {
    // The whole report goes back, as the app's worker sends it.
    parentPort!.postMessage({ report: computeAlignment(m.questions, m.table, m.options) });
  },
);
