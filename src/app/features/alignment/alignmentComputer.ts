// Computes alignment figures in a module worker where one can start, else on the page (jsdom, or a worker that
// failed). Only the latest call's answer matters to the screen; older ones still settle.
import type { AlignmentReport } from '../../../core/alignment/compute';
import type { VariantComparison } from '../../../core/alignment/variants';
import { unpackTable } from '../../../core/alignment/table';
import { unpackCascade } from './alignmentProtocol';
import type { AlignmentReply, AlignmentRequest } from './alignmentProtocol';

type Request = AlignmentRequest extends infer R
  ? R extends AlignmentRequest
    ? Omit<R, 'id'>
    : never
  : never;

export interface AlignmentComputer {
  report(request: Extract<Request, { kind: 'report' }>): Promise<AlignmentReport>;
  compare(request: Extract<Request, { kind: 'compare' }>): Promise<VariantComparison>;
}

async function inline(request: Request): Promise<AlignmentReport | VariantComparison> {
  if (request.kind === 'report') {
    const { computeAlignment } = await import('../../../core/alignment/compute');
    return computeAlignment(
      request.questions,
      unpackTable(request.table),
      request.options,
      unpackCascade(request.cascade),
    );
  }
  const { compareVariants } = await import('../../../core/alignment/variants');
  return compareVariants(
    request.a.questions,
    unpackTable(request.a.table),
    request.b.questions,
    unpackTable(request.b.table),
    request.options,
  );
}

function createWorkerComputer(): (request: Request) => Promise<AlignmentReport | VariantComparison> {
  const worker = new Worker(new URL('./alignment.worker.ts', import.meta.url), { type: 'module' });
  const pending = new Map<
    number,
    { resolve: (v: AlignmentReport | VariantComparison) => void; reject: (e: Error) => void }
  >();
  let nextId = 1;
  let broken = false;
  worker.onmessage = ({ data }: MessageEvent<AlignmentReply>) => {
    const call = pending.get(data.id);
    if (!call) return;
    pending.delete(data.id);
    if ('error' in data) call.reject(new Error(data.error));
    else call.resolve('report' in data ? data.report : data.comparison);
  };
  worker.onerror = (event) => {
    event.preventDefault();
    // The worker could not start or crashed: compute on the page from now on, including what was waiting.
    broken = true;
    worker.terminate();
    for (const call of pending.values()) call.reject(new Error('The alignment worker stopped.'));
    pending.clear();
  };
  return (request) => {
    if (broken) return inline(request);
    const id = nextId++;
    return new Promise<AlignmentReport | VariantComparison>((resolve, reject) => {
      pending.set(id, { resolve, reject });
      worker.postMessage({ ...request, id } as AlignmentRequest);
    }).catch((error: unknown) => (broken ? inline(request) : Promise.reject(error)));
  };
}

/** The worker computer where workers exist, else the inline one. */
export function createAlignmentComputer(): AlignmentComputer {
  let call: (request: Request) => Promise<AlignmentReport | VariantComparison> = inline;
  if (typeof Worker !== 'undefined') {
    try {
      call = createWorkerComputer();
    } catch {
      call = inline;
    }
  }
  return {
    report: (request) => call(request) as Promise<AlignmentReport>,
    compare: (request) => call(request) as Promise<VariantComparison>,
  };
}
