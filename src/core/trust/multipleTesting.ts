// False discovery rate control over several p-values: Benjamini-Hochberg (1995) for independent tests, and
// Benjamini-Yekutieli (2001), which holds under any dependence by dividing q by the harmonic sum H_m. The alt-test
// uses BY: its per-annotator tests share the judge and the other annotators' labels.

/** Which hypotheses are rejected (by input position) by the step-up rule p_(i) <= i q' / m, q' = q or q / H_m. */
function stepUp(pValues: readonly number[], q: number): boolean[] {
  const m = pValues.length;
  const order = pValues.map((_, i) => i).sort((a, b) => pValues[a]! - pValues[b]! || a - b);
  let largest = -1;
  order.forEach((at, rank) => {
    if (pValues[at]! <= ((rank + 1) / m) * q) largest = rank;
  });
  const rejected = new Array<boolean>(m).fill(false);
  for (let rank = 0; rank <= largest; rank++) rejected[order[rank]!] = true;
  return rejected;
}

export const benjaminiHochberg = (pValues: readonly number[], q: number): boolean[] => stepUp(pValues, q);

/** The harmonic sum 1 + 1/2 + ... + 1/m. */
export function harmonic(m: number): number {
  let h = 0;
  for (let i = 1; i <= m; i++) h += 1 / i;
  return h;
}

export const benjaminiYekutieli = (pValues: readonly number[], q: number): boolean[] =>
  stepUp(pValues, q / harmonic(pValues.length));
