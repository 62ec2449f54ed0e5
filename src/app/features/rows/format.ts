// How the rows screen writes numbers: counts with separators and durations (money: formatCost in the contract).
// Numbers and dates in the browser's locale (one locale across the app), with its thousands separators.

const INTEGER = new Intl.NumberFormat();

/** 12,345 */
export const formatCount = (n: number): string => INTEGER.format(Math.round(n));

/** "1 h 02 min", "3 min 05 s", "12 s", "<1 s". */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms)) return '—';
  const s = Math.round(ms / 1000);
  if (s < 1) return '<1 s';
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min ${String(s % 60).padStart(2, '0')} s`;
  return `${Math.floor(m / 60)} h ${String(m % 60).padStart(2, '0')} min`;
}

/** "2.4 MB" */
export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} kB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}

/** A probability or confidence as the contract rounds it: 0.72 */
export const formatProbability = (x: number | null): string => (x === null ? '' : x.toFixed(2));

/** A date and time for the run list. */
export const formatWhen = (ms: number): string =>
  new Date(ms).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** What the progress says about reused answers: "4,812 answers reused from earlier runs, not billed." */
export function reuseText(p: { reused: number; reusedEarlier: number; partlyReused: number }): string {
  const repeats = p.reused - p.reusedEarlier;
  const parts = [
    ...(p.reusedEarlier > 0 ? [`${formatCount(p.reusedEarlier)} answers reused from earlier runs`] : []),
    ...(repeats > 0 ? [`${formatCount(repeats)} repeated rows answered once`] : []),
  ];
  const whole = parts.length ? `${parts.join('; ')}, not billed.` : '';
  const partly =
    p.partlyReused > 0
      ? `${formatCount(p.partlyReused)} rows sent only the questions with no stored answer.`
      : '';
  return [whole, partly].filter(Boolean).join(' ');
}
