// The stored-answer look-ahead: before rows are sent, their stored answers are read in chunks, whole or per question,
// so a reused row costs one shared read instead of a read per row, and a row sent later needs no second read.
import type { Questions } from '../../contract';
import type { AnswerIdentity } from './dedup';
import { questionIdentities } from './dedup';
import { mergedResponse, questionsFound } from './questionReuse';
import type { RowOutcome, StoredAnswer } from './records';
import type { PlannedRow } from './runPlan';
import type { RunStore } from './runTypes';

/**
 * Rows whose stored answers are looked up together, ahead of sending: one store read (an IndexedDB `bulkGet`) and one
 * write of their outcomes per chunk, instead of a read and a write per row, which held a reuse at 2-8 ms a row.
 */
export const LOOKUP_CHUNK = 500;
/**
 * Chunks looked up at once, each its own read: a store read waits mostly on IndexedDB, so two in flight took half the
 * time of two in a row (Chromium, 50,000 stored answers); 100,000 reused rows took 14.0 s with one, 11.1 with two and
 * 10.7 with four.
 */
export const LOOKUP_READS = 4;

/** What a row's lookup found short of its whole answer; kept while the row waits in the queue. */
export interface LookedUp {
  /** The row's dedup key under the pinned model. */
  key: string;
  /** Its questions' own keys, in order; absent for one question, whose key is `key`. */
  questionKeys?: readonly string[];
  /** Stored answers of some of its questions, by name, in the questions' order: these are not asked again. */
  found: ReadonlyMap<string, StoredAnswer>;
}

/** A row answered from storage: a stored answer, or one put together from its questions' stored answers (`found`). */
export interface Reuse {
  row: PlannedRow;
  answer: StoredAnswer;
  found?: ReadonlyMap<string, StoredAnswer>;
}

/**
 * A reused row's outcome: from an earlier run when every answer it takes was stored before this run began
 * (`startedAt`); its counters carry over from the outcome it replaces.
 */
export function reusedOutcome(
  previous: RowOutcome | undefined,
  answer: StoredAnswer,
  found: ReadonlyMap<string, StoredAnswer> | undefined,
  startedAt: number,
  now: number,
): RowOutcome {
  const parts = found ? [...found.values()] : [answer];
  return {
    status: 'reused',
    reusedFrom: parts.every((part) => part.at < startedAt) ? 'earlier' : 'run',
    ...(found ? { reusedQuestions: [...found.keys()] } : {}),
    at: now,
    attempts: previous?.attempts ?? 0,
    possiblyBilledAttempts: previous?.possiblyBilledAttempts ?? 0,
    requeues: 0,
    answerKey: answer.key,
    model: answer.model,
    inputTokens: 0,
  };
}

export const NOTHING_FOUND: ReadonlyMap<string, StoredAnswer> = new Map();

/** A row's questions' keys (in order) and the stored answers found for some of them, by question name. */
interface QuestionLookup {
  keys: string[];
  found: Map<string, StoredAnswer>;
}

/**
 * Stored answers for these keys, read in at most LOOKUP_READS reads at once of LOOKUP_CHUNK keys or more each (a row's
 * questions are looked up as several keys), merged by key.
 */
async function readInChunks(
  keys: readonly string[],
  read: (part: readonly string[]) => Promise<Map<string, StoredAnswer>>,
): Promise<Map<string, StoredAnswer>> {
  const size = Math.max(LOOKUP_CHUNK, Math.ceil(keys.length / LOOKUP_READS));
  const reads = [];
  for (let i = 0; i < keys.length; i += size) reads.push(read(keys.slice(i, i + size)));
  const found = new Map<string, StoredAnswer>();
  for (const part of await Promise.all(reads)) for (const [key, answer] of part) found.set(key, answer);
  return found;
}

