// The large-taxonomy screen: paste a list or tree of labels, see the groups of at most 255 it becomes, run the
// coarse-to-fine choice with the session's state and model, and read the path, the final distribution and the cost.
import type { ClientTarget } from '../../../client';
import type { State } from '../../../contract';
import type { TaxonomyPlan } from '../../../core/taxonomy';
import { proxyTarget } from '../../queries/targets';
import { useWorkbench } from '../../stores/workbench';
import { ModelPicker } from '../../queries/ModelPicker';
import { GroupPreview } from './GroupPreview';
import { TaxonomyResultView } from './TaxonomyResultView';
import { NO_TAXONOMY, TaxonomyFields } from './TaxonomyFields';
import { useTaxonomy } from './taxonomyStore';
import { useTaxonomyRun } from './useTaxonomyRun';
import './taxonomy.css';

export interface TaxonomyScreenProps {
  targetId: string;
  /** Where requests go; the proxy's route for the target unless a test says otherwise. */
  resolveTarget?: (targetId: string) => ClientTarget;
}

/** The whole screen. */
export function TaxonomyScreen({ targetId, resolveTarget = proxyTarget }: TaxonomyScreenProps) {
  const { status, steps, result, error } = useTaxonomy();
  // The input is part of the session document, so the session's autosave, export and share link carry it.
  const taxonomy = useWorkbench((s) => s.doc.taxonomy) ?? NO_TAXONOMY;
  const setModel = useWorkbench((s) => s.setModel);
  const { model, session, planned, blocker, start } = useTaxonomyRun(targetId, resolveTarget, taxonomy);

  return (
    <div className="taxonomy-screen" data-testid="taxonomy.screen">
      <section className="taxonomy-input panel" aria-labelledby="taxonomy-heading">
        <h2 id="taxonomy-heading">Large taxonomy</h2>
        <p className="muted">
          A choice question takes at most 255 labels. Paste more, as a list or a tree: the workbench groups
          them and asks one request per level, the groups first, then the labels of the chosen group.
        </p>
        <TaxonomyFields taxonomy={taxonomy} />
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
        <TaxonomyRunBar
          running={status === 'running'}
          cancelled={status === 'cancelled'}
          asked={steps.length}
          plan={planned.plan}
          blocker={blocker}
          onRun={start}
        />
      </section>
      <div className="taxonomy-side">
        <GroupPreview parsed={planned.parsed} plan={planned.plan} />
        <TaxonomyResultView status={status} steps={steps} result={result} error={error} />
      </div>
    </div>
  );
}

interface TaxonomyRunBarProps {
  running: boolean;
  cancelled: boolean;
  /** Requests answered so far in this run. */
  asked: number;
  plan: TaxonomyPlan;
  blocker: string | null;
  onRun: () => void;
}

/** Run (or Cancel while running), and a line: the request under way, what blocks a run, or how many it takes. */
function TaxonomyRunBar({ running, cancelled, asked, plan, blocker, onRun }: TaxonomyRunBarProps) {
  return (
    <div className="taxonomy-input__run">
      {running ? (
        <button type="button" onClick={useTaxonomy.getState().cancel} data-testid="taxonomy.cancel">
          Cancel
        </button>
      ) : (
        <button
          type="button"
          className="primary"
          disabled={blocker !== null}
          onClick={onRun}
          data-testid="taxonomy.run"
        >
          Run
        </button>
      )}
      <span className="muted" role="status" data-testid="taxonomy.status">
        {running
          ? `Request ${asked + 1} of up to ${plan.maxRequests}…`
          : cancelled
            ? 'Cancelled.'
            : (blocker ?? `${plan.maxRequests} request${plan.maxRequests === 1 ? '' : 's'} at most.`)}
      </span>
    </div>
  );
}

/** The first words of the state, for the sentence that says which state runs. */
function preview(state: State): string {
  const text = typeof state === 'string' ? state : JSON.stringify(state);
  return text.length > 120 ? `${text.slice(0, 119)}…` : text;
}
