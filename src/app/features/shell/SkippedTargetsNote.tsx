// Entries of the targets file the server skipped (a bad field, an unknown preset): said on the page, one sentence each,
// since a user who added a target and does not see it in the picker would otherwise have to read the terminal.
import { useQuery } from '@tanstack/react-query';
import { targetProblemsQueryOptions } from '../../queries/targets';
import { plural } from '../../../core/words';

export function SkippedTargetsNote() {
  const problems = useQuery(targetProblemsQueryOptions()).data ?? [];
  if (problems.length === 0) return null;
  return (
    <section
      className="banner"
      role="note"
      aria-label="Targets not loaded"
      data-testid="shell.targetProblems"
    >
      <details className="banner-text">
        <summary>
          {plural(problems.length, 'problem')} in the targets file: what it names is not in the picker.
        </summary>
        <ul>
          {problems.map((p) => (
            <li key={p}>{p}</li>
          ))}
        </ul>
      </details>
    </section>
  );
}
