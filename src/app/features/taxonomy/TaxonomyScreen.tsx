// The large-taxonomy screen: paste a list or tree of labels, see the groups of at most 255 it becomes, run the
// coarse-to-fine choice with the session's state and model, and read the path, the final distribution and the cost.
import { useQuery } from '@tanstack/react-query';
import { useDeferredValue, useId, useMemo } from 'react';
import { evaluate } from '../../../client';
import type { ClientTarget } from '../../../client';
import { modelIdProblem } from '../../../contract';
import type { EvaluateRequest, State } from '../../../contract';
import { parseJson } from '../../../core/questionsDocument';
import { checkConversation } from '../../../core/conversation/check';
import { renderConversation } from '../../../core/conversation/render';
import { planTaxonomy } from '../../../core/taxonomy';
import type { TaxonomyDoc } from '../../../core/session';
import { modelsQueryOptions } from '../../queries/models';
import { proxyTarget } from '../../queries/targets';
import { useWorkbench } from '../../stores/workbench';
import { ModelPicker } from '../../queries/ModelPicker';
import { GroupPreview } from './GroupPreview';
import { TaxonomyResultView } from './TaxonomyResultView';
import { useTaxonomy } from './taxonomyStore';
import './taxonomy.css';

const FORMATS: readonly { value: TaxonomyDoc['format']; label: string }[] = [
  { value: 'auto', label: 'Detect' },
  { value: 'list', label: 'One label a line' },
  { value: 'indent', label: 'Tree by indentation' },
  { value: 'paths', label: 'Paths (a > b > c)' },
];

const PLACEHOLDER = `One label a line:
Card refund
Bank refund
…

or a tree, by indentation or paths:
Billing > Refunds > Card refund
Billing > Invoices`;

/** The session's state as a request sends it, or why it cannot be sent. */
function useSessionState(): { state: State | null; problem: string | null } {
  const stateText = useWorkbench((s) => s.doc.stateText);
  const stateMode = useWorkbench((s) => s.doc.stateMode);
  return useMemo(() => {
    if (stateMode === 'text')
      return stateText.trim() === ''
        ? { state: null, problem: 'The state on the main screen is empty.' }
        : { state: stateText, problem: null };
    // A conversation is judged as the transcript a target of the interface's form receives.
    if (stateMode === 'conversation') {
      const checked = checkConversation(stateText);
      return checked.ok
        ? { state: renderConversation(checked.conversation), problem: null }
        : { state: null, problem: 'The conversation on the main screen has problems: fix them there first.' };
    }
    const parsed = parseJson(stateText);
    if (!parsed.ok || parsed.value === null || typeof parsed.value !== 'object')
      return {
        state: null,
        problem: 'The state on the main screen is not valid JSON fields: fix it there first.',
      };
    return { state: parsed.value as State, problem: null };
  }, [stateText, stateMode]);
}

const NO_TAXONOMY: TaxonomyDoc = { text: '', format: 'auto', instructions: '' };

export interface TaxonomyScreenProps {
  targetId: string;
  /** Where requests go; the proxy's route for the target unless a test says otherwise. */
  resolveTarget?: (targetId: string) => ClientTarget;
}

