// The bench's alignment worker: the same computation the app's worker runs, in a Node worker thread.
import { parentPort } from 'node:worker_threads';
import { computeAlignment } from '../../src/core/alignment/compute';
import type { Questions } from '../../src/contract';
import type { AlignRow, AlignmentOptions } from '../../src/core/alignment/types';

parentPort!.on(
  'message',
  (m: { questions: Questions; rows: AlignRow[]; options: Partial<AlignmentOptions> }) => {
    const report = computeAlignment(m.questions, m.rows, m.options);
    parentPort!.postMessage({ figures: Object.keys(report.figures).length, B: report.bootstrap.B });
  },
);
