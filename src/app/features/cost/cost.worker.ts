// The cost worker: counts tokens with the ~1 MB tokenizer off the page's thread, so typing never waits on it.
import { costBreakdown } from '../../../core/cost';
import type { CostReplyMessage, CostRequestMessage } from './costProtocol';

interface WorkerScope {
  postMessage(message: CostReplyMessage): void;
  onmessage: ((event: MessageEvent<CostRequestMessage>) => void) | null;
}
const scope = self as unknown as WorkerScope;

scope.onmessage = ({ data }) => {
  try {
    scope.postMessage({ id: data.id, breakdown: costBreakdown(data.request, { runs: data.runs }) });
  } catch (error) {
    scope.postMessage({ id: data.id, error: error instanceof Error ? error.message : String(error) });
  }
};
