// The taxonomy helper end to end: 600 labels, the real client, the local reference service over loopback HTTP.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { evaluate } from '../../../../src/client';
import type { ClientTarget } from '../../../../src/client';
import { MAX_OPTIONS, estimateCost } from '../../../../src/contract';
import type { EvaluateRequest } from '../../../../src/contract';
import { TAXONOMY_QUESTION, planTaxonomy, runTaxonomy } from '../../../../src/core/taxonomy';
import { serveReference } from '../../../../src/server/reference/serve';
import type { RunningReference } from '../../../../src/server/reference/serve';
import { DEFAULT_API_KEY } from '../../../../src/server/reference/options';
import { TAXONOMY_MATERIALS, TAXONOMY_ITEMS, taxonomyLabels } from '../../../helpers/taxonomyFixture';

let reference: RunningReference;
let target: ClientTarget;
beforeAll(async () => {
  reference = await serveReference({ port: 0 });
  target = { baseUrl: reference.url, headers: { Authorization: `Bearer ${DEFAULT_API_KEY}` } };
});
afterAll(() => reference.close());

/** The real client's evaluate, recording every request it sends and the tokens billed. */
function recordingEvaluate() {
  const sent: EvaluateRequest[] = [];
  const billed: number[] = [];
  const call = async (request: EvaluateRequest, signal?: AbortSignal) => {
    sent.push(request);
    const result = await evaluate(target, request, signal ? { signal } : {});
    billed.push(result.response.usage.input_tokens);
    return result.response;
  };
  return { sent, billed, call };
}

describe('runTaxonomy against the local reference', () => {
  it('resolves a flat list of 600 labels to the one the state describes, in two requests', async () => {
    const labels = taxonomyLabels();
    expect(labels).toHaveLength(600);
    const { plan } = planTaxonomy(labels.join('\n'));
    expect(plan.leafCount).toBe(600);
    // Sorted labels are cut where the first word changes: one automatic group per material.
    expect(plan.root.options.map((o) => o.key)).toEqual([...TAXONOMY_MATERIALS]);
    const { sent, billed, call } = recordingEvaluate();
    const result = await runTaxonomy({
      plan,
      state: 'The copper lantern I bought last week arrived dented and the glass is cracked.',
      instructions: 'Which product is the customer writing about?',
      model: 'model-1.13.0',
      evaluate: call,
    });
    expect(result.label).toBe('Copper lantern');
    expect(result.path).toEqual(['Copper lantern']);
    expect(sent).toHaveLength(2);
    for (const request of sent) {
      const offered = Object.keys(request.questions[TAXONOMY_QUESTION]!.criteria as object);
      expect(offered.length).toBeGreaterThanOrEqual(2);
      expect(offered.length).toBeLessThanOrEqual(MAX_OPTIONS);
    }
    // The first request offered groups, the second the labels of the chosen one.
    expect(result.route[0]).toBe(result.steps[0]!.chosen.key);
    expect(Object.keys(result.final.question.criteria)).toContain('Copper lantern');
    expect(result.final.answer.choice).toBe('Copper lantern');
    expect(result.inputTokens).toBe(billed[0]! + billed[1]!);
    expect(result.cost).toBe(estimateCost(result.inputTokens));
    expect(result.pathProbability).toBeCloseTo(
      result.steps[0]!.probability * result.steps[1]!.probability,
      10,
    );
    expect(result.steps.every((s) => s.resolvedModel === 'model-1.13.0')).toBe(true);
  });

  it('resolves the same 600 labels pasted as a material > item tree through the tree’s own groups', async () => {
    const paths = TAXONOMY_MATERIALS.flatMap((m) => TAXONOMY_ITEMS.map((i) => `${m} > ${i}`));
    const { parsed, plan } = planTaxonomy(paths.join('\n'));
    expect(parsed.format).toBe('paths');
    expect(plan.leafCount).toBe(600);
    const { sent, call } = recordingEvaluate();
    const result = await runTaxonomy({
      plan,
      state: 'My wooden stool wobbles: one leg is shorter than the others.',
      instructions: 'Which product is this about?',
      model: 'model-latest',
      evaluate: call,
    });
    expect(result.path).toEqual(['Wooden', 'stool']);
    expect(result.label).toBe('stool');
    expect(sent).toHaveLength(2);
    expect(Object.keys(sent[0]!.questions[TAXONOMY_QUESTION]!.criteria as object)).toEqual([
      ...TAXONOMY_MATERIALS,
    ]);
  });

  it('stops with the service’s 422 when the model id is refused', async () => {
    const { plan } = planTaxonomy(taxonomyLabels().join('\n'));
    const { call } = recordingEvaluate();
    await expect(
      runTaxonomy({ plan, state: 'x', instructions: 'Which?', model: 'model-1.13', evaluate: call }),
    ).rejects.toMatchObject({ name: 'TaxonomyRunError', steps: [] });
  });
});
