// Messages between the page and the rows parser worker. Plain data only: what structured cloning carries.
import type { Questions } from '../../contract';
import type { ImportSummary, PlanSummary } from '../../core/rows/importSession';
import type { RowMapping } from '../../core/rows/mapping';
import type { RowFormat } from '../../core/rows/parse';
import type { RowItem } from '../../core/rows/records';
import type { TargetContext } from '../../core/rows/runPlan';

export interface ParseOptions {
  /** 'auto' guesses from the name and the first bytes. */
  format: RowFormat | 'auto';
  /** CSV only: the first line names the columns. */
  header: boolean;
  /** CSV only: quotes are plain characters, so a stray quote cannot join lines into one field. */
  literalQuotes: boolean;
}

export type ToParser =
  | { type: 'parse'; id: number; file: File; options: ParseOptions }
  | { type: 'plan'; id: number; mapping: RowMapping; questions: Questions; context?: TargetContext }
  | { type: 'items'; id: number; runId: string };

/**
 * Rows per 'itemsBatch' message. Cloning 100,000 rows into the page in one message held its thread for ~150 ms;
 * 5,000 at a time keeps each message's task short.
 */
export const ITEMS_BATCH = 5000;

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
  /** A slice of a run's rows, in order; several come before the closing 'items'. */
  | { type: 'itemsBatch'; id: number; items: RowItem[] }
  /** The end of a run's rows: `count` rows were sent in batches. */
  | { type: 'items'; id: number; count: number }
  | { type: 'error'; id: number; message: string };
