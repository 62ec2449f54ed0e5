// What a failed send means for its row and for the run: a pure reading of the client's typed error, so the rules
// (401 stops the run, a 422 marks its row, a timeout is never re-sent on our own) are read in one place.
import { formatLoc } from '../../contract';
import type { FieldError } from '../../contract';
import type { AttemptReport, EvaluationErrorKind } from '../../contract/evaluateCall';
import { errorClause } from '../../contract/text';
import type { Halt, RowError, RowOutcome, RowStatus } from './records';

/** Rows put back in the queue after failures that billed nothing, before they are marked failed. */
export const MAX_REQUEUES = 2;

const ERROR_KINDS_THAT_STOP: ReadonlySet<string> = new Set(['auth']);

interface ErrorLike {
  kind: EvaluationErrorKind;
  message: string;
  /** The service's own sentence, when its body had one. */
  serviceMessage?: string;
  status?: number;
  fieldErrors: FieldError[];
  possiblyBilled: boolean;
  retryable: boolean;
  attempts: AttemptReport[];
}

const isErrorLike = (e: unknown): e is ErrorLike =>
  e instanceof Error &&
  typeof (e as Partial<ErrorLike>).kind === 'string' &&
  Array.isArray((e as Partial<ErrorLike>).attempts);

/**
 * What a refused row shows: the service's own sentence and the field it names. A row is data, not a form, so the
 * client's advice to fix a field and send again does not fit here.
 */
export function refusedRowMessage(
  error: Pick<ErrorLike, 'status' | 'fieldErrors' | 'serviceMessage' | 'message'>,
): string {
  const status = error.status === undefined ? '' : ` (${error.status})`;
  const fields = error.fieldErrors.map(
    (f) => `${f.loc.length === 0 ? 'the body' : formatLoc(f.loc)}: ${f.msg.replace(/\.$/, '')}`,
  );
  if (fields.length > 0)
    return `The service refused this row${status} at ${fields.slice(0, 3).join('; ')}${fields.length > 3 ? ` and ${fields.length - 3} more` : ''}.`;
  const said = error.serviceMessage?.trim();
  return said ? `The service refused this row${status}: ${said.replace(/\.$/, '')}.` : error.message;
}

const countBilled = (attempts: readonly AttemptReport[]): number =>
  attempts.filter((a) => a.possiblyBilled === true).length;

/** A row's counters before this send. */
export interface SendBase {
  attempts: number;
  possiblyBilledAttempts: number;
  requeues: number;
}

/** What the runner does with a failed row: its new outcome, where it goes in the queue, and what the run does. */
export interface FailureVerdict {
  outcome: RowOutcome;
  /** Back to the front of the queue (resent first), to the back (another try later), or not at all. */
  requeue: 'front' | 'back' | null;
  /** The run stops with this reason. */
  halt?: Halt;
  /** The failing streak: reset by a row's own fault, bumped by the service's, kept otherwise. */
  streak: 'reset' | 'bump' | 'keep';
  /** Not the client's error and never sent (the store failed first): the run stops on it unless already stopping. */
  notSent?: true;
}

/** Reads a failed send: `sent` says whether the request may have left before the error. */
export function classifyFailure(error: unknown, base: SendBase, now: number, sent: boolean): FailureVerdict {
  if (!isErrorLike(error) && sent) {
    // Not the client's typed error, after the request may have left: treat the outcome as unknown.
    return {
      outcome: {
        ...base,
        status: 'unknown',
        at: now,
        possiblyBilledAttempts: base.possiblyBilledAttempts + 1,
        error: { kind: 'unexpected', message: errorClause(error), fieldErrors: [], possiblyBilled: true },
      },
      requeue: null,
      streak: 'keep',
    };
  }
  if (!isErrorLike(error)) {
    // The store failed before sending, or the run stopped before the request left: the row was not sent.
    return {
      outcome: { ...base, status: 'pending', at: now },
      requeue: 'front',
      streak: 'keep',
      notSent: true,
    };
  }
  const rowError: RowError = {
    kind: error.kind,
    message: error.message,
    status: error.status,
    fieldErrors: error.fieldErrors,
    possiblyBilled: error.possiblyBilled,
  };
  const outcomeWith = (status: RowStatus, requeues = base.requeues): RowOutcome => ({
    status,
    at: now,
    attempts: base.attempts + error.attempts.length,
    possiblyBilledAttempts: base.possiblyBilledAttempts + countBilled(error.attempts),
    requeues,
    requestId: error.attempts.at(-1)?.requestId,
    error: rowError,
  });
  const status = error.status ?? 0;
  const stopWith = (reason: Halt['reason']): FailureVerdict => ({
    outcome: outcomeWith('pending'),
    requeue: 'front',
    halt: { reason, message: error.message },
    streak: 'keep',
  });

  // Not evaluated, not billed: the row waits for the key to be fixed, and nothing more is sent.
  if (ERROR_KINDS_THAT_STOP.has(error.kind) || status === 403) return stopWith('auth');
  // Every further row would be refused the same way until the quota resets: stop, and keep this row to resend.
  if (error.kind === 'quota') return stopWith('quota');
  if (status === 404 || status === 405 || error.kind === 'not_decision_model') return stopWith('target');
  if (error.kind === 'cancelled') {
    return error.possiblyBilled
      ? { outcome: outcomeWith('unknown'), requeue: null, streak: 'keep' }
      : { outcome: outcomeWith('pending'), requeue: 'front', streak: 'keep' };
  }
  if (
    error.kind === 'validation' ||
    (error.kind === 'http' && status >= 400 && status < 500 && status !== 408)
  ) {
    // The row itself is wrong (422, 413, 400): mark it with the service's reason and go on.
    return {
      outcome: { ...outcomeWith('invalid'), error: { ...rowError, message: refusedRowMessage(error) } },
      requeue: null,
      streak: 'reset',
    };
  }
  if (error.kind === 'timeout') return { outcome: outcomeWith('unknown'), requeue: null, streak: 'bump' };
  if (error.kind === 'bad_response') return { outcome: outcomeWith('failed'), requeue: null, streak: 'bump' };
  // A 5xx or a dropped connection after sending: the service may have evaluated it. Never resent on our own.
  if (error.possiblyBilled) return { outcome: outcomeWith('unknown'), requeue: null, streak: 'bump' };
  if (error.retryable && base.requeues < MAX_REQUEUES) {
    // Rate limited or unreachable after the client's retries, and nothing billed: try again at the back of the queue.
    return { outcome: outcomeWith('pending', base.requeues + 1), requeue: 'back', streak: 'bump' };
  }
  return { outcome: outcomeWith('failed'), requeue: null, streak: 'bump' };
}
