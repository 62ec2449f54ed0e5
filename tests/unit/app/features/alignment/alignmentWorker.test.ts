// The alignment worker's message protocol: a packed table in, the same report the page would compute out, and an
// error message (never a thrown worker) for what it cannot compute. The module runs against a stand-in `self`.
import { beforeAll, describe, expect, it } from 'vitest';
import { BENCH_QUESTIONS, benchRows } from '../../../../../bench/alignment/rows';
import type {
  AlignmentReply,
  AlignmentRequest,
} from '../../../../../src/app/features/alignment/alignmentProtocol';
import { computeAlignment } from '../../../../../src/core/alignment/compute';
import { alignTableOf, packTable } from '../../../../../src/core/alignment/table';

const replies: AlignmentReply[] = [];
const scope = {
  postMessage: (m: AlignmentReply) => replies.push(structuredClone(m)),
  onmessage: null as ((event: { data: AlignmentRequest }) => void) | null,
};

beforeAll(async () => {
  (globalThis as unknown as { self: typeof scope }).self = scope;
  await import('../../../../../src/app/features/alignment/alignment.worker');
});

const send = (request: AlignmentRequest): AlignmentReply => {
  scope.onmessage!({ data: structuredClone(request) });
  return replies.at(-1)!;
};

describe('the alignment worker', () => {
  const rows = benchRows(300, 5);
  const table = alignTableOf(BENCH_QUESTIONS, rows);

  it('computes the report of a packed table, as the page would from the rows', () => {
    const options = { bootstrap: { B: 50, seed: 2 } };
    const reply = send({
      id: 1,
      kind: 'report',
      questions: BENCH_QUESTIONS,
      table: packTable(table),
      options,
    });
    expect(reply.id).toBe(1);
    expect('report' in reply && reply.report.figures).toEqual(
      computeAlignment(BENCH_QUESTIONS, rows, options).figures,
    );
  });

  it('compares two packed tables', () => {
    const reply = send({
      id: 2,
      kind: 'compare',
      a: { questions: BENCH_QUESTIONS, table: packTable(table) },
      b: { questions: BENCH_QUESTIONS, table: packTable(table) },
      options: { bootstrap: { B: 20, seed: 1 } },
    });
    expect('comparison' in reply && reply.comparison.questions.map((q) => q.paired)).toEqual([300, 300, 300]);
  });

  it('answers what it cannot compute with an error message, and goes on answering', () => {
    const broken = { ...packTable(table), idEnds: undefined } as never;
    const reply = send({ id: 3, kind: 'report', questions: BENCH_QUESTIONS, table: broken, options: {} });
    expect(reply).toMatchObject({ id: 3, error: expect.any(String) });
    const next = send({
      id: 4,
      kind: 'report',
      questions: BENCH_QUESTIONS,
      table: packTable(table),
      options: {},
    });
    expect('report' in next && next.report.rows.total).toBe(300);
  });
});
