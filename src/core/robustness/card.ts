// The robustness report as it is kept in a session and its share link: one card per question. Parsed with zod
// wherever it enters (IndexedDB, files, links), so a damaged report is refused, never half-read.
import { z } from 'zod';
import { VARIANT_KINDS } from './variants';

export const VERDICTS = ['stable', 'moves_with_order', 'noisy', 'moves_with_form'] as const;
export type Verdict = (typeof VERDICTS)[number];

/** How each verdict reads. */
export const VERDICT_LABELS: Record<Verdict, string> = {
  stable: 'stable',
  moves_with_order: 'moves with order',
  noisy: 'noisy',
  moves_with_form: 'moves with the state’s form',
};

const Share = z.number().min(0).max(1);
const Spread = z.record(z.string(), Share);

export const OrderFindingSchema = z.object({
  comparisons: z.number().int().min(0),
  /** Comparisons whose top choice changed by more than rounding. */
  topChanges: z.number().int().min(0),
  /** Comparisons whose top choice changed only among options within rounding of each other (a tie broken by position). */
  ties: z.number().int().min(0).optional(),
  /** The options that tied, in the original order. */
  tied: z.array(z.string()).optional(),
  /** Largest distance from the original order, beyond the wire's rounding (raw total variation in older reports). */
  maxTvd: Share,
  spread: Spread,
  firstGain: z.number().min(-1).max(1),
  lastGain: z.number().min(-1).max(1),
  /** The position named when what sits there gains beyond the threshold (and beyond the noise). */
  positionBias: z.enum(['first', 'last']).nullable(),
  /** The variance-ratio test of the orders' spread against identical requests' (absent when nothing was repeated). */
  noiseTest: z
    .object({
      between: z.number().min(0),
      within: z.number().min(0),
      df: z.tuple([z.number().positive(), z.number().positive()]),
      pValue: Share,
    })
    .optional(),
});

export const RepetitionFindingSchema = z.object({
  requests: z.number().int().min(0),
  maxTvd: Share,
  spread: Spread,
  noiseSd: z.number().min(0).max(1),
  topChanges: z.number().int().min(0),
  identical: z.boolean(),
});

export const VariantFindingSchema = z.object({
  kind: z.enum(VARIANT_KINDS),
  states: z.number().int().min(0),
  maxTvd: Share,
  topChanges: z.number().int().min(0),
  flagged: z.boolean(),
});

export const RobustnessCardSchema = z.object({
  question: z.string(),
  type: z.enum(['choice', 'score', 'noul']),
  verdict: z.enum(VERDICTS),
  /** One sentence a person reads first. */
  summary: z.string(),
  order: OrderFindingSchema.optional(),
  /** Why the options were not reordered (a choice question whose labels cannot move), when they were not. */
  orderSkipped: z.string().optional(),
  repetition: RepetitionFindingSchema.optional(),
  variants: z.array(VariantFindingSchema).default([]),
});
export type RobustnessCard = z.infer<typeof RobustnessCardSchema>;

export const RobustnessReportSchema = z.object({
  id: z.string().min(1),
  /** ISO time the check finished. */
  at: z.string(),
  targetId: z.string().min(1),
  model: z.string(),
  /** A digest of what was checked (target, model, state or rows, questions), to tell when the screen has moved on. */
  requestKey: z.string().optional(),
  /** The main screen's state, or a sample of a file run's rows. */
  source: z.discriminatedUnion('kind', [
    z.object({ kind: z.literal('state') }),
    z.object({
      kind: z.literal('rows'),
      runId: z.string(),
      fileName: z.string(),
      sampled: z.number().int().min(0),
      rowCount: z.number().int().min(0),
    }),
  ]),
  settings: z.object({
    orders: z.number().int().min(1),
    repeats: z.number().int().min(1),
    variants: z.array(z.enum(VARIANT_KINDS)),
    threshold: Share,
    seed: z.number().int(),
  }),
  /** Requests planned, answered from storage, answered by the service, and not answered. */
  requests: z.number().int().min(0),
  reused: z.number().int().min(0),
  sent: z.number().int().min(0),
  failed: z.number().int().min(0),
  /** The estimate shown before the run (null: the target states no price), and the tokens the answers billed. */
  estimatedCost: z.number().min(0).nullable(),
  billedTokens: z.number().int().min(0),
  /** The target's price per million input tokens the check was costed at: null unknown, absent the published one. */
  inputPrice: z.number().min(0).nullable().optional(),
  /** Every identical request got exactly the same answers (null when nothing was repeated). */
  identicalAnswers: z.boolean().nullable(),
  cards: z.array(RobustnessCardSchema),
});
export type RobustnessReport = z.infer<typeof RobustnessReportSchema>;
