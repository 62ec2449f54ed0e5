// "Can the judge replace a person?": the human ceiling, the alt-test, a threshold with a guarantee, cascades and
// prediction-powered prevalence for one question (docs/trust.md). The entry point is trustFigures.
export { trustFigures, trustConventions, TRUST_DEFAULTS } from './figures';
export type { TrustFigures, TrustOptions } from './figures';
export { estimatesOf, PPI_PREDICTORS, predictorOf } from './estimates';
export type { PpiPredictor, TrustEstimate } from './estimates';
export { TrustFiguresSchema } from './schema';
export { MISSING, majorityOf, ratingsPerRow, rowCount, trustDataOf } from './ratings';
export type { TrustData, TrustType } from './ratings';
export { ceilingFigures, majorityRule } from './ceiling';
export { pairwiseKappa } from './pairwise';
export type { CeilingFigures } from './ceiling';
export { krippendorffAlpha } from './krippendorff';
export type { AlphaMetric } from './krippendorff';
export { fleissKappa } from './fleiss';
export { altTest, ALT_TEST_DEFAULTS } from './altTest';
export type { AltTest, AltTestAnnotator, AltTestOptions } from './altTest';
export { benjaminiHochberg, benjaminiYekutieli } from './multipleTesting';
export { clopperPearson, clopperPearsonUpper } from './clopperPearson';
export { guaranteedThreshold, THRESHOLD_DEFAULTS } from './guaranteedThreshold';
export type { GuaranteedThreshold, ThresholdOptions } from './guaranteedThreshold';
export { cascadeOf, planOf, route, settles } from './cascade';
export type { Cascade, CascadeJudgeInput, CascadeOptions, CascadePlan, CascadeStep } from './cascade';
export { PpiSums, ppiLambda, ppiLambdaOf, ppiMean, ppiOf } from './ppi';
export type { MeanEstimate, PpiMean } from './ppi';
export {
  altTestSentence,
  cascadeSentence,
  ceilingSentence,
  estimateSentence,
  figureText,
  thresholdSentence,
} from './sentences';
export { JUDGE_READING_DEFAULTS, SINGLE_ANNOTATOR, trustDataFromColumns } from './fromColumns';
export type { JudgeReading } from './fromColumns';
