// The plan before it runs: how the paste was read, the groups the first request offers (with the labels each holds),
// and how many requests a run takes.
import type { ParsedTaxonomy, PlanOption, TaxonomyPlan } from '../../../core/taxonomy';

const FORMAT_NAME = { list: 'a list', indent: 'a tree (indentation)', paths: 'a tree (paths)' } as const;
const NOTES_SHOWN = 5;

const count = (n: number, word: string): string => `${n.toLocaleString()} ${word}${n === 1 ? '' : 's'}`;

export interface GroupPreviewProps {
  parsed: ParsedTaxonomy;
  plan: TaxonomyPlan;
}

function OptionRow({ option }: { option: PlanOption }) {
  if (option.kind === 'leaf')
    return (
      <li className="taxonomy-group" data-testid="taxonomy.group" data-kind="label">
        <span className="taxonomy-group__name">{option.key}</span> <span className="muted">label</span>
      </li>
    );
  return (
    <li className="taxonomy-group" data-testid="taxonomy.group" data-kind="group">
      <details>
        <summary>
          <span className="taxonomy-group__name">{option.key}</span>{' '}
          <span className="muted num">
            {count(option.leafCount, 'label')}
            {option.auto ? ' · automatic group' : ''}
          </span>
        </summary>
        <p className="taxonomy-group__description">{option.description}</p>
      </details>
    </li>
  );
}

/** The preview, or a hint while nothing is pasted. */
export function GroupPreview({ parsed, plan }: GroupPreviewProps) {
  if (parsed.leafCount === 0) {
    return (
      <section className="taxonomy-preview panel" aria-label="Groups">
        <p className="muted">The groups appear here as you paste.</p>
      </section>
    );
  }
  const groups = plan.root.options.filter((o) => o.kind === 'group').length;
  const oneRequest = plan.maxRequests === 1;
  return (
    <section className="taxonomy-preview panel" aria-labelledby="taxonomy-preview-heading">
      <h3 id="taxonomy-preview-heading">
        {oneRequest ? 'One request' : `${plan.root.options.length} options in the first request`}
      </h3>
      <p data-testid="taxonomy.summary">
        {count(parsed.leafCount, 'label')} read as {FORMAT_NAME[parsed.format]}
        {parsed.groupCount > 0 ? ` with ${count(parsed.groupCount, 'group')}` : ''}.{' '}
        {oneRequest
          ? 'They fit in one choice question: no grouping needed.'
          : `The first request chooses among ${count(groups, 'group')}${
              groups < plan.root.options.length ? ' and labels' : ''
            }; a run takes at most ${count(plan.maxRequests, 'request')}.`}
      </p>
      {parsed.notes.length > 0 && (
        <ul className="taxonomy-notes" data-testid="taxonomy.notes">
          {parsed.notes.slice(0, NOTES_SHOWN).map((n) => (
            <li key={`${n.line}-${n.message}`}>
              {n.line > 0 ? `Line ${n.line}: ` : ''}
              {n.message}
            </li>
          ))}
          {parsed.notes.length > NOTES_SHOWN && <li>{parsed.notes.length - NOTES_SHOWN} more notes.</li>}
        </ul>
      )}
      {!oneRequest && (
        <ol className="taxonomy-groups">
          {plan.root.options.map((o) => (
            <OptionRow key={o.key} option={o} />
          ))}
        </ol>
      )}
    </section>
  );
}
