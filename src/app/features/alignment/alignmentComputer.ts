// Computes alignment figures in a module worker where one can start, else on the page (jsdom, or a worker that
// failed). Only the latest call's answer matters to the screen; older ones still settle.
import type { AlignmentReport } from '../../../core/alignment/compute';
import type { VariantComparison } from '../../../core/alignment/variants';
import { unpackTable } from '../../../core/alignment/table';
import type { CountedFamily } from '../../../core/alignment/countedFamily';
import { unpackCascade, unpackFamily } from './alignmentProtocol';
import type { AlignmentReply, AlignmentRequest } from './alignmentProtocol';

type Request = AlignmentRequest extends infer R
  ? R extends AlignmentRequest
    ? Omit<R, 'id'>
    : never
  : never;

export interface AlignmentComputer {
  report(request: Extract<Request, { kind: 'report' }>): Promise<AlignmentReport>;
  compare(request: Extract<Request, { kind: 'compare' }>): Promise<VariantComparison>;
  /** A family of variants against its base, adjusted for every variant counted. */
  family(request: Extract<Request, { kind: 'family' }>): Promise<CountedFamily[]>;
}

type Answer = AlignmentReport | VariantComparison | CountedFamily[];

async function inline(request: Request): Promise<Answer> {
  if (request.kind === 'report') {
    const { computeAlignment } = await import('../../../core/alignment/compute');
    return computeAlignment(
      request.questions,
      unpackTable(request.table),
      request.options,
      unpackCascade(request.cascade),
    );
  }
  if (request.kind === 'family') {
    const { countedFamilies } = await import('../../../core/alignment/countedFamily');
    const { base, variants } = unpackFamily({ ...request, id: 0 });
    return countedFamilies(base, variants, request.tried, request.options);
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

function createWorkerComputer(): (request: Request) => Promise<Answer> {
  const worker = new Worker(new URL('./alignment.worker.ts', import.meta.url), { type: 'module' });
  const pending = new Map<number, { resolve: (v: Answer) => void; reject: (e: Error) => void }>();
  let nextId = 1;
  let broken = false;
  worker.onmessage = ({ data }: MessageEvent<AlignmentReply>) => {
    const call = pending.get(data.id);
    if (!call) return;
    pending.delete(data.id);
    if ('error' in data) call.reject(new Error(data.error));
    else call.resolve('report' in data ? data.report : 'families' in data ? data.families : data.comparison);
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
    return new Promise<Answer>((resolve, reject) => {
      pending.set(id, { resolve, reject });
      worker.postMessage({ ...request, id } as AlignmentRequest);
    }).catch((error: unknown) => (broken ? inline(request) : Promise.reject(error)));
  };
}

/** The worker computer where workers exist, else the inline one. */
export function createAlignmentComputer(): AlignmentComputer {
  let call: (request: Request) => Promise<Answer> = inline;
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
    family: (request) => call(request) as Promise<CountedFamily[]>,
  };
}
