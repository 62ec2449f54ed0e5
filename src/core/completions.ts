// Completions the JSON Schema cannot give: question snippets at the top level, state field names inside backticks.
import { getLocation } from 'jsonc-parser';
import { QUESTION_TYPES, questionsJsonSchema } from '../contract';
import type { QuestionType } from '../contract';
import { detectFormatting, questionTemplate } from './questionsDocument';

/** A completion offered at the cursor beside the JSON language's own, as plain data the editor adapter converts. */
export interface TextCompletion {
  label: string;
  /** Text to insert; with `snippet`, Monaco snippet syntax (`${1:name}` placeholders). */
  insertText: string;
  snippet?: boolean;
  kind: 'field' | 'snippet' | 'value';
  detail?: string;
  documentation?: string;
  /** The text the completion replaces (default: the word at the cursor). */
  replace?: { offset: number; length: number };
}

const SNIPPET_DOCS: Record<QuestionType, string> = {
  choice: 'Pick one label of a closed set: 2 to 255 labels, each with an optional description.',
  score: 'Rate on an ordered scale: 2 to 10 descriptive levels, lowest first, numbered 0..n-1 in the answer.',
  noul: 'A yes/no judgment answered with the probability of yes, with optional descriptions of yes and no.',
};

// Snippet syntax gives `$`, `}` and `\` meaning; template text must not trigger it.
const escapeSnippet = (s: string): string => s.replace(/[$}\\]/g, (c) => `\\${c}`);

/** The JSON text of a template, indented one level below `indent` with the document's own unit. */
function templateText(kind: QuestionType, indent: string, unit: string, eol: string): string {
  const json = JSON.stringify(questionTemplate(kind), null, unit);
  return json
    .split('\n')
    .map((line, i) => (i === 0 ? line : `${indent}${line}`))
    .join(eol);
}

const WORD = /[A-Za-z0-9_-]/;

/** The snippets of a choice, score and noul question where a question name may be typed at the top level. */
function questionSnippets(
  text: string,
  offset: number,
  replaceFrom: number,
  replaceTo: number,
): TextCompletion[] {
  const formatting = detectFormatting(text);
  const unit = formatting.insertSpaces === false ? '\t' : ' '.repeat(formatting.tabSize ?? 2);
  const eol = formatting.eol ?? '\n';
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  const indent = /^[ \t]*/.exec(text.slice(lineStart))![0];
  // A comma is needed before the snippet after a value, and after it before another property.
  let before = replaceFrom - 1;
  while (before >= 0 && /\s/.test(text[before]!)) before--;
  const needsLeadingComma = before >= 0 && !['{', ','].includes(text[before]!);
  let after = replaceTo;
  while (after < text.length && /\s/.test(text[after]!)) after++;
  const needsTrailingComma = text[after] === '"';
  const from = needsLeadingComma ? before + 1 : replaceFrom;
  return QUESTION_TYPES.map((kind) => {
    const body = escapeSnippet(templateText(kind, indent, unit, eol));
    const lead = needsLeadingComma ? `,${text.slice(before + 1, replaceFrom)}` : '';
    return {
      label: `${kind} question`,
      kind: 'snippet' as const,
      snippet: true,
      detail: `Insert a ${kind} question`,
      documentation: SNIPPET_DOCS[kind],
      insertText: `${lead}"\${1:${kind}_question}": ${body}${needsTrailingComma ? ',' : ''}`,
      replace: { offset: from, length: replaceTo - from },
    };
  });
}

/** Whether a question name goes at the cursor, also right after a question whose comma is not typed yet. */
function atTopLevelKey(text: string, offset: number): boolean {
  const here = getLocation(text, offset);
  if (here.isAtPropertyKey && here.path.length === 1) return true;
  let from = offset;
  while (from > 0 && /[\w"-]/.test(text[from - 1]!)) from--;
  let before = from - 1;
  while (before >= 0 && /\s/.test(text[before]!)) before--;
  if (before < 0 || ['{', ','].includes(text[before]!)) return false;
  // Ask again as if the comma were there.
  const withComma = `${text.slice(0, before + 1)},${text.slice(before + 1)}`;
  const there = getLocation(withComma, offset + 1);
  return there.isAtPropertyKey && there.path.length === 1;
}

/**
 * Completions for the questions editor at a cursor offset: question snippets where a question name goes, and the
 * state's field names after an opening backtick inside `instructions`.
 */
export function questionsCompletions(
  text: string,
  offset: number,
  stateFields: readonly string[],
): TextCompletion[] {
  const location = getLocation(text, offset);
  const { path, previousNode } = location;

  if (!location.isAtPropertyKey && path[1] === 'instructions' && previousNode?.type === 'string') {
    const contentStart = previousNode.offset + 1;
    if (offset < contentStart) return [];
    const typed = text.slice(contentStart, offset);
    const ticks = typed.split('`').length - 1;
    if (ticks % 2 === 0) return [];
    const tick = contentStart + typed.lastIndexOf('`');
    const partial = text.slice(tick + 1, offset);
    const closed = text[offset] === '`';
    return stateFields
      .filter((f) => f.toLowerCase().startsWith(partial.toLowerCase()))
      .map((field) => ({
        label: field,
        kind: 'field' as const,
        insertText: closed ? field : `${field}\``,
        detail: 'State field',
        documentation: `Names the state field "${field}" for the model to read.`,
        replace: { offset: tick + 1, length: partial.length },
      }));
  }

  if (atTopLevelKey(text, offset)) {
    // Replace the word being typed, with its quotes when there are any.
    let from = offset;
    while (from > 0 && WORD.test(text[from - 1]!)) from--;
    let to = offset;
    while (to < text.length && WORD.test(text[to]!)) to++;
    const quoted = text[from - 1] === '"';
    if (quoted) from--;
    if (quoted && text[to] === '"') to++;
    return questionSnippets(text, offset, from, to);
  }
  return [];
}

/**
 * The questions' JSON Schema for the editor: the contract's, with every question's `type` also listed as one enum.
 * The editor proposes values from the branch of the union that fits best so far (often only `noul` for a question
 * without criteria); the enum makes it offer all three kinds. Validation is unchanged: the union already requires one.
 */
export function editorQuestionsSchema(): Record<string, unknown> {
  const schema = questionsJsonSchema();
  const question = schema.additionalProperties as Record<string, unknown> | undefined;
  if (!question || typeof question !== 'object') return schema;
  return {
    ...schema,
    additionalProperties: {
      allOf: [
        {
          properties: {
            type: { enum: [...QUESTION_TYPES], description: 'The kind of question: choice, score or noul.' },
          },
        },
        question,
      ],
    },
  };
}
