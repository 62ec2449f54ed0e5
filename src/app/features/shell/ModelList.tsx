// The selected target's models, listed through the proxy by React Query.
import { useQuery } from '@tanstack/react-query';
import { modelsQueryOptions } from '../../queries/models';

/** The model aliases a target offers, as chips with their descriptions on hover. */
export function ModelList({ targetId }: { targetId: string }) {
  const models = useQuery(modelsQueryOptions(targetId));
  if (models.isPending) {
    return (
      <span className="muted" data-testid="shell.modelsLoading">
        Loading models…
      </span>
    );
  }
  if (models.isError) {
    // One line in the top bar, the whole sentence on demand: a long error never wraps the bar under its menus.
    return (
      <details className="models-error" data-testid="shell.modelsError">
        <summary className="error-text">Models unavailable</summary>
        <p className="models-error__text" role="status">
          {models.error.message}
        </p>
      </details>
    );
  }
  if ('unlisted' in models.data) {
    return (
      <span
        className="muted models-note"
        data-testid="shell.modelsUnlisted"
        title="This server lists no models: type the model id its documentation gives."
      >
        This server lists no models: type the model id its documentation gives.
      </span>
    );
  }
  return (
    <ul className="model-list" data-testid="shell.models" aria-label="Models">
      {models.data.models.map((m) => (
        <li key={m.name} className="model-chip" data-testid="shell.model" title={modelTitle(m)}>
          {m.name}
        </li>
      ))}
    </ul>
  );
}

const modelTitle = (m: { description?: string; release_date?: string }): string =>
  [m.description, m.release_date && `Released ${m.release_date}`].filter(Boolean).join(' · ');
