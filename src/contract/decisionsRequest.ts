// The interface's request <-> the Decisions dialect's request, both ways. The proxy uses `toDecisionsRequest`; the
// Decisions stand-in uses `fromDecisionsRequest`; a request taken there and back is unchanged (a property test holds
// this). What the Decisions form cannot carry is refused with a located sentence, never silently rewritten.
import type { DecisionsInput, DecisionsPart, DecisionsQuestion, DecisionsRequest } from './decisionsWire';
import { DecisionsRequestSchema } from './decisionsWire';
import type { Description, EvaluateRequest, JsonValue, Question, Questions, State } from './request';
import type { FieldError, Loc } from './validation';
import { fieldErrors } from './validation';
import { isRecord } from './guards';

export type Translated<T> = { ok: true; value: T } | { ok: false; errors: FieldError[] };

const fail = <T>(loc: Loc, msg: string): Translated<T> => ({ ok: false, errors: [{ loc, msg }] });

/**
 * Text, an object or an array as Decisions instructions: text stays text; an object, or an array of objects only,
 * becomes one JSON part; any other array becomes one part per element (text or JSON object).
 */
export function toDecisionsParts(value: Description, loc: Loc): Translated<string | DecisionsPart[]> {
  if (typeof value === 'string') return { ok: true, value };
  if (isRecord(value)) return { ok: true, value: [{ type: 'input_json', data: value }] };
  if (value.every(isRecord))
    return { ok: true, value: [{ type: 'input_json', data: value as Record<string, JsonValue>[] }] };
  const parts: DecisionsPart[] = [];
  for (const [i, element] of value.entries()) {
    if (typeof element === 'string') parts.push({ type: 'input_text', text: element });
    else if (isRecord(element)) parts.push({ type: 'input_json', data: element });
    else
      return fail(
        [...loc, i],
        'The Decisions form carries text and JSON objects only: write this element as text or an object.',
      );
  }
  return { ok: true, value: parts };
}

/** The inverse of `toDecisionsParts`. */
export function fromDecisionsParts(value: string | DecisionsPart[], loc: Loc): Translated<Description> {
  if (typeof value === 'string') return { ok: true, value };
  const only = value.length === 1 ? value[0] : undefined;
  if (only?.type === 'input_json') return { ok: true, value: only.data as Description };
  const out: JsonValue[] = [];
  for (const [i, part] of value.entries()) {
    if (part.type === 'input_text') out.push(part.text);
    else if (part.type === 'input_json' && isRecord(part.data)) out.push(part.data as JsonValue);
    else if (part.type === 'input_image')
      return fail([...loc, i], 'The workbench judges text and JSON only; an image part cannot be carried.');
    else return fail([...loc, i], 'A JSON array part is read only as the whole of its field.');
  }
  return { ok: true, value: out };
}

/** The state as a Decisions input: text as it is, anything else as one user message of parts. */
function toInput(state: State): Translated<DecisionsInput> {
  if (typeof state === 'string') return { ok: true, value: state };
  const parts = toDecisionsParts(state, ['state']);
  if (!parts.ok) return parts;
  return { ok: true, value: [{ role: 'user', content: parts.value }] };
}

function fromInput(input: DecisionsInput): Translated<State> {
  if (typeof input === 'string') return { ok: true, value: input };
  const only = input.length === 1 ? input[0] : undefined;
  if (!only || only.role !== 'user')
    return fail(['input'], 'The workbench holds one state: send one user message, or text.');
  const content = only.content;
  if (typeof content === 'string') return { ok: true, value: content };
  if (!Array.isArray(content)) return fail(['input', 0, 'content'], 'The message has no content.');
  return fromDecisionsParts(content as DecisionsPart[], ['input', 0, 'content']) as Translated<State>;
}

const textDescription = (value: Description | null | undefined, loc: Loc): Translated<string | undefined> => {
  if (value === undefined || value === null) return { ok: true, value: undefined };
  if (typeof value === 'string') return { ok: true, value };
  return fail(loc, 'The Decisions form takes descriptions as text only: write this description as text.');
};

function toQuestion(name: string, question: Question): Translated<DecisionsQuestion> {
  const at: Loc = ['questions', name];
  if (question.instructions === undefined)
    return fail(
      [...at, 'instructions'],
      'The Decisions form needs instructions on every question: say what to judge.',
    );
  const instructions = toDecisionsParts(question.instructions, [...at, 'instructions']);
  if (!instructions.ok) return instructions;
  const base = { name, instructions: instructions.value };
  switch (question.type) {
    case 'noul': {
      if (!question.criteria) return { ok: true, value: { type: 'predicate', ...base } };
      // Described yes and no become a choice between the typed values true and false, which keeps both descriptions.
      const choices = [];
      for (const value of [true, false] as const) {
        const key = String(value) as 'true' | 'false';
        const description = textDescription(question.criteria[key], [...at, 'criteria', key]);
        if (!description.ok) return description;
        choices.push(description.value === undefined ? { value } : { value, description: description.value });
      }
      return { ok: true, value: { type: 'choice', ...base, choices } };
    }
    case 'choice': {
      const choices = [];
      for (const [label, raw] of Object.entries(question.criteria)) {
        const description = textDescription(raw, [...at, 'criteria', label]);
        if (!description.ok) return description;
        choices.push(
          description.value === undefined
            ? { value: label }
            : { value: label, description: description.value },
        );
      }
      return { ok: true, value: { type: 'choice', ...base, choices } };
    }
    case 'score':
      return {
        ok: true,
        value: { type: 'score', ...base, levels: question.criteria.map((label) => ({ label })) },
      };
  }
}

