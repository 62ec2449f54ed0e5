// The session record: what a user keeps of one rubric experiment. Shared by the stores, IndexedDB,
// exported files and share links, so it is defined once here and parsed with zod wherever it enters.
import { z } from 'zod';
import { AlignmentSummarySchema } from './alignment/report';
import { VariantLedgerSchema } from './alignment/ledger';
import { ConversationSchema, EvaluateRequestSchema, EvaluateResponseSchema } from '../contract';
import { RobustnessReportSchema } from './robustness/card';
import { RenderRuleSchema } from './conversation/render';

/** Current schema version of a session record; older records migrate in src/app/persistence. */
export const SESSION_SCHEMA_VERSION = 2;

/** The large-taxonomy screen's input: the pasted labels, how to read them, and the question's instructions. */
export const TaxonomyDocSchema = z.object({
  text: z.string(),
  format: z.enum(['auto', 'list', 'indent', 'paths']),
  instructions: z.string(),
});
export type TaxonomyDoc = z.infer<typeof TaxonomyDocSchema>;

/** What the editors hold: kept as text so nothing the user typed is ever lost, even when it does not parse. */
export const SessionDocSchema = z.object({
  /** 'conversation': the text is a JSON list of messages and tool calls (src/contract/conversation.ts). */
  stateMode: z.enum(['json', 'text', 'conversation']),
  stateText: z.string(),
  questionsText: z.string(),
  targetId: z.string().min(1),
  model: z.string(),
  /** How a conversation becomes the state for a target of the interface's form; absent: the default transcript. */
  conversationRule: RenderRuleSchema.optional(),
  /** Questions asked of the assistant's last turn only (the rest as context), by name; absent: the whole. */
  conversationScopes: z.record(z.string(), z.enum(['whole', 'last_turn'])).optional(),
  /** Absent until the user pastes labels on the taxonomy screen (older records have none). */
  taxonomy: TaxonomyDocSchema.optional(),
});
export type SessionDoc = z.infer<typeof SessionDocSchema>;

export const AttemptRecordSchema = z.object({
  attempt: z.number().int().min(0),
  outcome: z.union([z.number().int(), z.enum(['timeout', 'network', 'cancelled'])]),
  requestId: z.string().optional(),
  durationMs: z.number().min(0),
  retryInMs: z.number().min(0).optional(),
  message: z.string().optional(),
});
export type AttemptRecord = z.infer<typeof AttemptRecordSchema>;

export const RunErrorSchema = z.object({
  kind: z.string(),
  message: z.string(),
  status: z.number().int().optional(),
  fieldErrors: z
    .array(z.object({ loc: z.array(z.union([z.string(), z.number()])), msg: z.string() }))
    .default([]),
  possiblyBilled: z.boolean().default(false),
});
export type RunError = z.infer<typeof RunErrorSchema>;

/** One run of the session's request against one target and model. */
export const RunRecordSchema = z.object({
  id: z.string().min(1),
  at: z.string(), // ISO time the run started
  targetId: z.string().min(1),
  request: EvaluateRequestSchema,
  response: EvaluateResponseSchema.optional(),
  error: RunErrorSchema.optional(),
  latencyMs: z.number().min(0).optional(),
  attempts: z.array(AttemptRecordSchema).default([]),
  /** The comparison column that ran it; absent for a run of the main screen. */
  columnId: z.string().optional(),
  /** The conversation sent with the request when the state was one (the request's state is its rendering). */
  conversation: ConversationSchema.optional(),
  /** Set when the run was replayed from a share link or file, not sent by this browser. */
  replayed: z.boolean().optional(),
});
export type RunRecord = z.infer<typeof RunRecordSchema>;

/** One column of a comparison: a target and a model id. */
export const CompareColumnSchema = z.object({
  id: z.string().min(1),
  targetId: z.string().min(1),
  model: z.string(),
});
export type CompareColumn = z.infer<typeof CompareColumnSchema>;

export const CompareSchema = z.object({
  columns: z.array(CompareColumnSchema).min(2).max(4),
  /** Disagreement above which a question is flagged. */
  threshold: z.number().min(0).max(1),
  /** The latest run id of each column, by column id. */
  runIds: z.record(z.string(), z.string()).default({}),
});
export type Compare = z.infer<typeof CompareSchema>;

export const SessionSchema = z.object({
  schemaVersion: z.literal(SESSION_SCHEMA_VERSION),
  id: z.string().min(1),
  name: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  doc: SessionDocSchema,
  runs: z.array(RunRecordSchema),
  compare: CompareSchema.optional(),
  /** The latest robustness check: one card per question (optional, so sessions saved before it still parse). */
  robustness: RobustnessReportSchema.optional(),
  /** The latest alignment report kept with the session (figures of a labelled run; travels in files and links). */
  alignment: AlignmentSummarySchema.optional(),
  /** Every rubric variant run against a labelled set, and the sealed rows of each set (absent until the first). */
  ledger: VariantLedgerSchema.optional(),
  /**
   * How many times the stored record was written (IndexedDB only; absent in older records, read as 0). A save made
   * from an older revision is merged with what is stored instead of replacing it (see sessionMerge.ts).
   */
  revision: z.number().int().min(0).optional(),
});
export type Session = z.infer<typeof SessionSchema>;