/** The whole screen. */
export function TaxonomyScreen({ targetId, resolveTarget = proxyTarget }: TaxonomyScreenProps) {
  const { status, steps, result, error } = useTaxonomy();
  const { run, cancel } = useTaxonomy.getState();
  const { text, format, instructions } = useWorkbench((s) => s.doc.taxonomy) ?? NO_TAXONOMY;
  // The input is part of the session document, so the session's autosave, export and share link carry it.
  const editTaxonomy = (patch: Partial<TaxonomyDoc>): void =>
    useWorkbench
      .getState()
      .editDoc((doc) => ({ ...doc, taxonomy: { ...(doc.taxonomy ?? NO_TAXONOMY), ...patch } }));
  const setText = (value: string): void => editTaxonomy({ text: value });
  const setFormat = (value: TaxonomyDoc['format']): void => editTaxonomy({ format: value });
  const setInstructions = (value: string): void => editTaxonomy({ instructions: value });
  const model = useWorkbench((s) => s.doc.model);
  const setModel = useWorkbench((s) => s.setModel);
  const session = useSessionState();
  const models = useQuery(modelsQueryOptions(targetId));
  const listed = useMemo(() => models.data?.models.map((m) => m.name) ?? [], [models.data]);
  const ids = { input: useId(), format: useId(), instructions: useId() };

  // Parsing a long paste waits for typing to pause (a deferred value), so the text area stays responsive.
  const deferredText = useDeferredValue(text);
  const deferredFormat = useDeferredValue(format);
  const planned = useMemo(() => planTaxonomy(deferredText, deferredFormat), [deferredText, deferredFormat]);
  const modelProblem = models.isSuccess || model.trim() === '' ? modelIdProblem(model, listed) : null;
  const blocker =
    planned.plan.leafCount < 2 ? 'Paste at least two labels.' : (session.problem ?? modelProblem ?? null);
  const running = status === 'running';

  const start = (): void => {
    if (blocker || !session.state) return;
    const target = resolveTarget(targetId);
    void run({
      plan: planned.plan,
      state: session.state,
      instructions,
      model: model.trim(),
      evaluate: async (request: EvaluateRequest, signal?: AbortSignal) =>
        (await evaluate(target, request, signal ? { signal } : {})).response,
    });
  };

  return (
    <div className="taxonomy-screen" data-testid="taxonomy.screen">
      <section className="taxonomy-input panel" aria-labelledby="taxonomy-heading">
        <h2 id="taxonomy-heading">Large taxonomy</h2>
        <p className="muted">
          A choice question takes at most 255 labels. Paste more, as a list or a tree: the workbench groups
          them and asks one request per level, the groups first, then the labels of the chosen group.
        </p>
        <label htmlFor={ids.input}>Labels</label>
        <textarea
          id={ids.input}
          className="taxonomy-input__text"
          value={text}
          onChange={(e) => setText(e.currentTarget.value)}
          placeholder={PLACEHOLDER}
          spellCheck={false}
          rows={14}
          data-testid="taxonomy.input"
        />
        <div className="taxonomy-input__row">
          <label htmlFor={ids.format}>Read as</label>
          <select
            id={ids.format}
            value={format}
            onChange={(e) => setFormat(e.currentTarget.value as TaxonomyDoc['format'])}
            data-testid="taxonomy.format"
          >
            {FORMATS.map((f) => (
              <option key={f.value} value={f.value}>
                {f.label}
              </option>
            ))}
          </select>
        </div>
        <label htmlFor={ids.instructions}>Instructions</label>
        <input
          id={ids.instructions}
          type="text"
          value={instructions}
          onChange={(e) => setInstructions(e.currentTarget.value)}
          placeholder="Which label fits best?"
          data-testid="taxonomy.instructions"
        />
        <ModelPicker targetId={targetId} value={model} onChange={setModel} label="Model (the session's)" />
        <p className="muted taxonomy-input__state">
          The state is the session&apos;s, from the main screen
          {session.state !== null && (
            <>
              : <q data-testid="taxonomy.state">{preview(session.state)}</q>
            </>
          )}
          .
        </p>
        <div className="taxonomy-input__run">
          {running ? (
            <button type="button" onClick={cancel} data-testid="taxonomy.cancel">
              Cancel
            </button>
          ) : (
            <button
              type="button"
              className="primary"
              disabled={blocker !== null}
              onClick={start}
              data-testid="taxonomy.run"
            >
              Run
            </button>
          )}
          <span className="muted" role="status" data-testid="taxonomy.status">
            {running
              ? `Request ${steps.length + 1} of up to ${planned.plan.maxRequests}…`
              : status === 'cancelled'
                ? 'Cancelled.'
                : (blocker ??
                  `${planned.plan.maxRequests} request${planned.plan.maxRequests === 1 ? '' : 's'} at most.`)}
          </span>
        </div>
      </section>
      <div className="taxonomy-side">
        <GroupPreview parsed={planned.parsed} plan={planned.plan} />
        <TaxonomyResultView status={status} steps={steps} result={result} error={error} />
      </div>
    </div>
  );
}

/** The first words of the state, for the sentence that says which state runs. */
function preview(state: State): string {
  const text = typeof state === 'string' ? state : JSON.stringify(state);
  return text.length > 120 ? `${text.slice(0, 119)}…` : text;
}
