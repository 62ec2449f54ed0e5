// Messages between the page and the alignment worker. Plain data only: what structured cloning carries.
import type { Questions } from '../../../contract';
import type { AlignmentReport } from '../../../core/alignment/compute';
import type { AlignRow, AlignmentOptions } from '../../../core/alignment/types';
import type { VariantComparison } from '../../../core/alignment/variants';

export type AlignmentRequest =
  | { id: number; kind: 'report'; questions: Questions; rows: AlignRow[]; options: Partial<AlignmentOptions> }
  | {
      id: number;
      kind: 'compare';
      a: { questions: Questions; rows: AlignRow[] };
      b: { questions: Questions; rows: AlignRow[] };
      options: Partial<AlignmentOptions>;
    };

export type AlignmentReply =
  | { id: number; report: AlignmentReport }
  | { id: number; comparison: VariantComparison }
  | { id: number; error: string };
