// Where a reference request's time goes: each step of POST /v1/evaluate timed alone, in this process, on the bench
// request, in the order the service runs them. Steps past the body read mirror src/server/reference/app.ts.
import { validateRequestShape } from '../../src/contract';
import type { EvaluateRequest } from '../../src/contract';
import { judge } from '../../src/server/reference/judge';
import { resolveModel } from '../../src/server/reference/models';
import { nestingError } from '../../src/server/reference/nesting';
import { countRequestTokens } from '../../src/server/reference/usage';

const ROUNDS = 2_000;

/**
 * Mean microseconds per request of each step, over ROUNDS requests of `body`: once with the same state every time
 * (the bench's load, and what compare, variants and robustness checks send), once with a new state each time (a file
 * of distinct rows: nothing about the state is cached).
 */
export async function phaseTimes(
  body: string,
): Promise<Array<{ step: string; 'µs, state seen before': string; 'µs, new state': string }>> {
  const repeated = await timeSteps(() => body);
  const base = JSON.parse(body) as { state: string };
  const distinct = await timeSteps((i) => JSON.stringify({ ...base, state: `${base.state} (row ${i})` }));
  return [...repeated].map(([step, ms]) => ({
    step,
    'µs, state seen before': ((ms / ROUNDS) * 1000).toFixed(1),
    'µs, new state': (((distinct.get(step) ?? 0) / ROUNDS) * 1000).toFixed(1),
  }));
}

async function timeSteps(bodyOf: (round: number) => string): Promise<Map<string, number>> {
  const totals = new Map<string, number>();
  const time = async <T>(step: string, f: () => T | Promise<T>): Promise<T> => {
    const start = performance.now();
    const out = await f();
    totals.set(step, (totals.get(step) ?? 0) + performance.now() - start);
    return out;
  };
  for (let i = 0; i < ROUNDS; i++) {
    const body = bodyOf(i);
    const parsed = await time('JSON.parse of the body', () => JSON.parse(body) as unknown);
    await time('nesting check', () => nestingError(parsed));
    const shape = await time('schema (zod)', () => validateRequestShape(parsed));
    if (!shape.ok) throw new Error('The bench request must be valid.');
    const request: EvaluateRequest = shape.value;
    const model = resolveModel(request.model);
    if (!model.ok) throw new Error('The bench model must resolve.');
    const counted = await time('token count (cached by content)', () => countRequestTokens(request));
    counted.remember();
    const answers = await time('judge (questions and state readings cached)', () => judge(request, model.id));
    await time('JSON.stringify of the answer', () =>
      JSON.stringify({
        model: model.id,
        answers,
        usage: { input_tokens: counted.tokens.total, output_tokens: 0 },
      }),
    );
  }
  return totals;
}
