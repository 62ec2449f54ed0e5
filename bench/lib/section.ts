// What a bench section returns, for the summary table of bench/main.ts.

/** A section's headline figures and whether it met its targets. */
export interface SectionResult {
  section: string;
  ok: boolean;
  figures: Record<string, number | string>;
}
