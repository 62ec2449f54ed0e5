// One answer card: the question's name and kind, then the chart of its kind.
import { KIND_NAME } from './kindName';
import type { Answer } from '../../../contract';
import { ChoiceCard } from './ChoiceCard';
import { NoulCard } from './NoulCard';
import { RefusalCard } from './RefusalCard';
import { ScoreCard } from './ScoreCard';
import './answers.css';

export interface AnswerCardProps {
  name: string;
  answer: Answer;
  /** The question as sent (its criteria give descriptions, tie order and yes/no texts). */
  question?: unknown;
  probabilityMax?: number;
}

const criteriaOf = (question: unknown): unknown =>
  question && typeof question === 'object' ? (question as { criteria?: unknown }).criteria : undefined;

/** A card for any answer kind. */
export function AnswerCard({ name, answer, question, probabilityMax }: AnswerCardProps) {
  const criteria = criteriaOf(question);
  const headingId = `answer-${name}`;
  return (
    <section
      className="answer-card"
      aria-labelledby={headingId}
      data-testid="answers.card"
      data-name={name}
      data-kind={answer.type}
    >
      <header className="answer-card__header">
        <h3 id={headingId} className="answer-card__name">
          {name}
        </h3>
        <span
          className={`kind-tag kind-tag--${answer.type}`}
          title={
            answer.type === 'refusal'
              ? 'The server declined to answer this question'
              : `"type": "${answer.type}" in the request`
          }
        >
          {KIND_NAME[answer.type]}
        </span>
      </header>
      {answer.type === 'choice' && (
        <ChoiceCard name={name} answer={answer} criteria={criteria} probabilityMax={probabilityMax} />
      )}
      {answer.type === 'score' && (
        <ScoreCard name={name} answer={answer} criteria={criteria} probabilityMax={probabilityMax} />
      )}
      {answer.type === 'noul' && <NoulCard name={name} answer={answer} criteria={criteria} />}
      {answer.type === 'refusal' && <RefusalCard name={name} answer={answer} />}
    </section>
  );
}
