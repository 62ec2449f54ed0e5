// The editor's checks on the chosen target: its own limits and what its dialect can carry, on the right line.
import { describe, expect, it } from 'vitest';
import { exampleDoc } from '../../../src/core/example';
import { checkDoc } from '../../../src/core/runDraft';
import { countTokens, requestTokens } from '../../../src/contract/tokens';

const TOKENS = {
  request: (r: Parameters<typeof requestTokens>[0]) => requestTokens(r).total,
  text: countTokens,
};
import type { SessionDoc } from '../../../src/core/session';

const questions = (n: number) =>
  JSON.stringify(
    Object.fromEntries(
      Array.from({ length: n }, (_, i) => [`q${i}`, { type: 'noul', instructions: `Question ${i}?` }]),
    ),
    null,
    2,
  );
const doc = (over: Partial<SessionDoc>): SessionDoc => ({ ...exampleDoc(), ...over });

describe('checks on the chosen target', () => {
  it("flags a request longer than the target's context before sending, on the state's line", () => {
    const small = { label: 'Laya', limits: { contextTokens: 1_024 }, tokens: TOKENS };
    const long = doc({ stateMode: 'text', stateText: 'The refund never came. '.repeat(400) });
    const checked = checkDoc(long, [], [], { mode: 'single' }, small);
    const tokens = requestTokens(checked.draft.request!).total;
    expect(tokens).toBeGreaterThan(1_024);
    expect(checked.blocked).toBe(true);
    const found = checked.problems.filter((p) => p.source === 'target');
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ area: 'state', loc: ['state'] });
    // Until the page has loaded the tokenizer, the context is not checked.
    expect(
      checkDoc(
        long,
        [],
        [],
        { mode: 'single' },
        { label: 'Laya', limits: { contextTokens: 1_024 } },
      ).problems.filter((p) => p.source === 'target'),
    ).toEqual([]);
    expect(found[0]!.message).toBe(
      `Laya reads at most 1,024 input tokens; this request has about ${tokens.toLocaleString()}. Shorten the state or send fewer questions.`,
    );
    // The same request fits a target with a larger context, and the example fits the small one.
    const roomy = { label: 'Hosted', limits: { contextTokens: 64_000 }, tokens: TOKENS };
    expect(
      checkDoc(long, [], [], { mode: 'single' }, roomy).problems.filter((p) => p.source === 'target'),
    ).toEqual([]);
    expect(
      checkDoc(exampleDoc(), [], [], { mode: 'single' }, small).problems.filter((p) => p.source === 'target'),
    ).toEqual([]);
  });

  it('flags 65 questions for a 64-question target before sending, and lets 64 through', () => {
    const cloudflare = { label: 'Cloudflare Clef', limits: { questions: 64 } };
    const over = checkDoc(doc({ questionsText: questions(65) }), [], [], { mode: 'single' }, cloudflare);
    expect(over.blocked).toBe(true);
    expect(over.problems.filter((p) => p.source === 'target').map((p) => [p.loc, p.message])).toEqual([
      [
        ['questions'],
        'Cloudflare Clef takes at most 64 questions per request; this one has 65. Split it or choose another target.',
      ],
    ]);
    const fits = checkDoc(doc({ questionsText: questions(64) }), [], [], { mode: 'single' }, cloudflare);
    expect(fits.problems.filter((p) => p.source === 'target')).toEqual([]);
    // The same 65 questions on a target without that limit are fine.
    const local = checkDoc(doc({ questionsText: questions(65) }), [], [], { mode: 'single' });
    expect(local.problems.filter((p) => p.source === 'target')).toEqual([]);
  });

  it('flags too many levels or options for the target on the question’s own line', () => {
    const text = JSON.stringify(
      { tone: { type: 'score', instructions: 'Tone?', criteria: ['a', 'b', 'c', 'd'] } },
      null,
      2,
    );
    const checked = checkDoc(
      doc({ questionsText: text }),
      [],
      [],
      { mode: 'single' },
      { label: 'T', limits: { levels: 3 } },
    );
    const problem = checked.problems.find((p) => p.source === 'target')!;
    expect(problem.loc).toEqual(['questions', 'tone', 'criteria']);
    expect(text.slice(problem.span!.offset, problem.span!.offset + 8)).toBe('"criteria"'.slice(0, 8));
  });

  it('flags what the Decisions form cannot carry, at the field', () => {
    const text = JSON.stringify({ bare: { type: 'noul', criteria: { true: 'yes' } } }, null, 2);
    const checked = checkDoc(
      doc({ questionsText: text }),
      [],
      [],
      { mode: 'single' },
      { label: 'Luna', dialect: 'decisions' },
    );
    expect(checked.problems.filter((p) => p.source === 'dialect').map((p) => p.loc)).toEqual([
      ['questions', 'bare', 'instructions'],
    ]);
  });
});