export interface LookAheadDeps {
  targetId: string;
  /** The run's questions, for rows that carry none of their own. */
  questions: Questions;
  /** Whether rows with no whole stored answer look up each question's own. */
  questionReuse: boolean;
  store: RunStore;
  keyOf: (id: AnswerIdentity) => Promise<string>;
  now: () => number;
}

/** The rows a lookup left waiting, by number and by key, so a key answered meanwhile drops its rows at once. */
class LookedUpRows {
  private readonly ahead = new Map<number, LookedUp>();
  private readonly byKey = new Map<string, number[]>();

  has(number: number): boolean {
    return this.ahead.has(number);
  }

  clear(): void {
    this.ahead.clear();
    this.byKey.clear();
  }

  put(number: number, looked: LookedUp): void {
    const key = looked.key;
    this.ahead.set(number, looked);
    const rows = this.byKey.get(key);
    if (rows) rows.push(number);
    else this.byKey.set(key, [number]);
  }

  take(number: number): LookedUp | undefined {
    const looked = this.ahead.get(number);
    if (looked === undefined) return undefined;
    const key = looked.key;
    this.ahead.delete(number);
    const rows = this.byKey.get(key);
    if (rows) {
      const rest = rows.filter((n) => n !== number);
      if (rest.length) this.byKey.set(key, rest);
      else this.byKey.delete(key);
    }
    return looked;
  }

  /** Forgets the rows looked up under `key`. */
  forgetKey(key: string): void {
    for (const n of this.byKey.get(key) ?? []) this.ahead.delete(n);
    this.byKey.delete(key);
  }
}

/** A row's questions: its own, or the run's. */
const questionsOf = (deps: LookAheadDeps, row: PlannedRow): Questions => row.questions ?? deps.questions;

/** What a row's answer is stored under, before it is hashed to a key. */
function identityOf(deps: LookAheadDeps, row: PlannedRow, model: string): AnswerIdentity {
  return {
    targetId: deps.targetId,
    model,
    state: row.state,
    questions: questionsOf(deps, row),
    ...(row.tag ? { tag: row.tag } : {}),
  };
}

/** The keys of a row's questions alone, in order; undefined for one question, whose key is the row's own. */
async function questionKeysOf(
  deps: LookAheadDeps,
  row: PlannedRow,
  model: string,
): Promise<string[] | undefined> {
  const each = questionIdentities(identityOf(deps, row, model));
  return each.length < 2 ? undefined : Promise.all(each.map(([, id]) => deps.keyOf(id)));
}

/** The rows of a whole-answer lookup: those reused, and the others with their keys. */
interface WholeLookup {
  reused: Reuse[];
  missed: PlannedRow[];
  keyOfRow: Map<number, string>;
}

/** Looks these rows' whole answers up under `model`: the stored ones are reused, the others missed with their keys. */
async function lookUpWhole(
  deps: LookAheadDeps,
  rows: readonly PlannedRow[],
  model: string,
  signal: AbortSignal,
): Promise<WholeLookup> {
  const out: WholeLookup = { reused: [], missed: [], keyOfRow: new Map() };
  const keys = await Promise.all(rows.map((row) => deps.keyOf(identityOf(deps, row, model))));
  const found = await readInChunks([...new Set(keys)], (part) => deps.store.findAnswers(part));
  rows.forEach((row, i) => {
    const answer = found.get(keys[i]!);
    if (answer && !signal.aborted) out.reused.push({ row, answer });
    else {
      out.missed.push(row);
      out.keyOfRow.set(row.number, keys[i]!);
    }
  });
  return out;
}

/**
 * The stored answers of these rows' questions, each looked up under its own key (LOOKUP_READS reads at most), by
 * row; rows of one question are left out, their key being the row's, which was just looked up.
 */
