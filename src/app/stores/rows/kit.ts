// What the rows store's parts share: its dependencies, zustand's get and set, and the live state kept outside React
// (the runner, up to 100,000 result rows, timers, the cross-tab bookkeeping), so each part is a plain function of it.
import type { StoreApi } from 'zustand';
import type { RowItem, RowRun, StoredAnswer } from '../../../core/rows/records';
import type { RowRunner } from '../../../core/rows/runner';
import type { ResultRow } from '../../../core/rows/results';
import type { RowUpdateMessage, RunMessage } from '../../../core/rows/runSync';
import type { RowsParser } from '../../workers/rowsParser';
import type { TargetContext } from '../../../core/rows/runPlan';
import type { RowsDeps, RowsState } from './types';
export { errorText } from '../../../contract/text';

/** The store's state that React never sees. */
export interface RowsLive {
  parser: RowsParser | null;
  runner: RowRunner | null;
  results: ResultRow[];
  indexOf: Map<number, number>;
  flushTimer: ReturnType<typeof setTimeout> | null;
  ticker: ReturnType<typeof setInterval> | null;
  planSeq: number;
  // What the last plan asked for: a run is stored only from a plan of its own mapping and questions.
  planned: { mapping: RowsState['mapping']; questionsKey: string; context?: TargetContext } | null;
  // The file last picked (and the questions it was picked against), so changing the parse options reads it again.
  lastFile: File | null;
  lastQuestions: readonly string[];
  // Cross-tab state: the run this tab drives (holds the lock of), the rows changed since the last message to the
  // watching tabs, the wait for another tab's lock while watching, and the run record as this tab last wrote it.
  drivingId: string | null;
  outbox: RowUpdateMessage[];
  watchAbort: AbortController | null;
  lastOwnWrite: Map<string, number>;
}

export interface RowsKit {
  deps: RowsDeps;
  set: StoreApi<RowsState>['setState'];
  get: StoreApi<RowsState>['getState'];
  live: RowsLive;
  /** Tells the other tabs (nothing when there is no channel). */
  post: (message: RunMessage) => void;
  /** The file parser, started on first use. */
  parserOf: () => RowsParser;
}

export function rowsKit(deps: RowsDeps, set: RowsKit['set'], get: RowsKit['get']): RowsKit {
  const live: RowsLive = {
    parser: null,
    runner: null,
    results: [],
    indexOf: new Map(),
    flushTimer: null,
    ticker: null,
    planSeq: 0,
    planned: null,
    lastFile: null,
    lastQuestions: [],
    drivingId: null,
    outbox: [],
    watchAbort: null,
    lastOwnWrite: new Map(),
  };
  return {
    deps,
    set,
    get,
    live,
    post: (message) => deps.channel?.post(message),
    parserOf: () => (live.parser ??= deps.parser()),
  };
}

/** The helpers the rows store's actions share. */
export interface RowsEngine {
  /** Tells the watching tabs where the run this tab drives stands, with the rows changed since last time. */
  publish(): void;
  /** Shows the runner's progress and changed rows now, and publishes them. */
  flushNow(): void;
  /** Flushes within flushMs, coalescing the updates that arrive meanwhile. */
  scheduleFlush(): void;
  /** Saves a change to a run's record, and to the open run. */
  saveRun(id: string, patch: Partial<RowRun>): Promise<void>;
  stopWatching(): void;
  beginWatching(runId: string): void;
  /** Reads a run, its rows and their answers from storage and makes it the open one; true when another tab drives it. */
  load(id: string, quiet: boolean): Promise<boolean>;
  drive(retryWhich?: 'failed' | 'unknown'): Promise<void>;
  attach(
    run: RowRun,
    items: readonly RowItem[],
    answers: ReadonlyMap<string, StoredAnswer>,
    unreadable: number,
    options?: { quiet?: boolean; held?: boolean },
  ): void;
}
