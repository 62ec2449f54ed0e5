// The variant ledger: every rubric variant run against a labelled set, counted, so the best of many is judged against
// how many were tried (simultaneous.ts). A labelled set is named by a key of its rows and labels; a share of its rows
// may be sealed (chosen at random within each label) for confirming one chosen variant, never for comparing.
import { z } from 'zod';
import { seededRandom } from '../../contract/random';

/** One variant run on a labelled set: exploring (compared on the open rows) or confirming on the sealed rows. */
export const LedgerEntrySchema = z.object({
  /** The run that answered the rows (a rows run id, or a results file's name on the command line). */
  runId: z.string().min(1),
  at: z.string(),
  /** Which labelled set: the same key for the same rows and labels. */
  setKey: z.string().min(1),
  rows: z.number().int().min(0),
  /** The questions asked and a hash of their wording, target and model: two runs with one hash are one variant. */
  questions: z.array(z.string()),
  variantKey: z.string().min(1),
  purpose: z.enum(['explore', 'confirm']),
});
export type LedgerEntry = z.infer<typeof LedgerEntrySchema>;

/** The sealed share of one labelled set: the seed and share reproduce it; the ids are kept as they were drawn. */
export const SealSchema = z.object({
  setKey: z.string().min(1),
  share: z.number().gt(0).lt(1),
  seed: z.number().int(),
  ids: z.array(z.string()),
  at: z.string(),
});
export type Seal = z.infer<typeof SealSchema>;

export const VariantLedgerSchema = z.object({
  entries: z.array(LedgerEntrySchema).default([]),
  seals: z.array(SealSchema).default([]),
});
export type VariantLedger = z.infer<typeof VariantLedgerSchema>;

export const EMPTY_LEDGER: VariantLedger = { entries: [], seals: [] };

/** The ledger with one more run; a run already counted is counted once. */
export function recordVariant(ledger: VariantLedger, entry: LedgerEntry): VariantLedger {
  if (ledger.entries.some((e) => e.runId === entry.runId && e.purpose === entry.purpose)) return ledger;
  return { ...ledger, entries: [...ledger.entries, entry] };
}

/** Distinct variants run on a labelled set for a purpose (two runs of one variant count once). */
export function variantsTried(
  ledger: VariantLedger,
  setKey: string,
  purpose: LedgerEntry['purpose'],
): number {
  return new Set(
    ledger.entries.filter((e) => e.setKey === setKey && e.purpose === purpose).map((e) => e.variantKey),
  ).size;
}

/** The seal of a labelled set, if one was drawn. */
export const sealOf = (ledger: VariantLedger, setKey: string): Seal | undefined =>
  ledger.seals.find((s) => s.setKey === setKey);

/**
 * Draws the sealed rows of a labelled set: `share` of each label's rows (rounded, at least one where a label has two
 * or more rows), by a seeded shuffle within the label, so the sealed rows keep the labels' proportions.
 */
export function drawSeal(
  rows: readonly { id: string; label: string }[],
  share: number,
  seed: number,
): string[] {
  if (!(share > 0 && share < 1)) throw new Error(`The sealed share must be between 0 and 1, not ${share}.`);
  const byLabel = new Map<string, string[]>();
  for (const r of rows) {
    const list = byLabel.get(r.label) ?? [];
    list.push(r.id);
    byLabel.set(r.label, list);
  }
  const random = seededRandom(seed);
  const sealed: string[] = [];
  for (const label of [...byLabel.keys()].sort()) {
    const ids = [...byLabel.get(label)!].sort();
    for (let i = ids.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [ids[i], ids[j]] = [ids[j]!, ids[i]!];
    }
    const take = ids.length < 2 ? 0 : Math.max(1, Math.round(share * ids.length));
    sealed.push(...ids.slice(0, take));
  }
  return sealed;
}

/** The ledger with a seal drawn for a labelled set (a set is sealed once: a second seal would let rows be re-drawn). */
export function sealSet(
  ledger: VariantLedger,
  setKey: string,
  rows: readonly { id: string; label: string }[],
  share: number,
  seed: number,
  at: string,
): VariantLedger {
  if (sealOf(ledger, setKey))
    throw new Error('These labelled rows are already sealed; a seal is drawn once.');
  return {
    ...ledger,
    seals: [...ledger.seals, { setKey, share, seed, ids: drawSeal(rows, share, seed), at }],
  };
}

/** Splits rows into the open ones (for comparing variants) and the sealed ones (for confirming), by id. */
export function splitBySeal<T extends { id: string }>(
  rows: readonly T[],
  seal: Seal | undefined,
): { open: T[]; sealed: T[] } {
  if (!seal) return { open: [...rows], sealed: [] };
  const ids = new Set(seal.ids);
  const open: T[] = [];
  const sealed: T[] = [];
  for (const r of rows) (ids.has(r.id) ? sealed : open).push(r);
  return { open, sealed };
}
