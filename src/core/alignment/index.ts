// The alignment figures' public face: the entry point, variant comparison, label values and the shapes they return.
export { computeAlignment, conventionsOf, withDefaults } from './compute';
export type { AlignmentReport, Disagreement, Prevalence, QuestionReport } from './compute';
export { compareVariants, questionChanges } from './variants';
export { differenceSentence } from './differenceSentence';
export type { PairedDifference, QuestionComparison, VariantComparison } from './variants';
export {
  LabelColumnSchema,
  LabelValueSchema,
  labelColumnSummary,
  labelText,
  readLabel,
  rawText,
  validLabel,
} from '../labels';
export type { LabelColumn, LabelColumnSummary, LabelReading, ValueTableLine } from '../labels';
export { DEFAULT_OPTIONS } from './types';
export type { AlignRow, AlignmentOptions, Figure, LabelValue } from './types';
