import { describe, expect, it } from 'vitest';
import { questionsJsonSchema, requestJsonSchema } from '../../../src/contract';

type Schema = Record<string, unknown> & {
  properties?: Record<string, Schema>;
  additionalProperties?: Schema;
};

describe('JSON Schema export', () => {
  it('describes the whole request with its three fields and no others', () => {
    const schema = requestJsonSchema() as Schema;
    expect(schema.required).toEqual(['state', 'model', 'questions']);
    expect(schema.additionalProperties).toBe(false);
    expect(Object.keys(schema.properties ?? {})).toEqual(['state', 'model', 'questions']);
  });

  it('gives the questions editor each kind with its limits and descriptions', () => {
    const schema = questionsJsonSchema() as Schema;
    const kinds = (schema.additionalProperties as { oneOf: Schema[] }).oneOf;
    const byType = Object.fromEntries(kinds.map((k) => [(k.properties!.type as { const: string }).const, k]));
    expect(Object.keys(byType).sort()).toEqual(['choice', 'noul', 'score']);
    const levels = byType.score!.properties!.criteria as Schema;
    expect(levels.minItems).toBe(2);
    expect(levels.maxItems).toBe(10);
    expect(String(levels.description)).toMatch(/lowest first/);
    expect(String((byType.choice!.properties!.criteria as Schema).description)).toMatch(/255/);
  });
});
