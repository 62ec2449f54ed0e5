import { describe, expect, it } from 'vitest';
import {
  addQuestion,
  changeQuestionType,
  detectFormatting,
  insertItem,
  insertProperty,
  moveEntry,
  nameProblem,
  parseJson,
  readQuestions,
  removeValue,
  renameProperty,
  setValue,
  syntaxSentence,
  uniqueName,
} from '../../../src/core/questionsDocument';
import { QuestionsSchema } from '../../../src/contract';

// Hand-formatted on purpose: compact arrays, an aligned key, a blank line. Edits elsewhere must leave these alone.
const TEXT = `{
  "tone":   { "type": "score", "instructions": "How warm is it?", "criteria": ["Cold", "Neutral", "Warm"] },

  "team": {
    "type": "choice",
    "instructions": "Which team?",
    "criteria": {
      "billing": "Payments",
      "tech": null
    }
  },
  "urgent": { "type": "noul" }
}
`;

const value = (text: string): unknown => {
  const parsed = parseJson(text);
  if (!parsed.ok) throw new Error(syntaxSentence('questions', parsed) ?? 'no parse');
  return parsed.value;
};

describe('parseJson', () => {
  it('parses valid JSON and keeps the tree', () => {
    const parsed = parseJson(TEXT);
    expect(parsed.ok).toBe(true);
    expect(readQuestions(value(TEXT))?.map((q) => q.name)).toEqual(['tone', 'team', 'urgent']);
  });

  it('locates a missing comma on its line and says so in a sentence', () => {
    const text = '{\n  "a": { "type": "noul" }\n  "b": { "type": "noul" }\n}';
    const parsed = parseJson(text);
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.problems[0]!.span.start.line).toBe(3);
    expect(parsed.problems[0]!.message).toMatch(/comma/);
    expect(syntaxSentence('questions', parsed)).toMatch(
      /^The questions are not valid JSON: line 3, column 3: a comma/,
    );
    expect(syntaxSentence('questions', parsed)).toMatch(/Nothing was lost/);
  });

  it('refuses comments and trailing commas, which the wire format does not carry', () => {
    expect(parseJson('{"a": 1,}').ok).toBe(false);
    expect(parseJson('{"a": 1 // note\n}').ok).toBe(false);
  });

  it('reports empty text as empty, not as a syntax error', () => {
    const parsed = parseJson('  \n');
    expect(parsed).toEqual({ ok: false, empty: true, problems: [] });
    expect(syntaxSentence('questions', parsed)).toMatch(/empty/);
  });
});

