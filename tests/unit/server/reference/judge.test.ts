// The reference judge: plain cases come out right, it is deterministic, and the versions differ explainably.
import { describe, expect, it } from 'vitest';
import type { Answer, ChoiceAnswer, EvaluateRequest, Question, ScoreAnswer } from '../../../../src/contract';
import { choiceConfidence, expectedScore, round2, scoreConfidence } from '../../../../src/contract';
import type { ModelVersion } from '../../../../src/server/reference/judge';
import { judge, JUDGE_CONFIGS, MODEL_VERSIONS } from '../../../../src/server/reference/judge';
import { argmax, toHundredths } from '../../../../src/server/reference/judge/answers';
import { compileQuestion } from '../../../../src/server/reference/judge/questions';
import { readText } from '../../../../src/server/reference/judge/text';
import { exampleRequest } from '../../../helpers/fixtures';

const Q = exampleRequest().questions;
const department = Q.department!;
const frustration = Q.frustration!;
const isUrgent = Q.is_urgent!;

const ask = (
  state: EvaluateRequest['state'],
  question: Question,
  version: ModelVersion = 'model-1.13.0',
): Answer => judge({ state, model: version, questions: { q: question } }, version).q!;
const choice = (state: EvaluateRequest['state'], q: Question, v?: ModelVersion) =>
  ask(state, q, v) as ChoiceAnswer;
const score = (state: EvaluateRequest['state'], q: Question, v?: ModelVersion) =>
  ask(state, q, v) as ScoreAnswer;
const noul = (state: EvaluateRequest['state'], q: Question, v?: ModelVersion) => {
  const a = ask(state, q, v);
  if (a.type !== 'noul') throw new Error('not a noul answer');
  return a.noul;
};

