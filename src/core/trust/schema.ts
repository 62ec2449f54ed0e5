// The zod schema of TrustFigures, so a stored report (a session file, a results file's report) is parsed at the
// boundary; a compile-time check below keeps it and the computed type the same shape.
import { z } from 'zod';
import type { TrustFigures } from './figures';

const FigureSchema = z.object({
  value: z.number().nullable(),
  lo: z.number().nullable(),
  hi: z.number().nullable(),
  n: z.number().min(0),
  method: z.string(),
  undefinedReason: z.string().optional(),
});

const Share = z.number().min(0).max(1);
const count = z.number().int().min(0);

const CeilingSchema = z.object({
  alpha: z.object({
    nominal: FigureSchema.optional(),
    ordinal: FigureSchema.optional(),
    interval: FigureSchema.optional(),
    ratio: FigureSchema.optional(),
  }),
  fleiss: FigureSchema,
  pairwiseKappa: FigureSchema,
  pairs: z.array(z.object({ a: z.string(), b: z.string(), kappa: FigureSchema })),
  judgeMajority: FigureSchema,
  judgeAgreement: FigureSchema,
  judgeAnnotators: z.array(z.object({ name: z.string(), kappa: FigureSchema })),
  bootstrap: z.object({ B: count, seed: z.number() }),
  intervals: z.enum(['bootstrap', 'linearised']),
});

const AltTestSchema = z.object({
  metric: z.enum(['accuracy', 'neg_rmse']),
  epsilon: z.number(),
  q: z.number(),
  rows: count,
  annotators: z.array(
    z.object({
      name: z.string(),
      n: count,
      judgeAdvantage: Share.nullable(),
      annotatorAdvantage: Share.nullable(),
      judgeAlignment: z.number().nullable(),
      annotatorAlignment: z.number().nullable(),
      t: z.number().nullable(),
      p: Share.nullable(),
      won: z.boolean(),
      leftOut: z.string().nullable(),
    }),
  ),
  tested: count,
  wins: count,
  omega: Share.nullable(),
  rho: Share.nullable(),
  verdict: z.enum(['can replace', 'cannot replace']).nullable(),
  reason: z.string(),
});

const StepSchema = z.object({ threshold: z.number(), rows: count, agreement: Share, bound: Share });

const ThresholdSchema = z.object({
  alpha: Share,
  delta: Share,
  minRows: count,
  threshold: z.number().nullable(),
  eligible: count,
  rows: count,
  coverage: Share,
  agreement: Share.nullable(),
  bound: Share.nullable(),
  tested: count,
  failed: StepSchema.nullable(),
});

const CascadeSchema = z.object({
  alpha: Share,
  delta: Share,
  deltaPerJudge: Share,
  lastAnswersAll: z.boolean(),
  judges: z.array(
    z.object({
      name: z.string(),
      price: z.number().min(0),
      threshold: z.number().nullable(),
      reached: count,
      settled: count,
      certified: count,
      agreement: Share.nullable(),
      bound: Share.nullable(),
    }),
  ),
  rows: count,
  coverage: Share,
  certifiedCoverage: Share,
  guaranteedAgreement: Share.nullable(),
  agreement: Share.nullable(),
  costPerRow: z.number().min(0),
  strongestCostPerRow: z.number().min(0),
  saving: z.number().nullable(),
});

const MeanSchema = z.object({ value: z.number(), lo: z.number(), hi: z.number(), se: z.number().min(0) });

const PpiSchema = z.object({
  n: count,
  N: count,
  lambda: Share,
  tuned: z.boolean(),
  ppi: MeanSchema,
  classical: MeanSchema,
  judgeMean: z.number(),
  widthRatio: z.number().min(0).nullable(),
});

export const TrustFiguresSchema = z.object({
  type: z.enum(['choice', 'score', 'noul']),
  classes: z.array(z.string()),
  annotators: z.array(z.string()),
  rows: z.object({
    total: count,
    labelled: count,
    pairable: count,
    complete: count,
    answered: count,
    judgeOnly: count,
  }),
  ceiling: CeilingSchema,
  altTest: AltTestSchema,
  threshold: ThresholdSchema,
  escalation: ThresholdSchema.optional(),
  cascade: CascadeSchema.nullable(),
  estimates: z.array(
    z.object({
      what: z.string(),
      kind: z.enum(['share', 'mean']),
      ppi: PpiSchema.nullable(),
      // Figures kept before the probabilities were used were computed on the hard labels.
      predictor: z.enum(['probability', 'label']).default('label'),
    }),
  ),
  conventions: z.array(z.string()),
  sentences: z.object({
    ceiling: z.string(),
    altTest: z.string(),
    threshold: z.string(),
    cascade: z.string().nullable(),
    estimates: z.array(z.string()),
  }),
});

// The schema and the computed type must agree both ways: a field added to one and not the other fails to compile.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
export const SCHEMA_MATCHES_TYPE: Same<z.infer<typeof TrustFiguresSchema>, TrustFigures> = true;