describe('edits keep untouched formatting', () => {
  it('setValue changes only the value it targets', () => {
    const next = setValue(TEXT, ['team', 'instructions'], 'Which team should answer?');
    expect(next).toBe(TEXT.replace('"Which team?"', '"Which team should answer?"'));
  });

  it('setValue escapes quotes and line breaks', () => {
    const next = setValue(TEXT, ['tone', 'instructions'], 'Say "warm"\nor not');
    expect((value(next) as { tone: { instructions: string } }).tone.instructions).toBe('Say "warm"\nor not');
  });

  it('setValue adds a missing property to a one-line object', () => {
    const next = setValue(TEXT, ['urgent', 'instructions'], 'Is it urgent?');
    expect((value(next) as Record<string, unknown>).urgent).toEqual({
      type: 'noul',
      instructions: 'Is it urgent?',
    });
    expect(next).toContain('"tone":   { "type": "score"');
  });

  it('renameProperty rewrites the key only', () => {
    const next = renameProperty(TEXT, ['team', 'criteria', 'tech'], 'technical');
    expect(next).toBe(TEXT.replace('"tech": null', '"technical": null'));
    expect(() => renameProperty(TEXT, ['team'], 'tone')).toThrow(/already exists/);
  });

  it('moveEntry swaps whole questions and leaves separators and the blank line in place', () => {
    const next = moveEntry(TEXT, [], 2, 0);
    expect(readQuestions(value(next))?.map((q) => q.name)).toEqual(['urgent', 'tone', 'team']);
    expect(next).toContain('"urgent": { "type": "noul" },\n\n  "tone":   { "type": "score"');
    expect(moveEntry(next, [], 0, 2)).toBe(TEXT);
  });

  it('moveEntry reorders score levels', () => {
    const next = moveEntry(TEXT, ['tone', 'criteria'], 0, 2);
    expect(next).toContain('["Neutral", "Warm", "Cold"]');
  });

  it('insertItem follows the array style, compact or one per line', () => {
    expect(insertItem(TEXT, ['tone', 'criteria'], 'Very warm')).toContain(
      '["Cold", "Neutral", "Warm", "Very warm"]',
    );
    expect(insertItem(TEXT, ['tone', 'criteria'], 'Icy', 0)).toContain('["Icy", "Cold", "Neutral", "Warm"]');
    const lines = '{\n  "a": [\n    "x",\n    "y"\n  ]\n}';
    expect(insertItem(lines, ['a'], 'z')).toBe('{\n  "a": [\n    "x",\n    "y",\n    "z"\n  ]\n}');
  });

  it('removeValue removes an item with its separator, first, middle or last', () => {
    expect(removeValue(TEXT, ['tone', 'criteria', 0])).toContain('["Neutral", "Warm"]');
    expect(removeValue(TEXT, ['tone', 'criteria', 1])).toContain('["Cold", "Warm"]');
    expect(removeValue(TEXT, ['tone', 'criteria', 2])).toContain('["Cold", "Neutral"]');
    const withoutTech = removeValue(TEXT, ['team', 'criteria', 'tech']);
    expect(withoutTech).toContain('"criteria": {\n      "billing": "Payments"\n    }');
    expect(removeValue('{"a": 1}', ['a'])).toBe('{}');
  });

  it('removing a question keeps the others byte for byte', () => {
    const next = removeValue(TEXT, ['team']);
    expect(readQuestions(value(next))?.map((q) => q.name)).toEqual(['tone', 'urgent']);
    expect(next).toContain(
      '"tone":   { "type": "score", "instructions": "How warm is it?", "criteria": ["Cold", "Neutral", "Warm"] }',
    );
  });

  it('insertProperty places a label at an index and refuses a duplicate', () => {
    const next = insertProperty(TEXT, ['team', 'criteria'], 'sales', 'Deals', 1);
    expect(Object.keys((value(next) as { team: { criteria: object } }).team.criteria)).toEqual([
      'billing',
      'sales',
      'tech',
    ]);
    expect(() => insertProperty(TEXT, ['team', 'criteria'], 'billing', null)).toThrow(/already exists/);
  });

  it('refuses to edit text that does not parse, so nothing is overwritten', () => {
    expect(() => setValue('{"a": ', ['a'], 1)).toThrow(/do not parse/);
  });
});

describe('questions from the form', () => {
  it('addQuestion writes a valid question of each kind with a fresh name', () => {
    let text = '';
    for (const kind of ['choice', 'score', 'noul', 'choice'] as const) text = addQuestion(text, kind).text;
    const parsed = value(text);
    expect(Object.keys(parsed as object)).toEqual([
      'choice_question',
      'score_question',
      'noul_question',
      'choice_question_2',
    ]);
    expect(QuestionsSchema.safeParse(parsed).success).toBe(true);
  });

  it('changeQuestionType carries levels over to labels and back where it can', () => {
    const toChoice = changeQuestionType(TEXT, 'tone', 'choice');
    expect((value(toChoice) as Record<string, unknown>).tone).toEqual({
      type: 'choice',
      instructions: 'How warm is it?',
      criteria: { Cold: null, Neutral: null, Warm: null },
    });
    const toScore = changeQuestionType(TEXT, 'team', 'score');
    expect((value(toScore) as { team: { criteria: unknown } }).team.criteria).toEqual(['Payments', 'tech']);
    const toNoul = changeQuestionType(TEXT, 'team', 'noul');
    expect(QuestionsSchema.safeParse(value(toNoul)).success).toBe(true);
  });

  it('readQuestions keeps what does not fit the schema, for the form to show', () => {
    const qs = readQuestions({ a: { type: 'boolean', extra: 1 }, b: 'text' });
    expect(qs).toEqual([
      { name: 'a', type: 'boolean', instructions: undefined, criteria: undefined, extraKeys: ['extra'] },
      { name: 'b', type: undefined, instructions: undefined, criteria: undefined, extraKeys: [] },
    ]);
    expect(readQuestions([1, 2])).toBeNull();
  });

  it('names: unique and checked', () => {
    expect(uniqueName(['a', 'a_2'], 'a')).toBe('a_3');
    expect(nameProblem('', [], 'label')).toMatch(/empty/);
    expect(nameProblem('x', ['x'], 'question')).toMatch(/already/);
    expect(nameProblem('y', ['x'], 'question')).toBeNull();
  });

  it('detectFormatting reads tabs, four spaces and CRLF', () => {
    expect(detectFormatting('{\n\t"a": 1\n}')).toMatchObject({ insertSpaces: false });
    expect(detectFormatting('{\r\n    "a": {\r\n        "b": 1\r\n    }\r\n}')).toEqual({
      insertSpaces: true,
      tabSize: 4,
      eol: '\r\n',
    });
  });
});
