// Messages between the page and the rows parser worker. Plain data only: what structured cloning carries.
import type { Questions } from '../../contract';
import type { ImportSummary, PlanSummary } from '../../core/rows/importSession';
import type { RowMapping } from '../../core/rows/mapping';
import type { RowFormat } from '../../core/rows/parse';
import type { RowItem } from '../../core/rows/records';

export interface ParseOptions {
  /** 'auto' guesses from the name and the first bytes. */
  format: RowFormat | 'auto';
  /** CSV only: the first line names the columns. */
  header: boolean;
}

export type ToParser =
  | { type: 'parse'; id: number; file: File; options: ParseOptions }
  | { type: 'plan'; id: number; mapping: RowMapping; questions: Questions }
  | { type: 'items'; id: number; runId: string };

/** Bytes read so far of the file's total, and rows found. */
export interface ParseProgress {
  bytes: number;
  total: number;
  rows: number;
}

export type FromParser =
  | ({ type: 'progress'; id: number } & ParseProgress)
  | { type: 'parsed'; id: number; summary: ImportSummary }
  | { type: 'planned'; id: number; plan: PlanSummary }
  | { type: 'items'; id: number; items: RowItem[] }
  | { type: 'error'; id: number; message: string };
