// The questions as a form: add, remove, reorder, rename; edit instructions, options, levels and yes/no texts. Every
// change is an in-place edit of the JSON text, so the JSON view keeps the formatting the form did not touch.
import { useMemo, useState } from 'react';
import { MAX_LEVELS, MAX_OPTIONS, MIN_LEVELS, MIN_OPTIONS, QUESTION_TYPES } from '../../../contract';
import type { QuestionType } from '../../../contract';
import {
  addQuestion,
  changeQuestionType,
  insertItem,
  insertProperty,
  isQuestionType,
  moveEntry,
  nameProblem,
  parseJson,
  questionTemplate,
  readQuestions,
  removeValue,
  renameProperty,
  setValue,
  syntaxSentence,
  uniqueName,
} from '../../../core/questionsDocument';
import type { FormQuestion } from '../../../core/questionsDocument';
import { CommitInput } from '../../components/CommitInput';
import { KIND_NAME } from '../../components/answers/kindName';
import { isRecord } from '../../../contract/guards';

export interface QuestionFormProps {
  text: string;
  onChange: (text: string) => void;
  /** Switches the questions pane to the JSON view (for what the form cannot edit). */
  onShowJson: () => void;
}

type Edit = (change: (text: string) => string) => void;

const isPlain = (v: unknown): v is string | null | undefined =>
  v === null || v === undefined || typeof v === 'string';

/** The form view of the questions document. */
export function QuestionForm({ text, onChange, onShowJson }: QuestionFormProps) {
  const parsed = useMemo(() => parseJson(text), [text]);
  const [error, setError] = useState<string | null>(null);
  const [focusName, setFocusName] = useState<string | null>(null);

  const edit: Edit = (change) => {
    try {
      onChange(change(text));
      setError(null);
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    }
  };

  if (!parsed.ok && !parsed.empty) {
    return (
      <div className="question-form question-form--blocked" data-testid="form.blocked">
        <p role="status">The form edits valid JSON only. {syntaxSentence('questions', parsed)}</p>
        <button type="button" onClick={onShowJson}>
          Show the JSON
        </button>
      </div>
    );
  }
  const questions = parsed.ok ? readQuestions(parsed.value) : [];
  if (questions === null) {
    return (
      <div className="question-form question-form--blocked" data-testid="form.blocked">
        <p role="status">
          The questions must be a JSON object of named questions; the JSON view shows what it holds.
        </p>
        <button type="button" onClick={onShowJson}>
          Show the JSON
        </button>
      </div>
    );
  }
  const names = questions.map((q) => q.name);

  const add = (kind: QuestionType): void =>
    edit((t) => {
      const added = addQuestion(t, kind);
      setFocusName(added.name);
      return added.text;
    });

  return (
    <div className="question-form" data-testid="form">
      {error && (
        <p className="field-problem" role="alert">
          {error}
        </p>
      )}
      {questions.length === 0 && <p className="muted">No questions yet: add one below.</p>}
      {questions.map((q, index) => (
        <QuestionFields
          key={q.name}
          question={q}
          index={index}
          names={names}
          edit={edit}
          autoFocus={q.name === focusName}
          onShowJson={onShowJson}
        />
      ))}
      <div className="question-form__add" role="group" aria-label="Add a question">
        <span className="muted">Add a question:</span>
        {QUESTION_TYPES.map((kind) => (
          <button key={kind} type="button" onClick={() => add(kind)} data-testid={`form.add.${kind}`}>
            + {kind === 'noul' ? 'yes/no (noul)' : kind}
          </button>
        ))}
      </div>
    </div>
  );
}

interface QuestionFieldsProps {
  question: FormQuestion;
  index: number;
  names: readonly string[];
  edit: Edit;
  autoFocus: boolean;
  onShowJson: () => void;
}

