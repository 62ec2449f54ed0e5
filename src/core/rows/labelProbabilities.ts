// Each label's probability of having been asked, per question labelled in active order (core/alignment/labelOrder.ts):
// the exports carry it beside the label, so a reader weighs each label as the page's estimate did.
/** Per question labelled in active order: each labelled row's probability of having been asked, by row number. */
export type LabelProbabilities = Readonly<Record<string, ReadonlyMap<number, number>>>;

/** The probabilities of one row's labels, by question; null when it has none. */
export function rowProbabilities(
  row: { number: number },
  labelProbabilities: LabelProbabilities,
): Record<string, number> | null {
  const out: Record<string, number> = {};
  for (const [q, byRow] of Object.entries(labelProbabilities)) {
    const p = byRow.get(row.number);
    if (p !== undefined) out[q] = p;
  }
  return Object.keys(out).length > 0 ? out : null;
}
