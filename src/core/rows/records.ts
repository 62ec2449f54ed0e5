// The records a run of rows keeps in IndexedDB: the run, each row with its outcome, and answers by dedup key.
// Persisted data is untrusted: src/app/persistence/rowsRepo parses every record with these schemas on read.
import { z } from 'zod';
import { EvaluateResponseSchema, JsonValueSchema, QuestionsSchema } from '../../contract';
import { AnnotationsSchema, LabelValueSchema } from '../labels';
import { LabelOrderSchema } from '../labels/order';
import { RowMappingSchema } from './mapping';
import { PacingSchema } from './pacer';

export const ROWS_SCHEMA_VERSION = 1;

/**
 * Where a row stands. `sending` is written just before the request leaves, so a crash leaves a trace: on resume it
 * becomes `unknown`, because the service may have evaluated (and billed) it without the answer reaching us.
 */
export const ROW_STATUSES = ['pending', 'sending', 'done', 'reused', 'invalid', 'failed', 'unknown'] as const;
export const RowStatusSchema = z.enum(ROW_STATUSES);
export type RowStatus = z.infer<typeof RowStatusSchema>;

const FieldErrorSchema = z.object({ loc: z.array(z.union([z.string(), z.number()])), msg: z.string() });

export const RowErrorSchema = z.object({
  kind: z.string(),
  message: z.string(),
  status: z.number().int().optional(),
  fieldErrors: z.array(FieldErrorSchema).default([]),
  possiblyBilled: z.boolean().default(false),
});
export type RowError = z.infer<typeof RowErrorSchema>;

/** What happened to one row, as far as we know. */
export const RowOutcomeSchema = z.object({
  status: RowStatusSchema,
  /** Epoch ms of the last change. */
  at: z.number(),
  /** HTTP attempts made for this row, over every send. */
  attempts: z.number().int().min(0).default(0),
  /** Attempts that may have been evaluated and billed without an answer reaching us. */
  possiblyBilledAttempts: z.number().int().min(0).default(0),
  /** Times the run put this row back in the queue after a failure that billed nothing (e.g. 429 after retries). */
  requeues: z.number().int().min(0).default(0),
  latencyMs: z.number().min(0).optional(),
  requestId: z.string().optional(),
  /** A reused row's answer: stored by an earlier run, or the answer of the same request in this run. */
  reusedFrom: z.enum(['earlier', 'run']).optional(),
  /**
   * Questions whose answers were taken from stored answers instead of being asked: the rest were sent (a done row,
   * billed only for those), or none was (a reused row put together from stored answers). Absent: none was taken.
   */
  reusedQuestions: z.array(z.string()).optional(),
  /** Key of the answer in the answers table (done and reused rows). */
  answerKey: z.string().optional(),
  /** The resolved versioned model that answered. */
  model: z.string().optional(),
  /** usage.input_tokens of the answer; 0 for a reused answer, which costs nothing. */
  inputTokens: z.number().int().min(0).optional(),
  error: RowErrorSchema.optional(),
});
export type RowOutcome = z.infer<typeof RowOutcomeSchema>;

/** An answer kept for reuse: the response the service gave for one identity (see dedup.ts). */
export const StoredAnswerSchema = z.object({
  key: z.string().min(1),
  targetId: z.string().min(1),
  model: z.string().min(1),
  response: EvaluateResponseSchema,
  at: z.number(),
  /**
   * The key of each of its questions alone (dedup.ts questionIdentities), so a request that asks some of them again
   * finds their answers: indexed (multiEntry) in IndexedDB. Absent for one question, whose key is the answer's own.
   */
  questionKeys: z.array(z.string().min(1)).optional(),
});
export type StoredAnswer = z.infer<typeof StoredAnswerSchema>;

