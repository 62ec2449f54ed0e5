// The taxonomy parser, the grouping plan and the runner's rules, over a scripted evaluate (no service: the loopback
// test in taxonomyReference.test.ts runs the same runner against the local reference).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EvaluateRequestSchema, MAX_OPTIONS, estimateCost } from '../../../../src/contract';
import type { ChoiceAnswer, EvaluateRequest, EvaluateResponse } from '../../../../src/contract';
import {
  TAXONOMY_QUESTION,
  TaxonomyRunError,
  buildPlan,
  detectTaxonomyFormat,
  listWithin,
  parseTaxonomy,
  planTaxonomy,
  runTaxonomy,
  stepInstructions,
} from '../../../../src/core/taxonomy';
import type { PlanGroup, PlanOption, TaxonomyNode } from '../../../../src/core/taxonomy';

const labels = (nodes: TaxonomyNode[]): string[] => nodes.map((n) => n.label);

/** Every group of a plan, depth first. */
function groupsOf(group: PlanGroup): PlanGroup[] {
  return [group, ...group.options.flatMap((o) => (o.kind === 'group' ? groupsOf(o) : []))];
}
function leavesOf(option: PlanOption): string[] {
  return option.kind === 'leaf' ? [option.key] : option.options.flatMap(leavesOf);
}

describe('parseTaxonomy', () => {
  it('reads one label a line, ignoring blank lines and bullets, and keeps a repeated label once with a note', () => {
    const parsed = parseTaxonomy('Billing\n\n- Refunds\n* Shipping   delay \n• Billing\r\nOther\n');
    expect(parsed.format).toBe('list');
    expect(labels(parsed.roots)).toEqual(['Billing', 'Refunds', 'Shipping delay', 'Other']);
    expect(parsed.leafCount).toBe(4);
    expect(parsed.notes).toEqual([
      { line: 5, message: '"Billing" is listed again (first on line 1); kept once.' },
    ]);
  });

  it('takes the text after a tab as the description (a spreadsheet column)', () => {
    const parsed = parseTaxonomy('refund\tMoney back for an order\nshipping\t  \n');
    expect(parsed.roots).toEqual([
      { label: 'refund', description: 'Money back for an order', children: [] },
      { label: 'shipping', description: null, children: [] },
    ]);
  });

  it('reads a tree by indentation, spaces or tabs, and returns to the right parent after a deeper branch', () => {
    const text = [
      'Billing',
      '  Refunds',
      '    Card refund',
      '    Bank refund',
      '  Invoices',
      'Shipping',
      '\tDelay',
      '\tLost parcel',
    ].join('\n');
    const parsed = parseTaxonomy(text);
    expect(parsed.format).toBe('indent');
    expect(labels(parsed.roots)).toEqual(['Billing', 'Shipping']);
    expect(labels(parsed.roots[0]!.children)).toEqual(['Refunds', 'Invoices']);
    expect(labels(parsed.roots[0]!.children[0]!.children)).toEqual(['Card refund', 'Bank refund']);
    expect(labels(parsed.roots[1]!.children)).toEqual(['Delay', 'Lost parcel']);
    expect(parsed.leafCount).toBe(5);
    expect(parsed.groupCount).toBe(3);
  });

  it('reads a > b > c paths, sharing ancestors without notes, and merges a repeated path with one', () => {
    const text =
      'Billing > Refunds > Card\nBilling > Refunds > Bank\nBilling>Invoices\nShipping > Delay\nBilling > Refunds > Card';
    const parsed = parseTaxonomy(text);
    expect(parsed.format).toBe('paths');
    expect(labels(parsed.roots)).toEqual(['Billing', 'Shipping']);
    expect(labels(parsed.roots[0]!.children)).toEqual(['Refunds', 'Invoices']);
    expect(labels(parsed.roots[0]!.children[0]!.children)).toEqual(['Card', 'Bank']);
    expect(parsed.notes.map((n) => n.line)).toEqual([5]);
  });

  it('can be told the format: a list with ">" in its labels stays flat', () => {
    expect(detectTaxonomyFormat('Price > 100\nPrice <= 100')).toBe('paths');
    const parsed = parseTaxonomy('Price > 100\nPrice <= 100', 'list');
    expect(labels(parsed.roots)).toEqual(['Price > 100', 'Price <= 100']);
  });

  it('counts every repeat but keeps at most 50 notes, plus one that says how many more', () => {
    const text = Array.from({ length: 120 }, () => 'same').join('\n');
    const parsed = parseTaxonomy(text);
    expect(parsed.leafCount).toBe(1);
    expect(parsed.notes).toHaveLength(51);
    expect(parsed.notes[50]!.message).toBe('69 more repeated labels were kept once.');
  });

  it('never loses or invents a label (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.stringMatching(/^[A-Za-z][A-Za-z ]{0,12}$/), { maxLength: 60 }), (raw) => {
        const parsed = parseTaxonomy(raw.join('\n'), 'list');
        const expected = [...new Set(raw.map((s) => s.replace(/\s+/g, ' ').trim()).filter((s) => s !== ''))];
        expect(labels(parsed.roots)).toEqual(expected);
      }),
    );
  });
});

