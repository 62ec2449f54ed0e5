// How the comparison's numbers read on screen: fixed decimals, a real minus sign, "same"/"differs" for top choices.

/** A distance in [0, 1] with three decimals ("0.510"): enough to tell 0.051 from 0.05 at a glance. */
export const formatDistance = (x: number): string => x.toFixed(3);

/** A signed difference with two decimals, like the contract's probabilities: "+0.10", "−0.02", "0.00". */
export function formatSigned(x: number): string {
  const rounded = Math.round((x + Number.EPSILON) * 100) / 100;
  if (rounded === 0) return '0.00';
  // U+2212 MINUS SIGN: reads as a minus to screen readers and lines up with the plus in tabular figures.
  return `${rounded > 0 ? '+' : '\u2212'}${Math.abs(rounded).toFixed(2)}`;
}

/** Parses a number shown by formatDistance or formatSigned back (used by tests reading the page). */
export const parseShown = (text: string): number =>
  Number(text.trim().replace('\u2212', '-').replace(/^\+/, ''));