describe('plain cases come out right, under every version', () => {
  it.each(MODEL_VERSIONS)('%s: "refund" and "charged twice" put billing above technical', (v) => {
    const a = choice('I was charged twice for my subscription and I want a refund.', department, v);
    expect(a.choice).toBe('billing');
    expect(a.probabilities.billing!).toBeGreaterThan(a.probabilities.technical!);
  });

  it.each(MODEL_VERSIONS)('%s: a threat to cancel scores more frustrated than "Thanks, all sorted"', (v) => {
    const angry = score('I will cancel my account today, this is the third time', frustration, v);
    const calm = score('Thanks, all sorted', frustration, v);
    expect(angry.score).toBeGreaterThan(calm.score);
    expect(argmax(Object.values(calm.probabilities))).toBe(0);
  });

  it.each(MODEL_VERSIONS)('%s: the contract example reads as urgent', (v) => {
    expect(noul(exampleRequest().state, isUrgent, v)).toBeGreaterThan(0.6);
  });

  it('the contract example is clearly urgent for the current and preview models', () => {
    expect(noul(exampleRequest().state, isUrgent, 'model-1.13.0')).toBeGreaterThanOrEqual(0.8);
    expect(noul(exampleRequest().state, isUrgent, 'model-1.14.0')).toBeGreaterThanOrEqual(0.9);
  });

  it('a message that says it is not urgent reads as not urgent', () => {
    expect(noul('No rush at all, this is not urgent. Whenever you have time.', isUrgent)).toBeLessThan(0.2);
  });

  it('bug talk goes to technical, and nothing in particular goes to the catch-all "other"', () => {
    expect(choice('The API returns an error after the webhook deploy.', department).choice).toBe('technical');
    expect(choice('Where is your office located?', department).choice).toBe('other');
  });

  it.each(MODEL_VERSIONS)('%s: payouts that keep failing are a malfunction: technical above billing', (v) => {
    const a = choice(exampleRequest().state, department, v);
    expect(a.choice).toBe('technical');
    expect(a.probabilities.technical!).toBeGreaterThan(a.probabilities.billing!);
  });

  it('the example request puts technical above billing with a clear margin on model-1.13.0 (model-latest)', () => {
    const a = choice(exampleRequest().state, department, 'model-1.13.0');
    expect(a.probabilities.technical! - a.probabilities.billing!).toBeGreaterThanOrEqual(0.2);
    // The answer the workbench shows first is no tie.
    const whole = judge(exampleRequest(), 'model-1.13.0').department as ChoiceAnswer;
    expect(whole.choice).toBe('technical');
  });

  it.each(MODEL_VERSIONS)('%s: a money request without a malfunction stays billing', (v) => {
    const a = choice('Please refund the duplicate charge on my card', department, v);
    expect(a.choice).toBe('billing');
    expect(a.probabilities.billing!).toBeGreaterThan(a.probabilities.technical!);
    // A malfunction word does not outweigh an explicit refund request about a payment.
    expect(choice('My card payment failed and I want a refund', department, v).choice).toBe('billing');
  });

  it('"not working" and "is down" read as malfunctions; "down payment" and "not work related" do not', () => {
    const cfg = JUDGE_CONFIGS['model-1.13.0'];
    const m = cfg.malfunctionWeight;
    expect(readText('The app is not working', cfg, undefined, 1, m).terms.get('#fault')).toBe(m);
    expect(readText('The site is down', cfg, undefined, 1, m).terms.get('#fault')).toBe(m);
    expect(readText('There is no error', cfg, undefined, 1, m).terms.get('¬#fault')).toBe(m);
    expect(readText('Payouts failing', cfg, undefined, 1, m).terms.get('#fault')).toBe(m);
    expect(readText('Payouts failing', cfg, undefined, 1, m).terms.get('#money')).toBe(1);
    expect(readText('I made a down payment', cfg, undefined, 1, m).terms.has('#fault')).toBe(false);
    expect(readText('I do not want to work with you', cfg, undefined, 1, m).terms.has('#fault')).toBe(false);
    // Criteria are read with weight 1: the boost belongs to the state.
    expect(readText('Bugs and integrations', cfg).terms.get('#fault')).toBe(2);
    // Once per text: two malfunction words get one boost.
    expect(readText('It crashed with an error', cfg, undefined, 1, m).terms.get('#fault')).toBe(2 + m - 1);
  });

  it('a scale without tone words is read in order: more of the quality scores higher', () => {
    const technical: Question = {
      type: 'score',
      instructions: 'How technical is this ticket?',
      criteria: ['Not technical', 'Somewhat technical', 'Very technical'],
    };
    const api = score('The API integration crashes with an error and the webhook fails.', technical);
    const plain = score('Could you tell me your opening hours?', technical);
    expect(api.score).toBeGreaterThan(plain.score);
  });

  it('levels that differ in tone along crossing axes fall back to their order instead of dividing by zero', () => {
    const crossing: Question = { type: 'score', criteria: ['Angry customer', 'Urgent request'] };
    const compiled = compileQuestion(crossing, JUDGE_CONFIGS['model-1.13.0']);
    expect(compiled.type === 'score' && compiled.axis).toBe(null);
    expect(compiled.type === 'score' && compiled.positions).toEqual([0, 1]);
    const a = score('I am angry and this is urgent', crossing);
    expect(Object.values(a.probabilities).every(Number.isFinite)).toBe(true);
    expect(Math.round(Object.values(a.probabilities).reduce((x, y) => x + y, 0) * 100)).toBe(100);
  });

  it('negation: "no refund" counts against a refund label', () => {
    const refund: Question = {
      type: 'noul',
      instructions: 'Does the customer ask for a refund?',
      criteria: { true: 'A refund is requested' },
    };
    expect(noul('Please send me a refund for this order.', refund)).toBeGreaterThan(
      noul('I do not want a refund, just an explanation.', refund),
    );
  });

  it('fields named in backticks weigh most', () => {
    const state = {
      claim: 'I was charged twice and need a refund',
      log: 'error: crash in the API integration, bug 42',
    };
    const named: Question = { ...department, instructions: 'Which team should handle the `claim`?' };
    const unnamed: Question = { ...department, instructions: 'Which team should handle this?' };
    const withName = choice(state, named);
    const withoutName = choice(state, unnamed);
    expect(withName.choice).toBe('billing');
    expect(withName.probabilities.billing!).toBeGreaterThan(withoutName.probabilities.billing!);
  });

  it('reads descriptions and instructions given as objects or arrays', () => {
    const q: Question = {
      type: 'choice',
      instructions: { question: 'Which team?', note: ['route by topic'] },
      criteria: { billing: { scope: 'Payments and refunds' }, technical: ['Bugs', 'integrations'] },
    };
    expect(choice('Refund my payment please', q).choice).toBe('billing');
  });
});

