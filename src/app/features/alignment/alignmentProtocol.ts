// Messages between the page and the alignment worker: rows as column tables of typed arrays, which cross threads as
// blocks of memory (100,000 row objects took seconds to clone).
import type { Questions } from '../../../contract';
import type { AlignmentReport } from '../../../core/alignment/compute';
import type { PackedTable } from '../../../core/alignment/table';
import type { AlignmentOptions } from '../../../core/alignment/types';
import type { VariantComparison } from '../../../core/alignment/variants';

export type AlignmentRequest =
  | {
      id: number;
      kind: 'report';
      questions: Questions;
      table: PackedTable;
      options: Partial<AlignmentOptions>;
    }
  | {
      id: number;
      kind: 'compare';
      a: { questions: Questions; table: PackedTable };
      b: { questions: Questions; table: PackedTable };
      options: Partial<AlignmentOptions>;
    };

export type AlignmentReply =
  | { id: number; report: AlignmentReport }
  | { id: number; comparison: VariantComparison }
  | { id: number; error: string };
