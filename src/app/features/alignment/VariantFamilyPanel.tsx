// Every variant counted, and the sealed rows: the best-of sentence of each question's family, each variant's change
// from the first run beside its interval adjusted for every variant the session's ledger counts on these rows, the
// seal of a share of the labelled rows, and confirmations on them. Figures come from useVariantFamily (the worker).
import { useEffect, useMemo, useState } from 'react';
import { figureName } from '../../../core/alignment/figureWords';
import { sealOf, variantsTried } from '../../../core/alignment/ledger';
import { labelledSetKey } from '../../../core/alignment/ledgerKeys';
import type { CountedFamily } from '../../../core/alignment/countedFamily';
import type { RowRun } from '../../../core/rows/records';
import { useRows } from '../../stores/rows';
import { useSessions } from '../../stores/sessions';
import { ledgerRunOf } from './sealedRows';
import { DEFAULT_SEAL_SHARE, familyRuns, useVariantFamily } from './variantFamilyStore';

/** Pause after the last change before the family is computed again (the comparison waits as long). */
const FAMILY_DEBOUNCE_MS = 300;

/** A signed change that never prints "−0.00". */
const signed = (x: number): string =>
  Math.abs(x) < 0.005 ? '0.00' : `${x > 0 ? '+' : '−'}${Math.abs(x).toFixed(2)}`;
const interval = (lo: number, hi: number): string => `${signed(lo)} to ${signed(hi)}`;
const plural = (n: number, word: string): string =>
  `${n.toLocaleString('en-US')} ${word}${n === 1 ? '' : 's'}`;

export interface VariantFamilyPanelProps {
  run: RowRun;
  runs: readonly RowRun[];
}

export function VariantFamilyPanel({ run, runs }: VariantFamilyPanelProps) {
  // A cascade's escalated judge answers only some rows: it has no family of variants.
  if (run.escalatedFrom) return null;
  return <FamilyOf run={run} runs={runs} />;
}

function FamilyOf({ run, runs }: VariantFamilyPanelProps) {
  const family = useVariantFamily();
  const compute = useVariantFamily((s) => s.compute);
  const version = useRows((s) => s.resultsVersion);
  const running = useRows((s) => s.running);
  const ledger = useSessions((s) => s.open?.ledger);
  const members = useMemo(() => familyRuns(run, runs), [run, runs]);
  const base = members[0]!;
  const setKey = labelledSetKey(ledgerRunOf(base));
  const seal = ledger ? sealOf(ledger, setKey) : undefined;
  const ledgerKey = JSON.stringify([ledger?.entries.length ?? 0, seal?.at ?? null]);

  useEffect(() => {
    if (running) return;
    const timer = setTimeout(() => void compute(run, useRows.getState().results(), runs), FAMILY_DEBOUNCE_MS);
    return () => clearTimeout(timer);
    // The ledger's count and seal are part of what is computed: a new entry or seal computes again.
  }, [run, runs, version, running, ledgerKey, compute]);

  const nameOf = (id: string): string => {
    const r = runs.find((x) => x.id === id) ?? (id === run.id ? run : undefined);
    if (!r) return 'a deleted run';
    return `${id === base.id ? 'the first run' : 'the variant'} of ${new Date(r.createdAt).toLocaleString()} · ${r.model}`;
  };
  const current = family.of?.baseId === base.id ? family.families : null;
  const count = family.of?.baseId === base.id ? family.count : null;
  const variants = members.slice(1);
  const best = current?.[0] ? current[0].family.variants[current[0].family.best] : undefined;

  return (
    <div className="align-family" data-testid="align.family">
      <h4>Every variant counted</h4>
      {family.computing && !current && <p role="status">Counting the variants…</p>}
      {count && (
        <p data-testid="align.family.count">
          {plural(count.tried, 'variant')} of the first run counted on these labelled rows by the session’s
          ledger.
          {count.deleted > 0 &&
            ` ${plural(count.deleted, 'variant')} of them ${count.deleted === 1 ? 'was' : 'were'} deleted: the ledger still counts ${count.deleted === 1 ? 'it' : 'them'}, but ${count.deleted === 1 ? 'its' : 'their'} rows cannot be read again, so the adjustment uses Šidák’s critical value for ${count.tried} (valid whatever their correlation with the others, and wider than the max-t of the ${count.present} present).`}
        </p>
      )}
      {current?.map((f) => (
        <FamilyTable key={f.question} family={f} nameOf={nameOf} />
      ))}
      <p className="muted">
        Each question is judged on one figure: Cohen’s kappa for a choice, quadratic weighted kappa for a
        score, accuracy for yes/no.
      </p>
      <SealSection run={run} runs={runs} variants={variants} best={best} nameOf={nameOf} />
      {family.error && <p role="alert">{family.error}</p>}
    </div>
  );
}

type SealSectionProps = VariantFamilyPanelProps & {
  variants: readonly RowRun[];
  best: string | undefined;
  nameOf: (id: string) => string;
};