/** The interface's request in the Decisions form: `input`, and the questions as an array in map order, named. */
export function toDecisionsRequest(request: EvaluateRequest): Translated<DecisionsRequest> {
  const errors: FieldError[] = [];
  const input = toInput(request.state);
  if (!input.ok) errors.push(...input.errors);
  const questions: DecisionsQuestion[] = [];
  for (const [name, question] of Object.entries(request.questions)) {
    const translated = toQuestion(name, question);
    if (translated.ok) questions.push(translated.value);
    else errors.push(...translated.errors);
  }
  if (!input.ok || errors.length) return { ok: false, errors };
  return { ok: true, value: { model: request.model, input: input.value, questions } };
}

/** True when a Decisions choice is the form `toQuestion` gives a described noul: the values true and false. */
export const isYesNoChoice = (choices: readonly { value: string | boolean }[]): boolean =>
  choices.length === 2 && choices[0]!.value === true && choices[1]!.value === false;

function fromQuestion(question: DecisionsQuestion, i: number): Translated<Question> {
  const at: Loc = ['questions', i];
  const instructions = fromDecisionsParts(question.instructions, [...at, 'instructions']);
  if (!instructions.ok) return instructions;
  switch (question.type) {
    case 'predicate':
      return { ok: true, value: { type: 'noul', instructions: instructions.value } };
    case 'choice': {
      if (isYesNoChoice(question.choices)) {
        const criteria: { true?: string; false?: string } = {};
        for (const choice of question.choices)
          if (choice.description !== undefined)
            criteria[String(choice.value) as 'true' | 'false'] = choice.description;
        return { ok: true, value: { type: 'noul', instructions: instructions.value, criteria } };
      }
      const entries: [string, string | null][] = [];
      const seen = new Set<string>();
      for (const [k, choice] of question.choices.entries()) {
        if (typeof choice.value !== 'string')
          return fail(
            [...at, 'choices', k, 'value'],
            'Only a yes/no choice may use the values true and false; other choice values are text.',
          );
        if (seen.has(choice.value))
          return fail(
            [...at, 'choices', k, 'value'],
            `The choice "${choice.value}" is given twice; each choice must be unique.`,
          );
        seen.add(choice.value);
        entries.push([choice.value, choice.description ?? null]);
      }
      return {
        ok: true,
        value: { type: 'choice', instructions: instructions.value, criteria: Object.fromEntries(entries) },
      };
    }
    case 'score':
      return {
        ok: true,
        value: {
          type: 'score',
          instructions: instructions.value,
          criteria: question.levels.map((l) => (l.description ? `${l.label}: ${l.description}` : l.label)),
        },
      };
  }
}

/** A Decisions body read back into the interface's form, with each question's name as sent (null when unnamed). */
export interface FromDecisions {
  request: EvaluateRequest;
  /** Question keys in order: the name sent, or `question_<i>` for an unnamed one. */
  keys: string[];
  /** Names as sent, for the answers' `name` (null when a question had none). */
  names: (string | null)[];
}

/** Reads a Decisions body into the interface's form; a shape it cannot carry is refused with located errors. */
export function fromDecisionsRequest(body: unknown): Translated<FromDecisions> {
  const parsed = DecisionsRequestSchema.safeParse(body);
  if (!parsed.success) return { ok: false, errors: fieldErrors(parsed.error, body) };
  const { model, input, questions } = parsed.data;
  const errors: FieldError[] = [];
  const state = fromInput(input as DecisionsInput);
  if (!state.ok) errors.push(...state.errors);
  const names = questions.map((q) => q.name ?? null);
  const keys: string[] = [];
  const entries: [string, Question][] = [];
  for (const [i, question] of questions.entries()) {
    const key = question.name ?? `question_${i}`;
    if (keys.includes(key))
      errors.push({ loc: ['questions', i, 'name'], msg: `The question name "${key}" is used twice.` });
    keys.push(key);
    const translated = fromQuestion(question, i);
    if (translated.ok) entries.push([key, translated.value]);
    else errors.push(...translated.errors);
  }
  if (!state.ok || errors.length) return { ok: false, errors };
  const translatedQuestions: Questions = Object.fromEntries(entries);
  return {
    ok: true,
    value: { request: { state: state.value, model, questions: translatedQuestions }, keys, names },
  };
}

/**
 * A location in the Decisions body the workbench sent, as a location in the interface's request, so a server's
 * field error lands on the right editor line. Unknown places map to the nearest field that exists.
 */
export function decisionsLocToRequestLoc(loc: Loc, request: EvaluateRequest): Loc {
  const [head, index, field, item] = loc;
  if (head === 'model') return ['model'];
  if (head === 'input') return ['state'];
  if (head !== 'questions') return [];
  const names = Object.keys(request.questions);
  const name = typeof index === 'number' ? names[index] : typeof index === 'string' ? index : undefined;
  if (name === undefined || !Object.hasOwn(request.questions, name)) return ['questions'];
  const question = request.questions[name]!;
  const at: Loc = ['questions', name];
  if (field === 'instructions') return [...at, 'instructions'];
  if (field === 'type') return [...at, 'type'];
  if (field === 'choices' || field === 'levels') {
    if (typeof item !== 'number') return [...at, 'criteria'];
    if (question.type === 'noul') return [...at, 'criteria', item === 0 ? 'true' : 'false'];
    if (question.type === 'choice') {
      const label = Object.keys(question.criteria)[item];
      return label === undefined ? [...at, 'criteria'] : [...at, 'criteria', label];
    }
    return [...at, 'criteria', item];
  }
  return at;
}
