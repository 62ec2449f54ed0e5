// One question's label columns: a select per annotator's column, then an empty one that adds another; how several
// annotators combine; and, for a score, where its level numbers start.
import type { Question } from '../../../contract';
import { annotatorOf } from '../../../core/labels/annotators';
import type { LabelColumnEdits } from './useLabelColumnEdits';

interface ColumnSlotProps {
  name: string;
  column: string;
  at: number;
  adding: boolean;
  id: string;
  edits: LabelColumnEdits;
  disabled: boolean | undefined;
}

/** The label that names a slot: the first annotator's, a further one's, or the one that adds an annotator. */
function SlotLabel({ name, at, adding }: Pick<ColumnSlotProps, 'name' | 'at' | 'adding'>) {
  if (at === 0)
    return (
      <>
        Human label of <code>{name}</code>
      </>
    );
  if (adding)
    return (
      <>
        Another annotator’s column for <code>{name}</code>
      </>
    );
  return (
    <>
      Annotator {at + 1}’s column for <code>{name}</code>
    </>
  );
}

/** One annotator's column of a question, chosen among the columns still free. */
function ColumnSlot({ name, column, at, adding, id, edits, disabled }: ColumnSlotProps) {
  return (
    <span className="rows-labels__question">
      <label htmlFor={id}>
        <SlotLabel name={name} at={at} adding={adding} />
      </label>
      <select
        id={id}
        value={column}
        disabled={disabled}
        data-testid={`rows.labels.column.${name}${at === 0 ? '' : adding ? '.add' : `.${at + 1}`}`}
        onChange={(e) => edits.setColumn(name, at, e.currentTarget.value)}
      >
        <option value="">None</option>
        {edits.choices(column || undefined).map((c) => (
          <option key={c} value={c}>
            {c}
          </option>
        ))}
      </select>
    </span>
  );
}

export interface LabelQuestionColumnsProps {
  name: string;
  question: Question;
  /** The form's id base, so each select's label points at it. */
  base: string;
  edits: LabelColumnEdits;
  disabled: boolean | undefined;
}

/** The columns that hold people's labels of one question. */
export function LabelQuestionColumns({ name, question, base, edits, disabled }: LabelQuestionColumnsProps) {
  const mine = edits.specsOf(name);
  // One select per column of the question, then an empty one that adds another annotator's column.
  const slots = [...mine.map((l) => l.column), ...(mine.length > 0 ? [''] : [])];
  if (slots.length === 0) slots.push('');
  return (
    <div className="rows-labels__question">
      {slots.map((column, at) => {
        const adding = at > 0 && at === mine.length;
        const id = `${base}-${name}${at > 0 ? `-${at}` : ''}`;
        const slot = { name, column, at, adding, id, edits, disabled };
        return <ColumnSlot key={adding ? '+' : at} {...slot} />;
      })}
      {mine.length > 1 && (
        <p className="muted" data-testid={`rows.labels.annotators.${name}`}>
          {mine.length} annotators ({mine.map((l) => annotatorOf(l)).join(', ')}): a row’s label is their
          majority; a tie goes to the column listed first.
        </p>
      )}
      {mine.length > 0 && question.type === 'score' && (
        <label className="rows-check">
          <input
            type="checkbox"
            disabled={disabled}
            checked={mine[0]!.levelBase === 1}
            onChange={(e) => edits.setLevelBase(name, e.currentTarget.checked ? 1 : 0)}
          />
          Level numbers start at 1
        </label>
      )}
    </div>
  );
}