/** One question's fields. */
function QuestionFields({ question: q, index, names, edit, autoFocus, onShowJson }: QuestionFieldsProps) {
  const legendId = `qf-${index}-legend`;

  return (
    <fieldset className="qf" data-testid="form.question" data-name={q.name} aria-labelledby={legendId}>
      <legend id={legendId} className="qf__legend">
        <span className="qf__index num">{index + 1}</span> {q.name}
      </legend>
      <div className="qf__row">
        <NameField question={q} names={names} edit={edit} autoFocus={autoFocus} />
        <TypeField question={q} edit={edit} />
        <QuestionOrder name={q.name} index={index} count={names.length} edit={edit} />
      </div>

      {q.extraKeys.length > 0 && <UnknownFields question={q} edit={edit} />}

      {isPlain(q.instructions) ? (
        <label className="qf__field qf__field--block">
          <span>Instructions</span>
          <textarea
            rows={2}
            value={q.instructions ?? ''}
            data-testid="form.instructions"
            placeholder="What to judge, e.g. Does the message convey urgency? Name state fields in backticks."
            onChange={(e) => edit((t) => setValue(t, [q.name, 'instructions'], e.target.value))}
          />
        </label>
      ) : (
        <StructuredNote what="Instructions" onShowJson={onShowJson} />
      )}

      <QuestionCriteria question={q} edit={edit} onShowJson={onShowJson} />
    </fieldset>
  );
}

/** The question's name, renamed in place when the new one is free. */
function NameField({
  question: q,
  names,
  edit,
  autoFocus,
}: Pick<QuestionFieldsProps, 'question' | 'names' | 'edit' | 'autoFocus'>) {
  const others = names.filter((n) => n !== q.name);
  return (
    <label className="qf__field">
      <span>Name</span>
      <CommitInput
        value={q.name}
        autoFocus={autoFocus}
        spellCheck={false}
        data-testid="form.name"
        onCommit={(name) => {
          const problem = nameProblem(name, others, 'question');
          if (problem) return problem;
          edit((t) => renameProperty(t, [q.name], name));
          return null;
        }}
      />
    </label>
  );
}

/** The question's type; a type the service does not know stays shown until one is chosen. */
function TypeField({ question: q, edit }: Pick<QuestionFieldsProps, 'question' | 'edit'>) {
  const kind = isQuestionType(q.type) ? q.type : null;
  return (
    <label className="qf__field">
      <span>Type</span>
      <select
        value={typeof q.type === 'string' ? q.type : ''}
        data-testid="form.type"
        onChange={(e) => {
          const next = e.target.value;
          if (isQuestionType(next)) edit((t) => changeQuestionType(t, q.name, next));
        }}
      >
        {!kind && <option value={typeof q.type === 'string' ? q.type : ''}>{typeDescription(q.type)}</option>}
        {QUESTION_TYPES.map((k) => (
          <option key={k} value={k}>
            {/* People read "yes/no"; the JSON's own word stays beside it, since the editor shows it. */}
            {k === 'noul' ? `${KIND_NAME.noul} (noul)` : k}
          </option>
        ))}
      </select>
    </label>
  );
}

/** Move the question up or down the document, or remove it. */
function QuestionOrder({
  name,
  index,
  count,
  edit,
}: {
  name: string;
  index: number;
  count: number;
  edit: Edit;
}) {
  return (
    <div className="qf__actions" role="group" aria-label={`Order of ${name}`}>
      <button
        type="button"
        className="icon-button"
        aria-label={`Move ${name} up`}
        disabled={index === 0}
        onClick={() => edit((t) => moveEntry(t, [], index, index - 1))}
      >
        ↑
      </button>
      <button
        type="button"
        className="icon-button"
        aria-label={`Move ${name} down`}
        disabled={index === count - 1}
        onClick={() => edit((t) => moveEntry(t, [], index, index + 1))}
      >
        ↓
      </button>
      <button
        type="button"
        className="icon-button danger"
        aria-label={`Remove ${name}`}
        onClick={() => edit((t) => removeValue(t, [name]))}
      >
        ✕
      </button>
    </div>
  );
}