/** The seal of the labelled rows, or the button that draws it; once sealed, confirmations on the sealed rows. */
function SealSection(props: SealSectionProps) {
  const { run } = props;
  const family = useVariantFamily();
  const version = useRows((s) => s.resultsVersion);
  const ledger = useSessions((s) => s.open?.ledger);
  const setKey = labelledSetKey(ledgerRunOf(run));
  const seal = ledger ? sealOf(ledger, setKey) : undefined;
  // Both kept here, above the two views: the share typed and the variant chosen outlive a change of seal.
  const [share, setShare] = useState(Math.round(DEFAULT_SEAL_SHARE * 100));
  const [chosen, setChosen] = useState<string>('');
  const labelled = useMemo(() => {
    void version;
    return useRows
      .getState()
      .results()
      .filter((r) => r.labels && Object.keys(r.labels).length > 0).length;
  }, [version]);
  if (seal) {
    const confirmations = ledger ? variantsTried(ledger, setKey, 'confirm') : 0;
    return (
      <SealedRows {...props} seal={seal} confirmations={confirmations} chosen={chosen} onChoose={setChosen} />
    );
  }
  return (
    <p>
      <label>
        Seal{' '}
        <input
          type="number"
          min={5}
          max={50}
          value={share}
          onChange={(e) => setShare(Number(e.currentTarget.value))}
          style={{ width: '4em' }}
          data-testid="align.seal.share"
        />
        % of the {plural(labelled, 'labelled row')}
      </label>{' '}
      <button
        type="button"
        disabled={labelled < 2 || !(share >= 5 && share <= 50)}
        onClick={() => family.seal(run, useRows.getState().results(), share / 100)}
        data-testid="align.seal.run"
      >
        Seal them
      </button>{' '}
      <span className="muted">
        Chosen at random within each label, once for these rows: variants are then compared on the others, and
        the sealed rows confirm one chosen variant.
      </span>
    </p>
  );
}

type SealedRowsProps = SealSectionProps & {
  seal: NonNullable<ReturnType<typeof sealOf>>;
  /** How many variants the ledger counts as confirmed on the sealed rows. */
  confirmations: number;
  chosen: string;
  onChoose: (id: string) => void;
};

/** The rows sealed, confirming one variant on them, and what the confirmations found. */
function SealedRows({
  run,
  runs,
  variants,
  best,
  nameOf,
  seal,
  confirmations,
  chosen,
  onChoose,
}: SealedRowsProps) {
  const family = useVariantFamily();
  const running = useRows((s) => s.running);
  const target = chosen && variants.some((v) => v.id === chosen) ? chosen : (best ?? variants[0]?.id ?? '');
  return (
    <div data-testid="align.seal">
      <p data-testid="align.seal.summary">
        {plural(seal.ids.length, 'labelled row')} sealed ({Math.round(seal.share * 100)}%, drawn at random
        within each label, seed {seal.seed}, {new Date(seal.at).toLocaleString()}). Variants are compared on
        the other rows; the sealed rows’ labels are not shown on this screen.
      </p>
      {variants.length > 0 && (
        <p>
          <label>
            Variant to confirm{' '}
            <select
              value={target}
              onChange={(e) => onChoose(e.currentTarget.value)}
              data-testid="align.confirm.variant"
            >
              {variants.map((v) => (
                <option key={v.id} value={v.id}>
                  {nameOf(v.id)}
                </option>
              ))}
            </select>
          </label>{' '}
          <button
            type="button"
            disabled={!target || family.confirming || running}
            onClick={() => void family.confirm(run, useRows.getState().results(), runs, target)}
            data-testid="align.confirm.run"
          >
            Confirm on the sealed rows
          </button>
        </p>
      )}
      <p data-testid="align.confirm.count">
        {plural(confirmations, 'variant')} confirmed on the sealed rows so far; each one counted widens the
        intervals below.
      </p>
      {family.confirming && <p role="status">Confirming…</p>}
      {family.confirmation && (
        <ConfirmationText
          families={family.confirmation.families}
          variantId={family.confirmation.variantId}
          nameOf={nameOf}
        />
      )}
    </div>
  );
}

function FamilyTable({ family: f, nameOf }: { family: CountedFamily; nameOf: (id: string) => string }) {
  const fam = f.family;
  return (
    <div data-testid={`align.family.${f.question}`}>
      <p data-testid={`align.family.sentence.${f.question}`} title={fam.method}>
        <code>{f.question}</code> ({figureName(f.figure)}, {plural(fam.rows, 'row')} every run answered with
        the same label): {fam.sentence}
      </p>
      <table className="align-table">
        <thead>
          <tr>
            <th scope="col">Variant</th>
            <th scope="col">Change from the first run</th>
            <th scope="col">95% CI, this pair alone</th>
            <th scope="col">95% CI adjusted for {plural(fam.tried, 'variant')}</th>
          </tr>
        </thead>
        <tbody>
          {fam.intervals.map((i, k) => (
            <tr key={fam.variants[k]} data-survives={i.adjustedLo > 0 || i.adjustedHi < 0 ? 'yes' : 'no'}>
              <th scope="row">{nameOf(fam.variants[k]!)}</th>
              <td>{signed(i.estimate)}</td>
              <td>{interval(i.lo, i.hi)}</td>
              <td data-testid={`align.family.adjusted.${f.question}.${k}`}>
                {interval(i.adjustedLo, i.adjustedHi)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function ConfirmationText({
  families,
  variantId,
  nameOf,
}: {
  families: CountedFamily[];
  variantId: string;
  nameOf: (id: string) => string;
}) {
  return (
    <ul data-testid="align.confirm.result">
      {families.map((f) => {
        const k = f.family.variants.indexOf(variantId);
        const i = f.family.intervals[k];
        if (!i) return null;
        return (
          <li key={f.question}>
            <code>{f.question}</code> on the {plural(f.family.rows, 'sealed row')}: {nameOf(variantId)}{' '}
            changes {figureName(f.figure)} by {signed(i.estimate)} from the first run (95% CI{' '}
            {interval(i.lo, i.hi)}; adjusted for {plural(f.family.tried, 'confirmation')}:{' '}
            {interval(i.adjustedLo, i.adjustedHi)}).{' '}
            {i.adjustedLo > 0
              ? 'The gain holds on the sealed rows.'
              : i.adjustedHi < 0
                ? 'It is worse on the sealed rows.'
                : 'The sealed rows do not confirm a change.'}
          </li>
        );
      })}
    </ul>
  );
}
