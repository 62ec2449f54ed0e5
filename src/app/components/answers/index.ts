// Answer cards: presentational, used by the workbench's answers pane and by the comparison view.
export { AnswerCard } from './AnswerCard';
export type { AnswerCardProps } from './AnswerCard';
export { ChoiceCard } from './ChoiceCard';
export { ScoreCard } from './ScoreCard';
export { NoulCard } from './NoulCard';
export { RefusalCard } from './RefusalCard';