async function lookUpQuestions(
  deps: LookAheadDeps,
  rows: readonly PlannedRow[],
  model: string,
): Promise<Map<number, QuestionLookup>> {
  const keysOf = await Promise.all(rows.map((row) => questionKeysOf(deps, row, model)));
  const unique = [...new Set(keysOf.flatMap((keys) => keys ?? []))];
  const out = new Map<number, QuestionLookup>();
  if (unique.length === 0) return out;
  const stored = await readInChunks(unique, (part) => deps.store.findQuestionAnswers!(part));
  rows.forEach((row, i) => {
    const keys = keysOf[i];
    if (keys) out.set(row.number, { keys, found: questionsFound(questionsOf(deps, row), keys, stored) });
  });
  return out;
}

/** A row every question of which is answered in storage, reused with its answer put together as a new record. */
function assembledReuse(
  deps: LookAheadDeps,
  row: PlannedRow,
  key: string,
  parts: QuestionLookup,
  model: string,
): Reuse {
  const answer: StoredAnswer = {
    key,
    targetId: deps.targetId,
    model,
    response: mergedResponse(questionsOf(deps, row), parts.found, null, model),
    at: deps.now(),
    questionKeys: [...parts.keys],
  };
  return { row, answer, found: parts.found };
}

/** The queued rows' lookups: what was found short of a whole answer, by row and by key, until the row is sent. */
export class LookAhead {
  private readonly ahead = new LookedUpRows();
  /** Keys answered while a lookup read: its misses for them are stale, so those rows are looked up again. */
  private storedDuringLookup: Set<string> | null = null;

  constructor(private readonly deps: LookAheadDeps) {}

  has(number: number): boolean {
    return this.ahead.has(number);
  }

  /** Forgets every lookup: answers may have been stored since (another tab, another run). */
  clear(): void {
    this.ahead.clear();
  }

  questionsOf(row: PlannedRow): Questions {
    return questionsOf(this.deps, row);
  }

  identity(row: PlannedRow, model: string): AnswerIdentity {
    return identityOf(this.deps, row, model);
  }

  /** The keys of a row's questions alone, in order; undefined for one question, whose key is the row's own. */
  questionKeysOf(row: PlannedRow, model: string): Promise<string[] | undefined> {
    return questionKeysOf(this.deps, row, model);
  }

  /**
   * Looks these rows up under `model` in one go: the rows whose answers are stored (whole, or every question apart)
   * come back to be reused; the others keep what was found, taken when they are sent.
   */
  async lookUp(rows: readonly PlannedRow[], model: string, signal: AbortSignal): Promise<Reuse[]> {
    const stored = new Set<string>();
    this.storedDuringLookup = stored;
    let whole: WholeLookup;
    let byQuestion: Map<number, QuestionLookup>;
    try {
      whole = await lookUpWhole(this.deps, rows, model, signal);
      // Rows with no stored answer as a whole: each question is looked up alone, and only the others are sent.
      byQuestion =
        signal.aborted || !this.deps.questionReuse || !this.deps.store.findQuestionAnswers
          ? new Map()
          : await lookUpQuestions(this.deps, whole.missed, model);
    } finally {
      this.storedDuringLookup = null;
    }
    const { reused, missed, keyOfRow } = whole;
    for (const row of missed) {
      const key = keyOfRow.get(row.number)!;
      const parts = byQuestion.get(row.number);
      if (parts && parts.found.size === Object.keys(this.questionsOf(row)).length && !signal.aborted)
        reused.push(assembledReuse(this.deps, row, key, parts, model));
      else if (!stored.has(key))
        // A key answered meanwhile stays unlooked-up: the next look-ahead finds its answer instead of sending again.
        this.ahead.put(row.number, {
          key,
          ...(parts ? { questionKeys: parts.keys } : {}),
          found: parts?.found ?? NOTHING_FOUND,
        });
    }
    return reused;
  }

  /** What a row's lookup found (no whole answer), forgotten as the row leaves the queue. */
  take(number: number): LookedUp | undefined {
    return this.ahead.take(number);
  }

  /** An answer was just stored under `key`: rows looked up before it are looked up again, and reuse it. */
  answerStored(key: string): void {
    this.storedDuringLookup?.add(key);
    this.ahead.forgetKey(key);
  }
}
