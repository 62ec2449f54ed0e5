// Messages between the page and the alignment worker: rows as column tables of typed arrays, which cross threads as
// blocks of memory (100,000 row objects took seconds to clone).
import type { Questions } from '../../../contract';
import type { AlignmentReport } from '../../../core/alignment/compute';
import type { CascadeTables } from '../../../core/alignment/questionTrust';
import { unpackTable } from '../../../core/alignment/table';
import type { PackedTable } from '../../../core/alignment/table';
import type { AlignmentOptions } from '../../../core/alignment/types';
import type { VariantComparison } from '../../../core/alignment/variants';
import type { CountedFamily } from '../../../core/alignment/countedFamily';

export type AlignmentRequest =
  | {
      id: number;
      kind: 'report';
      questions: Questions;
      table: PackedTable;
      options: Partial<AlignmentOptions>;
      /** The cascade's judges in order (the run first), each a run of the same rows with its price per row. */
      cascade?: { judges: { label: string; price: number; table: PackedTable }[]; lastAnswersAll: boolean };
    }
  | {
      id: number;
      kind: 'compare';
      a: { questions: Questions; table: PackedTable };
      b: { questions: Questions; table: PackedTable };
      options: Partial<AlignmentOptions>;
    }
  | {
      id: number;
      kind: 'family';
      base: { name: string; questions: Questions; table: PackedTable };
      variants: { name: string; questions: Questions; table: PackedTable }[];
      /** Variants counted (the ledger's, deleted runs included): at least `variants.length`. */
      tried: number;
      options: Partial<AlignmentOptions>;
    };

export type AlignmentReply =
  | { id: number; report: AlignmentReport }
  | { id: number; comparison: VariantComparison }
  | { id: number; families: CountedFamily[] }
  | { id: number; error: string };

/** The cascade's tables as the worker reads them. */
export function unpackCascade(
  cascade: Extract<AlignmentRequest, { kind: 'report' }>['cascade'],
): CascadeTables | undefined {
  return (
    cascade && {
      lastAnswersAll: cascade.lastAnswersAll,
      judges: cascade.judges.map((j) => ({ label: j.label, price: j.price, table: unpackTable(j.table) })),
    }
  );
}

/** A family request's runs as the core reads them. */
export function unpackFamily(request: Extract<AlignmentRequest, { kind: 'family' }>) {
  const run = (r: { name: string; questions: Questions; table: PackedTable }) => ({
    name: r.name,
    questions: r.questions,
    rows: unpackTable(r.table),
  });
  return { base: run(request.base), variants: request.variants.map(run) };
}
