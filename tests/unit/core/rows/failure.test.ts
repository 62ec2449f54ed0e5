// Each kind of failed send read on its own, without a runner: the row's status, the queue and what the run does.
import { describe, expect, it } from 'vitest';
import type { AttemptReport, Failure } from '../../../../src/client';
import { toEvaluationError } from '../../../../src/client';
import { classifyFailure, MAX_REQUEUES } from '../../../../src/core/rows/failure';

const base = { attempts: 1, possiblyBilledAttempts: 0, requeues: 0 };
const attempt = (outcome: AttemptReport['outcome'], possiblyBilled = false): AttemptReport => ({
  attempt: 0,
  outcome,
  durationMs: 5,
  possiblyBilled,
});
const status = (code: number, extra: Partial<Extract<Failure, { type: 'status' }>> = {}): Failure => ({
  type: 'status',
  status: code,
  serviceMessage: `said ${code}`,
  fieldErrors: [],
  ...extra,
});
const read = (failure: Failure, attempts: AttemptReport[], requeues = 0) =>
  classifyFailure(toEvaluationError(failure, attempts), { ...base, requeues }, 1000, true);

describe('classifyFailure', () => {
  it('stops the run on a refused key and keeps the row to send again', () => {
    const v = read(status(401), [attempt(401)]);
    expect([v.outcome.status, v.requeue, v.halt?.reason, v.streak]).toEqual([
      'pending',
      'front',
      'auth',
      'keep',
    ]);
    expect(v.outcome.attempts).toBe(2);
  });

  it('marks a 422 row invalid with the field the service names, and resets the failing streak', () => {
    const v = read(status(422, { fieldErrors: [{ loc: ['body', 'state'], msg: 'too long.' }] }), [
      attempt(422),
    ]);
    expect([v.outcome.status, v.requeue, v.halt, v.streak]).toEqual(['invalid', null, undefined, 'reset']);
    expect(v.outcome.error?.message).toMatch(/refused this row \(422\) at .*state: too long\./);
  });

  it('never re-sends a timeout on its own: unknown, and the streak grows', () => {
    const v = read({ type: 'timeout', timeoutMs: 30_000 }, [attempt('timeout', true)]);
    expect([v.outcome.status, v.requeue, v.streak]).toEqual(['unknown', null, 'bump']);
    expect(v.outcome.possiblyBilledAttempts).toBe(1);
  });

  it('puts a rate-limited row at the back until its requeues run out, then fails it', () => {
    const limited = status(429);
    expect(read(limited, [attempt(429)], 0).requeue).toBe('back');
    expect(read(limited, [attempt(429)], 0).outcome.requeues).toBe(1);
    const last = read(limited, [attempt(429)], MAX_REQUEUES);
    expect([last.outcome.status, last.requeue]).toEqual(['failed', null]);
  });

  it("reads an error that is not the client's as unknown once sent, and as not sent before", () => {
    const sent = classifyFailure(new Error('boom'), base, 1000, true);
    expect([sent.outcome.status, sent.notSent]).toEqual(['unknown', undefined]);
    const before = classifyFailure(new Error('disk full'), base, 1000, false);
    expect([before.outcome.status, before.requeue, before.notSent]).toEqual(['pending', 'front', true]);
  });
});
