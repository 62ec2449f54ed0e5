// Where a reference request's time goes: each step of POST /v1/evaluate timed alone, in this process, on the bench
// request, in the order the service runs them. Steps past the body read mirror src/server/reference/app.ts.
import { validateRequestShape } from '../../src/contract';
import type { EvaluateRequest } from '../../src/contract';
import { judge } from '../../src/server/reference/judge';
import { resolveModel } from '../../src/server/reference/models';
import { nestingError } from '../../src/server/reference/nesting';
import { countRequestTokens } from '../../src/server/reference/usage';

const ROUNDS = 2_000;

/** Mean microseconds per request of each step, over ROUNDS requests of `body`. */
export async function phaseTimes(body: string): Promise<Array<{ step: string; 'µs per request': string }>> {
  const totals = new Map<string, number>();
  const time = async <T>(step: string, f: () => T | Promise<T>): Promise<T> => {
    const start = performance.now();
    const out = await f();
    totals.set(step, (totals.get(step) ?? 0) + performance.now() - start);
    return out;
  };
  for (let i = 0; i < ROUNDS; i++) {
    const parsed = await time('JSON.parse of the body', () => JSON.parse(body) as unknown);
    await time('nesting check', () => nestingError(parsed));
    const shape = await time('schema (zod)', () => validateRequestShape(parsed));
    if (!shape.ok) throw new Error('The bench request must be valid.');
    const request: EvaluateRequest = shape.value;
    const model = resolveModel(request.model);
    if (!model.ok) throw new Error('The bench model must resolve.');
    const counted = await time('token count (questions cached by content)', () =>
      countRequestTokens(request),
    );
    counted.remember();
    const answers = await time('judge (compiled questions cached)', () => judge(request, model.id));
    await time('JSON.stringify of the answer', () =>
      JSON.stringify({
        model: model.id,
        answers,
        usage: { input_tokens: counted.tokens.total, output_tokens: 0 },
      }),
    );
  }
  return [...totals].map(([step, ms]) => ({ step, 'µs per request': ((ms / ROUNDS) * 1000).toFixed(1) }));
}
