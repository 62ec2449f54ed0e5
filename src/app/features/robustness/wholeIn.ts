// The robustness dialog's number fields commit only whole numbers in their range.

/** Commits a whole number within [min, max], or says which numbers are allowed. */
export const wholeIn =
  (min: number, max: number, apply: (n: number) => void) =>
  (text: string): string | null => {
    const n = Number(text.trim());
    if (!Number.isInteger(n) || n < min || n > max) return `A whole number from ${min} to ${max}.`;
    apply(n);
    return null;
  };
