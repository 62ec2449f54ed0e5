// The alignment worker: every figure of a run (and the paired comparison of two) off the page's thread, so a
// 100,000-row run recomputes as labels arrive without freezing the screen.
import { computeAlignment } from '../../../core/alignment/compute';
import { unpackTable } from '../../../core/alignment/table';
import { compareVariants } from '../../../core/alignment/variants';
import { countedFamilies } from '../../../core/alignment/countedFamily';
import { unpackCascade, unpackFamily } from './alignmentProtocol';
import type { AlignmentReply, AlignmentRequest } from './alignmentProtocol';

interface WorkerScope {
  postMessage(message: AlignmentReply): void;
  onmessage: ((event: MessageEvent<AlignmentRequest>) => void) | null;
}
const scope = self as unknown as WorkerScope;

scope.onmessage = ({ data }) => {
  try {
    if (data.kind === 'report')
      scope.postMessage({
        id: data.id,
        report: computeAlignment(
          data.questions,
          unpackTable(data.table),
          data.options,
          unpackCascade(data.cascade),
        ),
      });
    else if (data.kind === 'family') {
      const { base, variants } = unpackFamily(data);
      scope.postMessage({
        id: data.id,
        families: countedFamilies(base, variants, data.tried, data.options),
      });
    } else
      scope.postMessage({
        id: data.id,
        comparison: compareVariants(
          data.a.questions,
          unpackTable(data.a.table),
          data.b.questions,
          unpackTable(data.b.table),
          data.options,
        ),
      });
  } catch (error) {
    scope.postMessage({ id: data.id, error: error instanceof Error ? error.message : String(error) });
  }
};
