// Human labels, below core/rows and core/alignment: label columns and their value tables, reading a label, the labels
// a row carries, which columns are never sent, and the class an answer predicts (what a label is compared with).
export {
  LabelColumnSchema,
  LabelValueSchema,
  labelColumnSummary,
  labelText,
  rawText,
  readLabel,
  validLabel,
} from './values';
export type { LabelColumn, LabelColumnSummary, LabelReading, LabelValue, ValueTableLine } from './values';
export { excludedColumns, labelColumnsOf } from './columns';
export {
  AnnotationsSchema,
  annotatorOf,
  annotatorsByQuestion,
  majorityOf,
  readRowLabels,
  withAnnotation,
} from './annotators';
export type { Annotations, RowLabels } from './annotators';
export type { LabelEdit } from './columns';
export { UNNAMED_ANNOTATOR, applyLabelEdits } from './labelEdits';
export {
  argmax,
  classesOf,
  distributionOf,
  expectedLevel,
  expectedRounded,
  predictedClass,
  roundedLevel,
  writeDistribution,
  yesProbability,
} from './prediction';
