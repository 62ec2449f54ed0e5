// "Check target": lists the target's models and sends one small request per question type through the proxy, then
// shows in plain sentences what the server does differently from the contract. Runs only when asked (it spends tokens).
import { useMutation } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { worstSeverity } from '../../../contract';
import type { CheckSeverity } from '../../../contract';
import { targetCheckMutationOptions } from '../../queries/targets';
import type { TargetInfo } from '../../queries/targets';
import './checkTarget.css';

const SEVERITY_TEXT: Record<CheckSeverity, string> = {
  ok: 'as the contract says',
  normalised: 'smoothed by the workbench',
  difference: 'different',
  problem: 'fails',
};

const SUMMARY: Record<CheckSeverity, string> = {
  ok: 'It behaves as the contract says.',
  normalised: 'It works; its differences are smoothed by the workbench.',
  difference: 'It works, with the differences below.',
  problem: 'Some requests failed.',
};

/** The button, and the report of the last check of this target. */
export function CheckTarget({ target, model }: { target: TargetInfo; model: string }) {
  const check = useMutation(targetCheckMutationOptions(target.id));
  const [open, setOpen] = useState(false);
  const headingId = useId();
  const report = check.data?.targetId === target.id ? check.data : undefined;
  return (
    <div className="check-target">
      <button
        type="button"
        data-testid="shell.checkTarget"
        disabled={check.isPending || target.keyMissing !== null}
        title={
          target.keyMissing
            ? `Set the key first (${target.keyMissing}).`
            : `Lists the models and sends three small requests (a few hundred input tokens) with ${model.trim() || 'the first listed model'}.`
        }
        onClick={() => {
          setOpen(true);
          check.mutate(model.trim() || undefined);
        }}
      >
        {check.isPending ? 'Checking…' : 'Check target'}
      </button>
      {open && (check.isPending || report || check.isError) && (
        <section className="check-report" aria-labelledby={headingId} data-testid="shell.checkReport">
          <h2 id={headingId} className="check-report__title">
            Check of {target.label}
            {report?.model ? ` with ${report.model}` : ''}
          </h2>
          {check.isPending && (
            <p role="status" className="muted">
              Checking {target.host}…
            </p>
          )}
          {check.isError && (
            <p role="alert" className="error-text">
              The check could not run: {check.error.message}
            </p>
          )}
          {report && !check.isPending && (
            <>
              <p
                role="status"
                data-testid="shell.checkSummary"
                data-severity={worstSeverity(report.findings)}
              >
                {SUMMARY[worstSeverity(report.findings)]}
              </p>
              <ul className="check-report__list">
                {report.findings.map((f, i) => (
                  <li
                    key={i}
                    className={`check-finding check-finding--${f.severity}`}
                    data-testid="shell.checkFinding"
                    data-severity={f.severity}
                  >
                    <span className="check-finding__severity">{SEVERITY_TEXT[f.severity]}</span> {f.text}
                  </li>
                ))}
              </ul>
            </>
          )}
          <button type="button" className="link-button" onClick={() => setOpen(false)}>
            Close
          </button>
        </section>
      )}
    </div>
  );
}
