// The sentence a paired difference is read as, apart from the computation so the page can say it without loading the
// bootstrap (that runs in the alignment worker).
import { intervalText, signedText } from './figureWords';
import type { PairedDifference } from './variants';

/** "kappa +0.08 (95% CI +0.02 to +0.14)". */
export function differenceSentence(d: PairedDifference): string {
  const f = d.difference;
  if (f.value === null) return `${d.key}: ${f.undefinedReason ?? 'undefined'}`;
  const ci = f.lo === null || f.hi === null ? 'no interval' : `95% CI ${intervalText(f.lo, f.hi, 2)}`;
  return `${d.key} ${signedText(f.value, 2)} (${ci})`;
}