/** Fields the service would reject, each with a button that removes it. */
function UnknownFields({ question: q, edit }: Pick<QuestionFieldsProps, 'question' | 'edit'>) {
  return (
    <p className="field-problem">
      Fields the service does not know: {q.extraKeys.join(', ')}.{' '}
      {q.extraKeys.map((k) => (
        <button
          key={k}
          type="button"
          className="link-button"
          onClick={() => edit((t) => removeValue(t, [q.name, k]))}
        >
          Remove {k}
        </button>
      ))}
    </p>
  );
}

/** The criteria editor that fits the question's type (none for a type the service does not know). */
function QuestionCriteria({ question: q, edit, onShowJson }: CriteriaProps) {
  const kind = isQuestionType(q.type) ? q.type : null;
  return (
    <>
      {kind === 'choice' && <ChoiceOptions question={q} edit={edit} onShowJson={onShowJson} />}
      {kind === 'score' && <ScoreLevels question={q} edit={edit} onShowJson={onShowJson} />}
      {kind === 'noul' && <NoulCriteria question={q} edit={edit} onShowJson={onShowJson} />}
    </>
  );
}

const typeDescription = (t: unknown): string =>
  t === undefined ? '(no type)' : `${typeof t === 'string' ? t : JSON.stringify(t)} (not a type)`;

function StructuredNote({ what, onShowJson }: { what: string; onShowJson: () => void }) {
  return (
    <p className="muted qf__note">
      {what} hold structured JSON here;{' '}
      <button type="button" className="link-button" onClick={onShowJson}>
        edit them in the JSON view
      </button>
      .
    </p>
  );
}

interface CriteriaProps {
  question: FormQuestion;
  edit: Edit;
  onShowJson: () => void;
}

/** Replaces criteria of the wrong shape with the kind's starting criteria. */
function ResetCriteria({ question: q, edit, kind }: CriteriaProps & { kind: QuestionType }) {
  const template = (questionTemplate(kind) as { criteria: Parameters<typeof setValue>[2] }).criteria;
  return (
    <p className="field-problem">
      The criteria {q.criteria === undefined ? 'are missing' : `do not fit a ${kind} question`}.{' '}
      <button
        type="button"
        className="link-button"
        onClick={() => edit((t) => setValue(t, [q.name, 'criteria'], template))}
      >
        Start {kind} criteria
      </button>
    </p>
  );
}

function ChoiceOptions(props: CriteriaProps) {
  const { question: q, edit, onShowJson } = props;
  const [focusLabel, setFocusLabel] = useState<string | null>(null);
  if (!isRecord(q.criteria)) return <ResetCriteria {...props} kind="choice" />;
  const entries = Object.entries(q.criteria);
  const labels = entries.map(([l]) => l);
  const path = [q.name, 'criteria'];
  return (
    <fieldset className="qf__criteria" data-testid="form.options">
      <legend>
        Options{' '}
        <span className="muted num">
          {entries.length} label{entries.length === 1 ? '' : 's'} ({MIN_OPTIONS}–{MAX_OPTIONS})
        </span>
      </legend>
      <ol className="qf__list">
        {entries.map(([label, description], i) => (
          <li key={label} className="qf__item" data-testid="form.option">
            <CommitInput
              value={label}
              aria-label={`Label ${i + 1} of ${q.name}`}
              className="qf__label-input"
              spellCheck={false}
              autoFocus={label === focusLabel}
              onCommit={(next) => {
                const problem = nameProblem(
                  next,
                  labels.filter((l) => l !== label),
                  'label',
                );
                if (problem) return problem;
                edit((t) => renameProperty(t, [...path, label], next));
                return null;
              }}
            />
            {isPlain(description) ? (
              <input
                aria-label={`Description of ${label}`}
                value={description ?? ''}
                placeholder="(no description)"
                onChange={(e) =>
                  edit((t) => setValue(t, [...path, label], e.target.value === '' ? null : e.target.value))
                }
              />
            ) : (
              <button type="button" className="link-button" onClick={onShowJson}>
                structured description: edit in JSON
              </button>
            )}
            <ItemActions
              name={`option ${label}`}
              index={i}
              count={entries.length}
              onMove={(to) => edit((t) => moveEntry(t, path, i, to))}
              onRemove={() => edit((t) => removeValue(t, [...path, label]))}
            />
          </li>
        ))}
      </ol>
      <button
        type="button"
        disabled={entries.length >= MAX_OPTIONS}
        onClick={() => {
          const label = uniqueName(labels, 'option');
          setFocusLabel(label);
          edit((t) => insertProperty(t, path, label, null));
        }}
      >
        + option
      </button>
    </fieldset>
  );
}

