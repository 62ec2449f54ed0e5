// Counts a request's tokens with the project's tokenizer, loaded lazily: in a module worker in the app (its own chunk),
// or through a dynamic import on the page where workers do not exist (jsdom) or refuse to start.
import type { CostBreakdown } from '../../../core/cost';
import type { CostReplyMessage, CostRequestMessage } from './costProtocol';

/** Counts requests; only the latest call's promise matters to the screen, older ones still settle. */
export interface CostCounter {
  count(request: CostRequestMessage['request'], runs: number): Promise<CostBreakdown>;
  dispose(): void;
}

/** The counter on the page's thread: the tokenizer arrives with the first count, never with the first chunk. */
export function createInlineCostCounter(): CostCounter {
  return {
    async count(request, runs) {
      const { costBreakdown } = await import('../../../core/cost');
      return costBreakdown(request, { runs });
    },
    dispose() {},
  };
}

/** The counter in a module worker; a worker that fails hands the call over to the inline counter. */
export function createWorkerCostCounter(): CostCounter {
  const worker = new Worker(new URL('./cost.worker.ts', import.meta.url), { type: 'module' });
  const pending = new Map<number, { resolve: (b: CostBreakdown) => void; reject: (e: Error) => void }>();
  let nextId = 1;
  let broken: CostCounter | null = null;
  worker.onmessage = ({ data }: MessageEvent<CostReplyMessage>) => {
    const call = pending.get(data.id);
    if (!call) return;
    pending.delete(data.id);
    if ('error' in data) call.reject(new Error(data.error));
    else call.resolve(data.breakdown);
  };
  worker.onerror = (event) => {
    event.preventDefault();
    // The worker could not start or crashed: count on the page from now on, including what was waiting.
    broken ??= createInlineCostCounter();
    worker.terminate();
    for (const call of pending.values()) call.reject(new Error('The token counter stopped; counting again.'));
    pending.clear();
  };
  return {
    count(request, runs) {
      if (broken) return broken.count(request, runs);
      const id = nextId++;
      const message: CostRequestMessage = { id, request, runs };
      return new Promise<CostBreakdown>((resolve, reject) => {
        pending.set(id, { resolve, reject });
        worker.postMessage(message);
      }).catch((error: unknown) => (broken ? broken.count(request, runs) : Promise.reject(error)));
    },
    dispose() {
      worker.terminate();
      pending.clear();
    },
  };
}

/** The worker counter where workers exist, else the inline one. */
export function createCostCounter(): CostCounter {
  if (typeof Worker === 'undefined') return createInlineCostCounter();
  try {
    return createWorkerCostCounter();
  } catch {
    return createInlineCostCounter();
  }
}
