// `report --ledger <session file>`: the variant ledger of an app session export, read beside a results file. It counts
// the variants recorded for the labelled set of the report's rows and widens the headline figures' intervals for that
// count: with K variants tried, the interval of the best one's figure must hold for all K at once.
import { readFileSync } from 'node:fs';
import { headlineFigure, sidakCritical } from '../core/alignment/countedFamily';
import { Z95 } from '../core/alignment/intervals';
import { EMPTY_LEDGER, recordVariant, variantsTried } from '../core/alignment/ledger';
import type { VariantLedger } from '../core/alignment/ledger';
import type { Figure } from '../core/alignment';
import { parseImportFile } from '../core/sessionFile';
import type { Questions } from '../contract';
import { InputError } from './inputs';

/** Every session's ledger of an export file, as one (a variant counted in any session is counted). */
export function readLedger(file: string): VariantLedger {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new InputError(`--ledger ${file} cannot be read: ${(error as Error).message}`);
  }
  const parsed = parseImportFile(text);
  if (!parsed.ok) throw new InputError(`--ledger ${file}: ${parsed.message}`);
  return parsed.sessions.reduce<VariantLedger>(
    (all, s) => ({
      entries: (s.ledger?.entries ?? []).reduce((l, e) => recordVariant(l, e), all).entries,
      seals: [
        ...all.seals,
        ...(s.ledger?.seals ?? []).filter((x) => !all.seals.some((y) => y.setKey === x.setKey)),
      ],
    }),
    EMPTY_LEDGER,
  );
}

const f2 = (x: number): string => (Math.abs(x) < 0.005 ? '0.00' : x.toFixed(2));

/**
 * The lines a report prints for a ledger: which labelled set it counted (the one recorded with the report's number of
 * rows, else the one with the most variants, said so), how many variants and confirmations, and each question's
 * headline figure with its interval widened by Šidák's critical value for that count.
 */
export function ledgerLines(
  file: string,
  ledger: VariantLedger,
  rows: number,
  questions: Questions | null,
  figures: ReadonlyMap<string, Figure>,
): string[] {
  const sets = [...new Set(ledger.entries.map((e) => e.setKey))];
  if (sets.length === 0) return [`The ledger of ${file} records no variant: nothing to count.`];
  const tried = (key: string): number => variantsTried(ledger, key, 'explore');
  const matching = sets.filter((k) => ledger.entries.some((e) => e.setKey === k && e.rows === rows));
  const pool = matching.length > 0 ? matching : sets;
  const setKey = pool.reduce((a, b) => (tried(b) > tried(a) ? b : a));
  const count = tried(setKey);
  const confirmed = variantsTried(ledger, setKey, 'confirm');
  const critical = sidakCritical(count);
  const which =
    matching.length > 0
      ? `the labelled set of ${rows.toLocaleString('en-US')} rows`
      : `no set of ${rows.toLocaleString('en-US')} rows is recorded, so the set with the most variants`;
  const lines = [
    `The ledger of ${file} counts ${count} variant${count === 1 ? '' : 's'} (the first run included) on ${which} (${setKey})` +
      `${confirmed > 0 ? `, and ${confirmed} confirmed on its sealed rows` : ''}. ` +
      `With ${count} counted, each interval below holds for all of them at once: Šidák's critical value ${critical.toFixed(2)} instead of 1.96, valid whatever their correlation.`,
  ];
  for (const [name, question] of Object.entries(questions ?? {})) {
    const key = `${name}.${headlineFigure(question)}`;
    const figure = figures.get(key);
    if (!figure || figure.value === null || figure.lo === null || figure.hi === null) continue;
    const v = figure.value;
    const widen = critical / Z95;
    lines.push(
      `${key} ${f2(v)} (95% CI ${f2(figure.lo)} to ${f2(figure.hi)}; adjusted for ${count} variant${count === 1 ? '' : 's'}: ${f2(v - (v - figure.lo) * widen)} to ${f2(v + (figure.hi - v) * widen)})`,
    );
  }
  return lines;
}