describe('answers follow the contract formulas', () => {
  it('choice: distribution in hundredths summing to 1, argmax label, confidence from the shown numbers', () => {
    const a = choice('I want a refund', department);
    const p = Object.values(a.probabilities);
    expect(Math.round(p.reduce((x, y) => x + y, 0) * 100)).toBe(100);
    expect(a.choice).toBe(Object.keys(a.probabilities)[argmax(p)]);
    expect(a.confidence).toBe(round2(choiceConfidence(p)));
  });

  it('score: expected level, confidence and legend from the levels sent', () => {
    const a = score('I will cancel today', frustration);
    const p = Object.values(a.probabilities);
    expect(a.score).toBe(round2(expectedScore(p)));
    expect(a.confidence).toBe(round2(scoreConfidence(p)));
    expect(Object.values(a.legend)).toEqual((frustration as { criteria: string[] }).criteria);
  });

  it('ties go to the first label in criteria order', () => {
    const twins: Question = { type: 'choice', criteria: { first: 'same words', second: 'same words' } };
    const a = choice('nothing related', twins);
    expect(a.probabilities).toEqual({ first: 0.5, second: 0.5 });
    expect(a.choice).toBe('first');
    expect(a.confidence).toBe(0);
  });

  it('toHundredths sums to exactly 1, moves no entry by 0.01 or more, and keeps a flat distribution flat', () => {
    const cases = [
      [1 / 3, 1 / 3, 1 / 3],
      [0.005, 0.005, 0.99],
      [0.123, 0.456, 0.421],
      Array(255).fill(1 / 255),
    ];
    for (const p of cases) {
      const r = toHundredths(p);
      expect(Math.round(r.reduce((a, b) => a + b, 0) * 100)).toBe(100);
      r.forEach((x, i) => expect(Math.abs(x - p[i]!)).toBeLessThan(0.01));
    }
    const flat = toHundredths(Array(255).fill(1 / 255));
    expect(Math.max(...flat) - Math.min(...flat)).toBeLessThanOrEqual(0.01);
    expect(toHundredths([1 / 3, 1 / 3, 1 / 3])).toEqual([0.34, 0.33, 0.33]);
  });
});

describe('determinism', () => {
  it('the same request gives the same answers, cached or not, in question order', () => {
    const request = exampleRequest();
    const first = judge(request, 'model-1.13.0');
    const second = judge(structuredClone(request), 'model-1.13.0');
    expect(second).toEqual(first);
    expect(Object.keys(first)).toEqual(['is_urgent', 'department', 'frustration']);
    // A question compiled afresh (no cache) judges the same as the cached one.
    const fresh = compileQuestion(department, JUDGE_CONFIGS['model-1.13.0']);
    expect(fresh).toEqual(compileQuestion(department, JUDGE_CONFIGS['model-1.13.0']));
  });
});

describe('versions differ, explainably', () => {
  it('the whole example answers differently under 1.12.0 and 1.14.0', () => {
    expect(judge(exampleRequest(), 'model-1.14.0')).not.toEqual(judge(exampleRequest(), 'model-1.12.0'));
  });

  it('1.14.0 is sharper (lower temperature): more confident on the same clear case', () => {
    const state = 'I was charged twice and I want a refund.';
    const c12 = choice(state, department, 'model-1.12.0').confidence;
    const c13 = choice(state, department, 'model-1.13.0').confidence;
    const c14 = choice(state, department, 'model-1.14.0').confidence;
    expect(c12).toBeLessThan(c13);
    expect(c13).toBeLessThan(c14);
  });

  it('1.12.0 negates only the next word: "not really angry" still reads as angry to it', () => {
    const state = 'I am not really angry, just asking.';
    expect(score(state, frustration, 'model-1.12.0').score).toBeGreaterThan(
      score(state, frustration, 'model-1.13.0').score,
    );
    expect(readText(state, JUDGE_CONFIGS['model-1.12.0']).terms.has('angri')).toBe(true);
    expect(readText(state, JUDGE_CONFIGS['model-1.13.0']).terms.has('¬angri')).toBe(true);
  });

  it('1.14.0 weighs named fields more than 1.12.0', () => {
    const state = { claim: 'I was charged twice', log: 'error: crash in the API integration, bug 42' };
    const named: Question = { ...department, instructions: 'Which team should handle the `claim`?' };
    expect(choice(state, named, 'model-1.14.0').probabilities.billing!).toBeGreaterThan(
      choice(state, named, 'model-1.12.0').probabilities.billing!,
    );
  });

  it('the malfunction weight grows with the version: the failing-payouts margin widens from 1.12.0 to 1.14.0', () => {
    const margin = (v: ModelVersion) => {
      const p = choice(exampleRequest().state, department, v).probabilities;
      return p.technical! - p.billing!;
    };
    expect(margin('model-1.12.0')).toBeLessThan(margin('model-1.13.0'));
    expect(margin('model-1.13.0')).toBeLessThan(margin('model-1.14.0'));
  });

  it('1.12.0 reads no phrases: "all sorted" and "third time" are single words to it', () => {
    const cfg12 = JUDGE_CONFIGS['model-1.12.0'];
    const cfg13 = JUDGE_CONFIGS['model-1.13.0'];
    const phrase = 'this is the third time';
    expect(readText(phrase, cfg13).cues).toBe(1);
    expect(readText(phrase, cfg12).cues).toBe(0);
  });
});
