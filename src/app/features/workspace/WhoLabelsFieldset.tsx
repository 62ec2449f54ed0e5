// Who labels a published queue: anyone in the workspace, or only the labellers ticked here.
import type { Person } from '../../../contract/workspace';

export interface WhoLabelsFieldsetProps {
  anyone: boolean;
  setAnyone: (anyone: boolean) => void;
  assigned: ReadonlySet<string>;
  setAssigned: (assigned: ReadonlySet<string>) => void;
  labellers: readonly Person[];
}

export function WhoLabelsFieldset({
  anyone,
  setAnyone,
  assigned,
  setAssigned,
  labellers,
}: WhoLabelsFieldsetProps) {
  return (
    <fieldset>
      <legend>Who labels</legend>
      <label>
        <input
          type="radio"
          checked={anyone}
          onChange={() => setAnyone(true)}
          data-testid="workspace.publish.any"
        />{' '}
        Anyone in the workspace
      </label>
      <label>
        <input
          type="radio"
          checked={!anyone}
          onChange={() => setAnyone(false)}
          data-testid="workspace.publish.assigned"
        />{' '}
        Only these people:
      </label>
      {!anyone &&
        (labellers.length === 0 ? (
          <span className="muted"> nobody has joined yet.</span>
        ) : (
          labellers.map((p) => (
            <label key={p.id}>
              <input
                type="checkbox"
                checked={assigned.has(p.id)}
                onChange={(e) => {
                  const next = new Set(assigned);
                  if (e.currentTarget.checked) next.add(p.id);
                  else next.delete(p.id);
                  setAssigned(next);
                }}
              />{' '}
              {p.name}
            </label>
          ))
        ))}
    </fieldset>
  );
}