describe('listWithin', () => {
  it('lists everything that fits and says how many more there are', () => {
    expect(listWithin(['a', 'b', 'c'], 100)).toBe('a; b; c');
    expect(listWithin(['alpha', 'beta', 'gamma', 'delta'], 26)).toBe('alpha; beta; … and 2 more');
    expect(listWithin(['alpha', 'beta', 'gamma', 'delta'], 24)).toBe('alpha; … and 3 more');
    expect(listWithin(['a very long first label'], 5)).toBe('a very long first label');
  });
});

describe('buildPlan', () => {
  it('leaves a list of at most 255 labels as one request in the order written', () => {
    const text = Array.from({ length: 255 }, (_, i) => `label ${255 - i}`).join('\n');
    const { plan } = planTaxonomy(text);
    expect(plan.root.options).toHaveLength(255);
    expect(plan.root.options.every((o) => o.kind === 'leaf')).toBe(true);
    expect(plan.root.options[0]!.key).toBe('label 255');
    expect(plan.maxRequests).toBe(1);
  });

  it('groups 600 labels into about √600 groups, each at most 255, two requests deep, no label lost', () => {
    const text = Array.from({ length: 600 }, (_, i) => `item ${String(i).padStart(3, '0')}`).join('\n');
    const { plan } = planTaxonomy(text);
    expect(plan.leafCount).toBe(600);
    expect(plan.maxRequests).toBe(2);
    expect(plan.root.options.length).toBeGreaterThanOrEqual(20);
    expect(plan.root.options.length).toBeLessThanOrEqual(30);
    for (const g of groupsOf(plan.root)) expect(g.options.length).toBeLessThanOrEqual(MAX_OPTIONS);
    expect(leavesOf(plan.root).sort()).toEqual(text.split('\n').sort());
    const names = plan.root.options.map((o) => o.key);
    expect(new Set(names).size).toBe(names.length);
    // Every label starts with "item": the groups are named by their ranges, not all "item".
    expect(names[0]).toBe(
      `item 000 – item ${String(leavesOf(plan.root.options[0]!).length - 1).padStart(3, '0')}`,
    );
  });

  it('cuts where the first word changes, and names such a group by its shared words', () => {
    const words = ['Apple', 'Banana', 'Cherry', 'Damson', 'Elder', 'Fig', 'Grape', 'Hazel', 'Kiwi', 'Lemon'];
    const text = words
      .flatMap((w) => Array.from({ length: 30 }, (_, i) => `${w} variety ${i + 1}`))
      .join('\n');
    const { plan } = planTaxonomy(text);
    // 300 labels, 10 words of 30: each group is exactly one word's labels.
    expect(plan.root.options.map((o) => o.key)).toEqual(words.map((w) => `${w} variety`));
    const apple = plan.root.options[0] as PlanGroup;
    expect(apple.auto).toBe(true);
    expect(apple.leafCount).toBe(30);
    expect(apple.description).toMatch(/^Holds 30 labels: Apple variety 1; Apple variety 2; /);
  });

  it('names a group without shared words by the range of its labels, unique among its siblings', () => {
    const text = Array.from({ length: 400 }, (_, i) => `${String.fromCharCode(97 + (i % 26))}${i}`).join(
      '\n',
    );
    const { plan } = planTaxonomy(text);
    const names = plan.root.options.map((o) => o.key);
    expect(names.every((n) => n.includes(' – '))).toBe(true);
    expect(new Set(names).size).toBe(names.length);
  });

  it('keeps a pasted tree as its own groups, and groups inside a tree level that is too long', () => {
    const text = [
      ...Array.from({ length: 300 }, (_, i) => `Products > Widget ${i}`),
      'Support > Password reset',
      'Support > Outage',
      'Other',
    ].join('\n');
    const { plan } = planTaxonomy(text);
    expect(plan.root.options.map((o) => [o.key, o.kind])).toEqual([
      ['Products', 'group'],
      ['Support', 'group'],
      ['Other', 'leaf'],
    ]);
    const products = plan.root.options[0] as PlanGroup;
    expect(products.auto).toBe(false);
    expect(products.options.every((o) => o.kind === 'group' && o.auto)).toBe(true);
    expect(plan.maxRequests).toBe(3);
    const widget = (products.options[0] as PlanGroup).options[0]!;
    expect(widget.kind === 'leaf' && widget.path).toEqual(['Products', widget.key]);
    expect((plan.root.options[1] as PlanGroup).description).toBe('Holds 2 labels: Password reset; Outage');
  });

  it('lists nested labels by their path inside a group, after the group’s own description', () => {
    const parsed = parseTaxonomy('Billing\tMoney matters\n  Refunds\n    Card\n  Invoices\nOther');
    const plan = buildPlan(parsed.roots);
    expect((plan.root.options[0] as PlanGroup).description).toBe(
      'Money matters Holds 2 labels: Refunds > Card; Invoices',
    );
  });

  it('truncates group descriptions to share the budget, and groups again past 255 × 255 labels', () => {
    const text = Array.from({ length: 70_000 }, (_, i) => `l${i}`).join('\n');
    const { plan } = planTaxonomy(text, 'list', { descriptionBudget: 20_000 });
    expect(plan.leafCount).toBe(70_000);
    expect(plan.maxRequests).toBe(3);
    for (const g of groupsOf(plan.root)) expect(g.options.length).toBeLessThanOrEqual(MAX_OPTIONS);
    const firstLevel = plan.root.options as PlanGroup[];
    const chars = firstLevel.reduce((sum, g) => sum + g.description.length, 0);
    expect(chars).toBeLessThan(20_000 + firstLevel.length * 40);
    expect(firstLevel[0]!.description).toMatch(/… and \d+ more$/);
  });

  it('honours a smaller option limit', () => {
    const { plan } = planTaxonomy('a\nb\nc\nd\ne\nf\ng', 'list', { maxOptions: 3 });
    for (const g of groupsOf(plan.root)) expect(g.options.length).toBeLessThanOrEqual(3);
    expect(leavesOf(plan.root).sort()).toEqual(['a', 'b', 'c', 'd', 'e', 'f', 'g']);
  });
});

