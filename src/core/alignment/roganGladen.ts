// Corrected prevalence (Rogan and Gladen 1978): the share the judge finds, corrected for its sensitivity and
// specificity measured on the labelled rows. Applied to the whole file; on the labelled rows alone it only gives back
// the human share.

/** Rogan-Gladen: (apparent + specificity - 1) / (sensitivity + specificity - 1), clipped to [0, 1]. */
export function roganGladen(apparent: number, sensitivity: number, specificity: number): number | null {
  const youden = sensitivity + specificity - 1;
  if (youden <= 0) return null;
  return Math.min(1, Math.max(0, (apparent + specificity - 1) / youden));
}

/** Why the correction is undefined, when it is. */
export const ROGAN_GLADEN_UNDEFINED =
  'The judge is no better than chance on the labelled rows (sensitivity + specificity ≤ 1), so its finding cannot be corrected.';
