// Model ids: aliases move between versions (bad for comparisons and file runs); a product line names no model.
import { classifyModelId } from '../../../contract';
import type { LintRule, LintContext } from '../types';

/** The model ids of the run being prepared: the comparison columns or file run's model, else the single model. */
const modelsOf = ({ input }: LintContext): string[] => {
  const ids =
    input.mode !== 'single' && input.models && input.models.length > 0 ? input.models : [input.model];
  return [...new Set(ids.map((id) => id.trim()).filter((id) => id !== ''))];
};

export const aliasPinning: LintRule = {
  id: 'model/alias-pinning',
  severity: 'warning',
  title: 'Alias in a comparison or file run',
  explanation:
    'An alias can move to a new version mid-run; pin a versioned id so every answer comes from the same model.',
  check(ctx) {
    if (ctx.input.mode === 'single') return [];
    const what = ctx.input.mode === 'compare' ? 'comparison' : 'file run';
    return modelsOf(ctx)
      .filter((id) => classifyModelId(id) === 'alias')
      .map((id) => ({
        message: `"${id}" is an alias and can move to a new version during this ${what}; pin a versioned id (the workbench offers the id it last resolved to).`,
        loc: ['model'],
      }));
  },
};

export const productLine: LintRule = {
  id: 'model/product-line',
  severity: 'warning',
  title: 'Product-line model id',
  explanation:
    'An id like `model-1.13` names a product line, not a model; it is accepted only if the model list offers it.',
  check(ctx) {
    return modelsOf(ctx)
      .filter((id) => classifyModelId(id) === 'product-line')
      .map((id) => ({
        message: `"${id}" names a product line, not a model; pick a versioned id such as ${id}.0, or an alias the model list offers.`,
        loc: ['model'],
      }));
  },
};