function ScoreLevels(props: CriteriaProps) {
  const { question: q, edit } = props;
  if (!Array.isArray(q.criteria)) return <ResetCriteria {...props} kind="score" />;
  const levels = q.criteria;
  const path = [q.name, 'criteria'];
  return (
    <fieldset className="qf__criteria" data-testid="form.levels">
      <legend>
        Levels, lowest first{' '}
        <span className="muted num">
          {levels.length} level{levels.length === 1 ? '' : 's'} ({MIN_LEVELS}–{MAX_LEVELS})
        </span>
      </legend>
      <ol className="qf__list" start={0}>
        {levels.map((level, i) => (
          <li key={i} className="qf__item" data-testid="form.level">
            <span className="qf__level num" aria-hidden="true">
              {i}
            </span>
            {typeof level === 'object' && level !== null ? (
              <button type="button" className="link-button" onClick={props.onShowJson}>
                structured level: edit in JSON
              </button>
            ) : (
              <input
                aria-label={`Level ${i} of ${q.name}`}
                value={level === null ? '' : String(level)}
                placeholder="A descriptive phrase, not a number"
                onChange={(e) => edit((t) => setValue(t, [...path, i], e.target.value))}
              />
            )}
            <ItemActions
              name={`level ${i}`}
              index={i}
              count={levels.length}
              onMove={(to) => edit((t) => moveEntry(t, path, i, to))}
              onRemove={() => edit((t) => removeValue(t, [...path, i]))}
            />
          </li>
        ))}
      </ol>
      <button
        type="button"
        disabled={levels.length >= MAX_LEVELS}
        onClick={() => edit((t) => insertItem(t, path, ''))}
      >
        + level
      </button>
    </fieldset>
  );
}

function NoulCriteria(props: CriteriaProps) {
  const { question: q, edit, onShowJson } = props;
  if (q.criteria !== undefined && !isRecord(q.criteria)) return <ResetCriteria {...props} kind="noul" />;
  const criteria = q.criteria ?? {};
  const field = (side: 'true' | 'false', label: string) => {
    const value = criteria[side];
    if (!isPlain(value)) return <StructuredNote what={label} onShowJson={onShowJson} />;
    return (
      <label className="qf__field qf__field--block">
        <span>{label}</span>
        <input
          value={value ?? ''}
          placeholder={
            side === 'true' ? 'What a yes looks like (optional)' : 'What a no looks like (optional)'
          }
          onChange={(e) =>
            edit((t) =>
              e.target.value === ''
                ? removeValue(t, [q.name, 'criteria', side])
                : setValue(t, [q.name, 'criteria', side], e.target.value),
            )
          }
        />
      </label>
    );
  };
  return (
    <fieldset className="qf__criteria" data-testid="form.noul">
      <legend>Yes and no</legend>
      {field('true', 'Yes means')}
      {field('false', 'No means')}
    </fieldset>
  );
}

interface ItemActionsProps {
  name: string;
  index: number;
  count: number;
  onMove: (to: number) => void;
  onRemove: () => void;
}

function ItemActions({ name, index, count, onMove, onRemove }: ItemActionsProps) {
  return (
    <span className="qf__item-actions">
      <button
        type="button"
        className="icon-button"
        aria-label={`Move ${name} up`}
        disabled={index === 0}
        onClick={() => onMove(index - 1)}
      >
        ↑
      </button>
      <button
        type="button"
        className="icon-button"
        aria-label={`Move ${name} down`}
        disabled={index === count - 1}
        onClick={() => onMove(index + 1)}
      >
        ↓
      </button>
      <button type="button" className="icon-button danger" aria-label={`Remove ${name}`} onClick={onRemove}>
        ✕
      </button>
    </span>
  );
}
