// A refused question: the server declined to answer it. Said in a sentence, with no chart and no number.
import type { RefusalAnswer } from '../../../contract';

export interface RefusalCardProps {
  name: string;
  answer: RefusalAnswer;
}

/** What a refusal means for this one question; the other answers of the run stand. */
export function RefusalCard({ name, answer }: RefusalCardProps) {
  const kind = answer.question_type ? `${answer.question_type} question` : 'question';
  return (
    <p className="answer-refusal" role="note" data-testid="answers.refusal">
      The model declined to answer the {kind} “{name}”: this is a refusal, not a probability. The other
      answers of this run stand; reword the question or its instructions to ask again.
    </p>
  );
}
