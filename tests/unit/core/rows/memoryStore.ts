// A RunStore in memory, for runner tests that are about the engine rather than IndexedDB.
import type { RowOutcome, StoredAnswer } from '../../../../src/core/rows/records';
import type { ReusedRow, RunStore } from '../../../../src/core/rows/runTypes';

export class MemoryStore implements RunStore {
  readonly outcomes = new Map<number, RowOutcome>();
  readonly answers = new Map<string, StoredAnswer>();
  /** Every status written, in order, per row. */
  readonly history = new Map<number, string[]>();
  failNextSave: Error | null = null;
  /** A row whose save fails, whenever it comes. */
  failSaveOf: number | null = null;

  async saveOutcome(number: number, outcome: RowOutcome): Promise<void> {
    if (number === this.failSaveOf) throw new Error(`QuotaExceededError at row ${number}`);
    if (this.failNextSave) {
      const error = this.failNextSave;
      this.failNextSave = null;
      throw error;
    }
    this.outcomes.set(number, outcome);
    this.history.set(number, [...(this.history.get(number) ?? []), outcome.status]);
  }

  /** Every saveReused call's row numbers, in order. */
  readonly reusedWrites: number[][] = [];

  async saveReused(rows: readonly ReusedRow[]): Promise<void> {
    if (rows.some((r) => r.number === this.failSaveOf))
      throw new Error(`QuotaExceededError at row ${this.failSaveOf}`);
    if (this.failNextSave) {
      const error = this.failNextSave;
      this.failNextSave = null;
      throw error;
    }
    this.reusedWrites.push(rows.map((r) => r.number));
    for (const { number, outcome, answer } of rows) {
      if (answer) this.answers.set(answer.key, answer);
      this.outcomes.set(number, outcome);
      this.history.set(number, [...(this.history.get(number) ?? []), outcome.status]);
    }
  }

  async saveAnswered(number: number, outcome: RowOutcome, answer: StoredAnswer): Promise<void> {
    this.answers.set(answer.key, answer);
    await this.saveOutcome(number, outcome);
  }

  /** Every findQuestionAnswers call's keys, in order. */
  readonly questionLookups: string[][] = [];

  /** Answers by each of their question keys (as the multiEntry index finds them), or a one-question answer by key. */
  async findQuestionAnswers(keys: readonly string[]): Promise<Map<string, StoredAnswer>> {
    this.questionLookups.push([...keys]);
    const out = new Map<string, StoredAnswer>();
    for (const key of keys) {
      const answer =
        this.answers.get(key) ?? [...this.answers.values()].find((a) => a.questionKeys?.includes(key));
      if (answer) out.set(key, answer);
    }
    return out;
  }

  /** Every findAnswers call's keys, in order. */
  readonly lookups: string[][] = [];

  async findAnswers(keys: readonly string[]): Promise<Map<string, StoredAnswer>> {
    this.lookups.push([...keys]);
    const out = new Map<string, StoredAnswer>();
    for (const key of keys) {
      const answer = this.answers.get(key);
      if (answer) out.set(key, answer);
    }
    return out;
  }
}
