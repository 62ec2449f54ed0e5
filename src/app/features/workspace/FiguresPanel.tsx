// The owner's figures of a queue, live: "Can the judge replace a person?" for each question (the human ceiling, the
// alt-test, the certified threshold), computed in the page by src/core/trust from the labels the server sends, and
// per labeller: labels given, the median time per label, agreement with the others so far. Every figure says which
// labels it used: each person apart, the majority, or the settled label.
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { FiguresBasisSchema } from '../../../contract/workspace';
import type { FiguresBasis, FiguresResponse } from '../../../contract/workspace';
import { errorText, plural } from '../../../contract/text';
import { trustFigures } from '../../../core/trust';
import type { TrustFigures } from '../../../core/trust';
import { BASIS_WORDS, trustDataFromWire } from '../../../core/workspace/trustWire';
import { queueFiguresQueryOptions } from '../../queries/workspace';
import { useWorkspaceUi } from './workspaceStore';
import { ActiveEstimate } from '../../components/ActiveEstimate';
import type { Questions } from '../../../contract';

const BASIS_CHOICES: { basis: FiguresBasis; text: string }[] = [
  { basis: 'settled', text: 'Settled labels (else the majority)' },
  { basis: 'majority', text: 'The majority of each row' },
  { basis: 'each', text: 'Each person apart' },
];

const share = (x: number | null): string => (x === null ? '—' : `${Math.round(x * 100)}%`);
const seconds = (x: number | null): string =>
  x === null ? '—' : `${x < 10 ? x.toFixed(1) : Math.round(x)} s`;

/** Each question's trust figures, or the sentence why they could not be computed. */
function useTrust(data: FiguresResponse | undefined): [string, TrustFigures | string][] {
  return useMemo(
    () =>
      Object.entries(data?.trust ?? {}).map(([name, wire]) => {
        try {
          return [name, trustFigures(trustDataFromWire(wire))];
        } catch (error) {
          return [name, errorText(error)];
        }
      }),
    [data],
  );
}

export function FiguresPanel({
  queueId,
  live,
  questions,
}: {
  queueId: string;
  live: boolean;
  questions: Questions;
}) {
  const basis = useWorkspaceUi((s) => s.basis);
  const setBasis = useWorkspaceUi((s) => s.setBasis);
  const figures = useQuery(queueFiguresQueryOptions(queueId, basis));
  const trust = useTrust(figures.data);
  const used = BASIS_WORDS[figures.data?.basis ?? basis];
  return (
    <section
      className="panel workspace-figures"
      aria-labelledby="workspace-figures-title"
      data-testid="workspace.figures"
    >
      <h3 id="workspace-figures-title">Figures as people label</h3>
      <p className="muted">
        <label>
          Read{' '}
          <select
            value={basis}
            onChange={(e) => setBasis(FiguresBasisSchema.parse(e.currentTarget.value))}
            data-testid="workspace.figures.basis"
          >
            {BASIS_CHOICES.map((c) => (
              <option key={c.basis} value={c.basis}>
                {c.text}
              </option>
            ))}
          </select>
        </label>{' '}
        <span role="status" data-testid="workspace.figures.live">
          {live ? 'Live: updates as people label.' : 'Not live: reconnecting…'}
        </span>
      </p>
      {figures.error && (
        <p role="alert" className="error">
          {errorText(figures.error)}
        </p>
      )}
      {figures.data && (
        <>
          <p data-testid="workspace.figures.labels">
            {plural(figures.data.labels, 'label')} so far on {plural(figures.data.keys.length, 'row')}. Every
            figure below used {used}.
          </p>
          <LabellerTable data={figures.data} />
          <QueueActiveEstimate data={figures.data} questions={questions} />
          <TrustSections trust={trust} used={used} />
        </>
      )}
    </section>
  );
}

function LabellerTable({ data }: { data: FiguresResponse }) {
  if (data.labellers.length === 0) return <p className="muted">Nobody has labelled yet.</p>;
  return (
    <table className="workspace-table" data-testid="workspace.figures.labellers">
      <caption className="muted">
        Per labeller (agreement: each person apart, on rows two people labelled)
      </caption>
      <thead>
        <tr>
          <th scope="col">Labeller</th>
          <th scope="col">Labels</th>
          <th scope="col">Median time per label</th>
          <th scope="col">Agrees with the others</th>
        </tr>
      </thead>
      <tbody>
        {data.labellers.map((l) => (
          <tr key={l.person} data-testid={`workspace.figures.labeller.${l.name}`}>
            <th scope="row">{l.name}</th>
            <td>{l.labels}</td>
            <td>{seconds(l.medianSeconds)}</td>
            <td>
              {share(l.agreement)}{' '}
              {l.pairs > 0 ? <span className="muted">({plural(l.pairs, 'pair')})</span> : null}
              {l.agreesWithNoOne && (
                <strong className="error" data-testid={`workspace.figures.nobody.${l.name}`}>
                  {' '}
                  agrees with no one so far
                </strong>
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** A queue in active order: the estimate of its target from the labels so far, and what the order is valid for. */
function QueueActiveEstimate({ data, questions }: { data: FiguresResponse; questions: Questions }) {
  if (data.active === undefined) return null;
  const order = data.active;
  if (order === null)
    return (
      <p className="muted" data-testid="workspace.figures.active">
        Rows go out in active order: the estimate shows from two labels given in that order.
      </p>
    );
  const definition = questions[order.question];
  if (!definition) return null;
  return (
    <section className="workspace-trust" data-testid="workspace.figures.active">
      <h4>
        Active order <span className="muted">({order.question}; from the majority of each row)</span>
      </h4>
      <ActiveEstimate
        definition={definition}
        target={order.target}
        estimate={{ ...order, active: order.estimate }}
      />
      <p className="muted">
        The figures above read labels the order chose, leaning to the rows the judge is least sure of: the
        estimate here is the one this order is valid for.
      </p>
    </section>
  );
}

/** "Can the judge replace a person?" for each question, from the labels on the basis read. */
function TrustSections({ trust, used }: { trust: [string, TrustFigures | string][]; used: string }) {
  return (
    <>
      {trust.map(([name, t]) => (
        <section key={name} className="workspace-trust" data-testid={`workspace.trust.${name}`}>
          <h4>
            Can the judge replace a person?{' '}
            <span className="muted">
              ({name}; from {used})
            </span>
          </h4>
          {typeof t === 'string' ? (
            <p className="error">{t}</p>
          ) : (
            <>
              <p className="muted">
                {plural(t.annotators.length, 'annotator')} · {t.rows.labelled} rows labelled,{' '}
                {t.rows.pairable} by two or more
              </p>
              <p data-testid={`workspace.trust.ceiling.${name}`}>{t.sentences.ceiling}</p>
              <p data-testid={`workspace.trust.verdict.${name}`}>
                <strong>{t.altTest.verdict === null ? 'No verdict. ' : ''}</strong>
                {t.sentences.altTest}
              </p>
              <p data-testid={`workspace.trust.threshold.${name}`}>{t.sentences.threshold}</p>
            </>
          )}
        </section>
      ))}
    </>
  );
}