describe('stepInstructions', () => {
  it('says what each step chooses among', () => {
    const { plan } = planTaxonomy('A > x\nA > y\nB > z\nB > w\nC');
    expect(stepInstructions('  ', plan.root)).toBe(
      'Which label fits best?\n\nChoose the best label, or the group that holds it (each group lists its labels).',
    );
    expect(stepInstructions('Topic?', plan.root.options[0] as PlanGroup)).toBe(
      'Topic?\n\nChoose among the labels under "A".',
    );
    const flat = planTaxonomy('a\nb').plan;
    expect(stepInstructions('Topic?', flat.root)).toBe('Topic?');
  });
});

// A scripted service: picks the option whose key `pick` names at each step, with a made-up distribution.
function scripted(pick: (request: EvaluateRequest, step: number) => string, tokens = 100) {
  const sent: EvaluateRequest[] = [];
  const evaluate = async (request: EvaluateRequest): Promise<EvaluateResponse> => {
    expect(EvaluateRequestSchema.safeParse(request).success).toBe(true);
    sent.push(request);
    const question = request.questions[TAXONOMY_QUESTION]!;
    const keys = Object.keys(question.criteria as Record<string, unknown>);
    const choice = pick(request, sent.length - 1);
    const rest = (1 - 0.6) / (keys.length - 1);
    const probabilities = Object.fromEntries(keys.map((k) => [k, k === choice ? 0.6 : rest]));
    const answer: ChoiceAnswer = { type: 'choice', choice, confidence: 0.5, probabilities };
    return {
      model: 'model-1.13.0',
      answers: { [TAXONOMY_QUESTION]: answer },
      usage: { input_tokens: tokens },
    };
  };
  return { sent, evaluate };
}

