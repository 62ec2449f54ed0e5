// The model picker as the page draws it: the target's aliases, or any versioned id typed in, checked as it is typed.
// It takes the model list as props; queries/ModelPicker.tsx binds it to the target's list.
import { useId } from 'react';
import { classifyModelId, localFileOfModel, modelIdProblem } from '../../contract';
import type { ModelList, TargetInfo } from '../../contract';

export interface ModelPickerProps {
  targetId: string;
  value: string;
  onChange: (model: string) => void;
  /** A problem to show instead of the picker's own check (e.g. the service's 422 on `model`). */
  problem?: string | null;
  /** The problem is the service's refusal (said in the answers): the field shows a "refused" mark, not the sentence. */
  refusedByService?: boolean;
  /** The versioned id the last run resolved to, offered as a pin when the value is an alias. */
  resolved?: string;
  label?: string;
  /** Id of the text field, so a problem list can move focus to it. */
  inputId?: string;
}

/** What the target offers: its model list once read (`unlisted` when it has none) and the model file it runs. */
export interface ModelChoices {
  models: (ModelList & { unlisted?: true }) | undefined;
  /** True once the list is read, so an empty field is not judged against a list still on its way. */
  modelsLoaded: boolean;
  modelFile: TargetInfo['modelFile'];
}

const KIND_NOTE = {
  alias: {
    text: 'alias · moves',
    title: 'An alias moves to new versions over time; pin a versioned id for comparable results.',
  },
  versioned: { text: 'pinned', title: 'A versioned id pins one exact model version.' },
  'product-line': { text: 'product line', title: 'A product line names no model; add the patch version.' },
  named: { text: 'listed', title: "A model this target's list offers by name; it has no version in its id." },
  unknown: { text: 'unknown', title: 'Not an alias from the list nor a versioned id.' },
} as const;

/** A text field with the aliases as suggestions (a native combobox: keyboard and screen readers work as usual). */
export function ModelPickerView({
  value,
  onChange,
  problem,
  refusedByService = false,
  resolved,
  label = 'Model',
  inputId,
  models,
  modelsLoaded,
  modelFile,
}: Omit<ModelPickerProps, 'targetId'> & ModelChoices) {
  const id = useId();
  const fieldId = inputId ?? `${id}-input`;
  const { trimmed, kind, shown, refused, note, pin, offerFile } = readModelField({
    value,
    problem,
    refusedByService,
    resolved,
    models,
    modelsLoaded,
    modelFile,
  });

  return (
    <div className="model-picker" data-testid="workbench.modelPicker">
      <label htmlFor={fieldId} className="toolbar-label">
        {label}
      </label>
      <input
        id={fieldId}
        className="model-picker__input"
        data-testid="workbench.model"
        list={`${id}-list`}
        value={value}
        spellCheck={false}
        autoComplete="off"
        aria-invalid={shown ? true : undefined}
        aria-describedby={shown ? `${id}-problem` : undefined}
        placeholder="model-latest"
        onChange={(e) => onChange(e.target.value)}
      />
      <datalist id={`${id}-list`}>
        {models?.models.map((m) => (
          <option key={m.name} value={m.name}>
            {[m.description, m.release_date].filter(Boolean).join(' · ')}
          </option>
        ))}
      </datalist>
      {note && (
        <span
          className={`model-kind model-kind--${refused ? 'unknown' : kind}`}
          title={note.title}
          data-testid="workbench.modelKind"
        >
          {note.text}
        </span>
      )}
      <ModelOffers trimmed={trimmed} pin={pin} offerFile={offerFile} onChange={onChange} />
      {shown && (
        <span
          id={`${id}-problem`}
          // The service's refusal is read out with the field but shown once, in the answers.
          className={refused ? 'visually-hidden' : 'field-problem'}
          role="status"
          data-testid="workbench.modelProblem"
        >
          {shown}
        </span>
      )}
    </div>
  );
}

type FieldInputs = Pick<ModelPickerProps, 'value' | 'problem' | 'refusedByService' | 'resolved'> &
  ModelChoices;

/** What the field says of its value: its kind, the problem shown, the tag beside it and the one-click offers. */
function readModelField({
  value,
  problem,
  refusedByService,
  resolved,
  models,
  modelsLoaded,
  modelFile,
}: FieldInputs) {
  const listed = models?.models.map((m) => m.name) ?? [];
  const trimmed = value.trim();
  const kind = classifyModelId(trimmed, listed);
  const shown = problem ?? (trimmed === '' || modelsLoaded ? modelIdProblem(value, listed) : null);
  // A model the service refused is not "pinned", whatever its shape says; the full sentence is in the answers once.
  const refused = Boolean(problem) && refusedByService === true;
  // On a server that lists no models, a typed id is simply what is sent: no "unknown" tag (the top bar says why).
  const typed = kind === 'unknown' && models !== undefined && 'unlisted' in models;
  const note = refused
    ? { text: 'refused', title: problem ?? '' }
    : trimmed && !typed
      ? KIND_NOTE[kind]
      : null;
  const pin = kind === 'alias' && resolved && resolved !== trimmed ? resolved : null;
  // On a target that runs a model file, a lexical id gets a one-click way to ask the model instead.
  const offerFile = modelFile && localFileOfModel(trimmed) === null ? modelFile : null;
  return { trimmed, kind, shown, refused, note, pin, offerFile };
}

interface ModelOffersProps {
  trimmed: string;
  pin: string | null;
  offerFile: ModelChoices['modelFile'] | null;
  onChange: (model: string) => void;
}

/** One-click changes of the model: pin the version an alias resolved to, or ask the target's model file. */
function ModelOffers({ trimmed, pin, offerFile, onChange }: ModelOffersProps) {
  return (
    <>
      {pin && (
        <button
          type="button"
          className="link-button"
          onClick={() => onChange(pin)}
          title={`The last run resolved ${trimmed} to ${pin}.`}
        >
          Pin {pin}
        </button>
      )}
      {offerFile && (
        <button
          type="button"
          className="link-button"
          onClick={() => onChange(offerFile.alias)}
          title={`${trimmed || 'This model'} is the lexical judge; ${offerFile.fileName} is a language model run on this machine.`}
          data-testid="workbench.useModelFile"
        >
          Use {offerFile.fileName}
        </button>
      )}
    </>
  );
}