/** One row of a run: where it came from, its input, its estimated tokens and its outcome. */
export const RowItemSchema = z.object({
  runId: z.string().min(1),
  number: z.number().int().min(1),
  line: z.number().int().min(1),
  id: z.string(),
  data: JsonValueSchema,
  tokens: z.number().int().min(0),
  outcome: RowOutcomeSchema.optional(),
  /** Human labels by question: read from the file's label columns, or given in the labelling view. */
  labels: z.record(z.string(), LabelValueSchema).optional(),
  /** Each annotator's label, by question then annotator, where several labelled a question (`labels` is their majority). */
  annotations: AnnotationsSchema.optional(),
});
export type RowItem = z.infer<typeof RowItemSchema>;

/**
 * The outcomes of a chunk of rows answered from stored answers, written as one record instead of one write per row
 * (100,000 reused rows were 100,000 writes). Read back over the rows' own outcomes: an answered outcome is final.
 */
export const ReusedChunkSchema = z.object({
  runId: z.string().min(1),
  /** Unique within the run. */
  chunk: z.string().min(1),
  rows: z.array(z.object({ number: z.number().int().min(1), outcome: RowOutcomeSchema })),
});
export type ReusedChunk = z.infer<typeof ReusedChunkSchema>;

export const RowIssueSchema = z.object({
  line: z.number().int().min(0),
  number: z.number().int().optional(),
  kind: z.enum(['malformed', 'empty', 'too_large', 'unmappable', 'duplicate_id']),
  severity: z.enum(['skip', 'warn']),
  reason: z.string(),
});

export const HALT_REASONS = [
  'paused',
  'cancelled',
  'auth',
  'budget',
  'failing',
  'target',
  'storage',
  // The target's quota is used up and will not reset within the run (Cloudflare's daily allocation).
  'quota',
] as const;
export const HaltSchema = z.object({ reason: z.enum(HALT_REASONS), message: z.string() });
export type Halt = z.infer<typeof HaltSchema>;

/** A run of a file: what is sent (questions, model, target), how (mapping, pacing, budget) and where it stands. */
export const RowRunSchema = z.object({
  schemaVersion: z.literal(ROWS_SCHEMA_VERSION),
  id: z.string().min(1),
  /** The session whose questions and model the run uses, when started from one. */
  sessionId: z.string().optional(),
  fileName: z.string(),
  format: z.enum(['csv', 'jsonl', 'json']),
  columns: z.array(z.string()),
  createdAt: z.number(),
  updatedAt: z.number(),
  targetId: z.string().min(1),
  model: z.string().min(1),
  questions: QuestionsSchema,
  mapping: RowMappingSchema,
  pacing: PacingSchema,
  /** Budget cap in the price list's currency; null for none. */
  maxCost: z.number().positive().nullable(),
  /** The target's price per million input tokens when the run was made; null: unknown; absent: the published one. */
  inputPrice: z.number().nonnegative().nullable().optional(),
  timeoutMs: z.number().positive().optional(),
  /** Rows that will be sent, and rows left out before the run (listed in `issues`). */
  rowCount: z.number().int().min(0),
  issues: z.array(RowIssueSchema),
  totalTokens: z.number().int().min(0),
  /** 'running' while a tab drives it: a record still 'running' after a reload was interrupted and resumes. */
  status: z.enum(['ready', 'running', 'halted', 'finished']),
  halt: HaltSchema.nullable().default(null),
  /** The run whose rows and labels this one re-runs with other questions, model or target (a variant). */
  variantOf: z.string().optional(),
  /**
   * A cascade's next judge: this variant holds only the rows the run `runId`'s judge abstains on for `question` (its
   * confidence under `threshold`, certified with delta split over the cascade's judges, or unanswered).
   */
  escalatedFrom: z
    .object({ runId: z.string(), question: z.string(), threshold: z.number().nullable() })
    .optional(),
  /**
   * The order each question's rows are labelled in (absent: the file's). With the judge's answers it gives back each
   * label's probability of having been asked, so an active estimate is reproduced wherever the run is read.
   */
  labelOrders: z.record(z.string(), LabelOrderSchema).optional(),
});
export type RowRun = z.infer<typeof RowRunSchema>;