describe('runTaxonomy', () => {
  const tree =
    'Billing > Refunds > Card refund\nBilling > Refunds > Bank refund\nBilling > Invoice\nSupport > Outage\nSupport > Login';

  it('chooses a group per request until a label is left, and adds up tokens, cost and the path probability', async () => {
    const { plan } = planTaxonomy(tree);
    const choices = ['Billing', 'Refunds', 'Bank refund'];
    const { sent, evaluate } = scripted((_, i) => choices[i]!, 250);
    const steps: number[] = [];
    const result = await runTaxonomy({
      plan,
      state: 'I want my money back to my bank account',
      instructions: 'What is this about?',
      model: 'model-latest',
      evaluate,
      onStep: (s) => steps.push(s.index),
    });
    expect(result.label).toBe('Bank refund');
    expect(result.path).toEqual(['Billing', 'Refunds', 'Bank refund']);
    expect(result.route).toEqual(choices);
    expect(steps).toEqual([0, 1, 2]);
    expect(sent.map((r) => Object.keys(r.questions[TAXONOMY_QUESTION]!.criteria as object))).toEqual([
      ['Billing', 'Support'],
      ['Refunds', 'Invoice'],
      ['Card refund', 'Bank refund'],
    ]);
    expect(
      sent.every((r) => r.model === 'model-latest' && r.state === 'I want my money back to my bank account'),
    ).toBe(true);
    expect(result.inputTokens).toBe(750);
    expect(result.cost).toBe(estimateCost(750));
    expect(result.pathProbability).toBeCloseTo(0.6 ** 3, 10);
    expect(result.final.answer.choice).toBe('Bank refund');
    expect(Object.keys(result.final.question.criteria)).toEqual(['Card refund', 'Bank refund']);
    expect(result.steps[0]!.resolvedModel).toBe('model-1.13.0');
    expect(result.steps.map((s) => s.trail)).toEqual([[], ['Billing'], ['Billing', 'Refunds']]);
  });

  it('enters a group with a single option without a request', async () => {
    const { plan } = planTaxonomy('Only > Deep > a\nOnly > Deep > b');
    const { sent, evaluate } = scripted(() => 'b');
    const result = await runTaxonomy({ plan, state: 's', instructions: '', model: 'm', evaluate });
    expect(sent).toHaveLength(1);
    expect(result.path).toEqual(['Only', 'Deep', 'b']);
    expect(result.route).toEqual(['Only', 'Deep', 'b']);
    expect(result.steps).toHaveLength(1);
  });

  it('stops with the finished steps when a request fails, and refuses a taxonomy of one label', async () => {
    const { plan } = planTaxonomy(tree);
    let calls = 0;
    const failing = scripted(() => 'Support');
    const evaluate = async (request: EvaluateRequest) => {
      calls += 1;
      if (calls === 2) throw new Error('The service is overloaded (529).');
      return failing.evaluate(request);
    };
    const error = await runTaxonomy({ plan, state: 's', instructions: '', model: 'm', evaluate }).catch(
      (e) => e,
    );
    expect(error).toBeInstanceOf(TaxonomyRunError);
    expect(error.message).toBe('Step 2 failed: The service is overloaded (529).');
    expect(error.steps).toHaveLength(1);
    expect((error.cause as Error).message).toContain('529');

    const one = planTaxonomy('alone').plan;
    await expect(
      runTaxonomy({ plan: one, state: 's', instructions: '', model: 'm', evaluate }),
    ).rejects.toThrow('at least two labels');
  });

  it('refuses an answer that names an option it was not offered', async () => {
    const { plan } = planTaxonomy('a\nb');
    const { evaluate } = scripted(() => 'c');
    await expect(runTaxonomy({ plan, state: 's', instructions: '', model: 'm', evaluate })).rejects.toThrow(
      '"c", which was not offered',
    );
  });

  it('passes the abort signal to every request', async () => {
    const { plan } = planTaxonomy(tree);
    const controller = new AbortController();
    const seen: (AbortSignal | undefined)[] = [];
    const { evaluate } = scripted(() => 'Support');
    await runTaxonomy({
      plan,
      state: 's',
      instructions: '',
      model: 'm',
      signal: controller.signal,
      evaluate: (request, signal) => {
        seen.push(signal);
        const keys = Object.keys(request.questions[TAXONOMY_QUESTION]!.criteria as object);
        return evaluate({ ...request }).then((r) => {
          // Steer to a label on the second step.
          if (keys.includes('Outage')) {
            const answer = r.answers[TAXONOMY_QUESTION] as ChoiceAnswer;
            return {
              ...r,
              answers: {
                [TAXONOMY_QUESTION]: {
                  ...answer,
                  choice: 'Outage',
                  probabilities: { Outage: 0.9, Login: 0.1 },
                },
              },
            };
          }
          return r;
        });
      },
    });
    expect(seen).toEqual([controller.signal, controller.signal]);
  });
});
