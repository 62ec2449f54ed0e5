import { describe, expect, it } from 'vitest';
import { applyEdits } from 'jsonc-parser';
import { editorQuestionsSchema, questionsCompletions } from '../../../src/core/completions';
import { parseJson } from '../../../src/core/questionsDocument';
import type { TextCompletion } from '../../../src/core/completions';

/** Text with a | at the cursor. */
const at = (marked: string, fields: string[] = []) => {
  const offset = marked.indexOf('|');
  const text = marked.replace('|', '');
  return { text, offset, items: questionsCompletions(text, offset, fields) };
};

/** Applies a completion the way an editor does, with snippet placeholders resolved to their defaults. */
const accept = (text: string, c: TextCompletion): string => {
  const insert = c.snippet
    ? c.insertText.replace(/\$\{\d+:([^}]*)\}/g, '$1').replace(/\\([$}\\])/g, '$1')
    : c.insertText;
  return applyEdits(text, [{ offset: c.replace!.offset, length: c.replace!.length, content: insert }]);
};

describe('question snippets', () => {
  it('offers a choice, score and noul question where a question name goes', () => {
    const { items } = at('{\n  |\n}');
    expect(items.map((i) => i.label)).toEqual(['choice question', 'score question', 'noul question']);
    expect(items.every((i) => i.snippet && i.kind === 'snippet')).toBe(true);
  });

  it('inserting a snippet into an empty object gives valid JSON with that question', () => {
    const { text, items } = at('{\n  |\n}');
    for (const item of items) {
      const parsed = parseJson(accept(text, item));
      expect(parsed.ok).toBe(true);
    }
    const score = parseJson(accept(text, items[1]!));
    expect(score.ok && (score.value as Record<string, { type: string }>).score_question!.type).toBe('score');
  });

  it('adds the comma after an existing question, and before a following one', () => {
    const after = at('{\n  "a": {"type": "noul"}\n  |\n}');
    expect(parseJson(accept(after.text, after.items[0]!)).ok).toBe(true);
    const typed = at('{\n  "a": {"type": "noul"}\n  cho|\n}');
    expect(parseJson(accept(typed.text, typed.items[0]!)).ok).toBe(true);
    const between = at('{\n  |\n  "a": {"type": "noul"}\n}');
    const result = accept(between.text, between.items[2]!);
    expect(parseJson(result).ok).toBe(true);
    expect(Object.keys((parseJson(result) as { value: object }).value)).toEqual(['noul_question', 'a']);
  });

  it('replaces a half-typed quoted name', () => {
    const { text, items } = at('{\n  "a": {"type": "noul"},\n  "cho|"\n}');
    const result = accept(text, items[0]!);
    expect(parseJson(result).ok).toBe(true);
    expect(result).not.toContain('cho"');
  });

  it('offers nothing inside a question', () => {
    expect(at('{\n  "a": {|}\n}').items).toEqual([]);
  });
});

describe('state fields in backticks', () => {
  const fields = ['claim', 'customer', 'locale'];

  it('completes field names after an opening backtick in instructions', () => {
    const { text, items } = at('{"a": {"type": "noul", "instructions": "Is `c|"}}', fields);
    expect(items.map((i) => i.label)).toEqual(['claim', 'customer']);
    expect(accept(text, items[0]!)).toBe('{"a": {"type": "noul", "instructions": "Is `claim`"}}');
  });

  it('does not add a second closing backtick', () => {
    const { text, items } = at('{"a": {"type": "noul", "instructions": "Is `|` ok"}}', fields);
    expect(items).toHaveLength(3);
    expect(accept(text, items[2]!)).toBe('{"a": {"type": "noul", "instructions": "Is `locale` ok"}}');
  });

  it('works inside an instructions object too', () => {
    expect(
      at('{"a": {"type": "noul", "instructions": {"q": "Is `l|"}}}', fields).items.map((i) => i.label),
    ).toEqual(['locale']);
  });

  it('stays quiet outside backticks, outside instructions, and without state fields', () => {
    expect(at('{"a": {"type": "noul", "instructions": "Is `claim` |"}}', fields).items).toEqual([]);
    expect(at('{"a": {"type": "choice", "criteria": {"x": "`c|"}}}', fields).items).toEqual([]);
    expect(at('{"a": {"type": "noul", "instructions": "Is `c|"}}', []).items).toEqual([]);
  });
});

describe('editor schema', () => {
  it('lists the three kinds as one enum beside the contract union', () => {
    const schema = editorQuestionsSchema() as {
      additionalProperties: { allOf: [{ properties: { type: { enum: string[] } } }, { oneOf: unknown[] }] };
    };
    expect(schema.additionalProperties.allOf[0].properties.type.enum).toEqual(['choice', 'score', 'noul']);
    expect(schema.additionalProperties.allOf[1].oneOf).toHaveLength(3);
  });
});
