// The questions document as text: parse with positions, read it as a form, and edit it in place so the formatting the
// user did not touch survives (jsonc-parser edits replace only the bytes that change).
import { applyEdits, getNodeValue, modify, parseTree, printParseErrorCode } from 'jsonc-parser';
import type { FormattingOptions, Node as JsonNode, ParseError } from 'jsonc-parser';
import { MAX_LEVELS, MAX_OPTIONS, MIN_LEVELS, MIN_OPTIONS, QUESTION_TYPES } from '../contract';
import type { JsonValue, QuestionType } from '../contract';
import { LineIndex } from './locate';
import type { TextSpan } from './locate';
import { isRecord } from '../contract/guards';

/** One syntax problem in a JSON text, located for a marker and described for a person. */
export interface JsonSyntaxProblem {
  span: TextSpan;
  message: string;
}

/** A JSON text parsed: the value and its tree, or the syntax problems (the text itself is never touched). */
export type ParsedJson =
  { ok: true; value: unknown; tree: JsonNode } | { ok: false; empty: boolean; problems: JsonSyntaxProblem[] };

// Keyed by the parser's error names: its codes are a const enum, which isolated modules cannot read.
const PROBLEM_SENTENCES: Record<string, string> = {
  InvalidSymbol: 'this is not a JSON value (text must be in double quotes)',
  InvalidNumberFormat: 'this number is not valid JSON',
  PropertyNameExpected: 'a field name in double quotes is expected here',
  ValueExpected: 'a value is expected here',
  ColonExpected: 'a colon is expected after the field name',
  CommaExpected: 'a comma is missing between two entries',
  CloseBraceExpected: 'a closing brace } is missing',
  CloseBracketExpected: 'a closing bracket ] is missing',
  EndOfFileExpected: 'there is text after the end of the JSON value',
  InvalidCommentToken: 'comments are not allowed in JSON',
  UnexpectedEndOfComment: 'a comment is not closed',
  UnexpectedEndOfString: 'a text value is not closed with a double quote',
  UnexpectedEndOfNumber: 'a number ends too early',
  InvalidUnicode: 'a \\u escape is not valid',
  InvalidEscapeCharacter: 'a backslash escape is not valid',
  InvalidCharacter: 'a character is not allowed here (line breaks inside text must be written \\n)',
};

// The wire format is plain JSON: comments and trailing commas would be dropped or refused, so they are errors here too.
const STRICT = { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false } as const;

/** Parses a JSON text strictly, keeping every problem with its position. */
export function parseJson(text: string): ParsedJson {
  if (text.trim() === '') return { ok: false, empty: true, problems: [] };
  const errors: ParseError[] = [];
  const tree = parseTree(text, errors, STRICT);
  if (errors.length === 0 && tree) return { ok: true, value: getNodeValue(tree) as unknown, tree };
  const index = new LineIndex(text);
  const problems = errors.map((e) => ({
    span: index.span(e.offset, Math.max(1, e.length)),
    message: PROBLEM_SENTENCES[printParseErrorCode(e.error)] ?? 'the JSON is malformed here',
  }));
  return { ok: false, empty: false, problems };
}

/** One clear sentence about a text that does not parse, naming the first problem's line. */
export function syntaxSentence(what: string, parsed: ParsedJson): string | null {
  if (parsed.ok) return null;
  if (parsed.empty) return `The ${what} are empty: write a JSON object to send.`;
  const first = parsed.problems[0];
  if (!first) return `The ${what} are not valid JSON.`;
  const more =
    parsed.problems.length > 1
      ? ` (${parsed.problems.length - 1} more problem${parsed.problems.length > 2 ? 's' : ''} after it)`
      : '';
  return `The ${what} are not valid JSON: line ${first.span.start.line}, column ${first.span.start.column}: ${first.message}${more}. Nothing was lost; fix the text to run.`;
}

/** A question as the form sees it: whatever the text holds, even when it breaks the schema. */
export interface FormQuestion {
  name: string;
  type: unknown;
  instructions: unknown;
  criteria: unknown;
  /** Fields other than type, instructions and criteria (the form shows them, the JSON editor fixes them). */
  extraKeys: string[];
}

/** Reads a parsed questions document as a list of questions in text order; null when it is not an object. */
export function readQuestions(value: unknown): FormQuestion[] | null {
  if (!isRecord(value)) return null;
  return Object.entries(value).map(([name, q]) => {
    const o = isRecord(q) ? q : {};
    return {
      name,
      type: o.type,
      instructions: o.instructions,
      criteria: o.criteria,
      extraKeys: Object.keys(o).filter((k) => k !== 'type' && k !== 'instructions' && k !== 'criteria'),
    };
  });
}

/** Indentation and line ends of a text, so inserted JSON looks like what is already there. */
export function detectFormatting(text: string): FormattingOptions {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const indents = [...text.matchAll(/\n([ \t]+)\S/g)].map((m) => m[1]!);
  if (indents.some((i) => i.startsWith('\t'))) return { insertSpaces: false, tabSize: 1, eol };
  const smallest = indents.reduce((min, i) => Math.min(min, i.length), Infinity);
  return { insertSpaces: true, tabSize: Number.isFinite(smallest) ? smallest : 2, eol };
}

type Path = (string | number)[];

function treeOf(text: string): JsonNode {
  const parsed = parseJson(text);
  if (!parsed.ok) throw new Error('The questions do not parse: the form edits only valid JSON.');
  return parsed.tree;
}

function nodeAt(root: JsonNode, path: Path): JsonNode | undefined {
  let node: JsonNode | undefined = root;
  for (const segment of path) {
    if (!node) return undefined;
    if (node.type === 'object')
      node = node.children?.find((p) => p.children?.[0]?.value === segment)?.children?.[1];
    else if (node.type === 'array' && typeof segment === 'number') node = node.children?.[segment];
    else return undefined;
  }
  return node;
}

/** Sets the value at a path (creating the property if needed), leaving the rest of the text as it was. */
export function setValue(text: string, path: Path, value: JsonValue): string {
  treeOf(text);
  return applyEdits(text, modify(text, path, value, { formattingOptions: detectFormatting(text) }));
}

/** The text range an entry (property or array item) covers, with the separator that goes with it. */
function entryRemovalRange(parent: JsonNode, index: number): { offset: number; length: number } {
  const entries = parent.children ?? [];
  const entry = entries[index]!;
  const next = entries[index + 1];
  const previous = entries[index - 1];
  // Take the separator after the entry, or before it for the last one, so the list stays well formed.
  if (next) return { offset: entry.offset, length: next.offset - entry.offset };
  if (previous) {
    const end = previous.offset + previous.length;
    return { offset: end, length: entry.offset + entry.length - end };
  }
  // The only entry: empty the brackets.
  return { offset: parent.offset + 1, length: parent.length - 2 };
}

/** Removes the value at a path (a property or an array item); the neighbours' text is not reformatted. */
export function removeValue(text: string, path: Path): string {
  const root = treeOf(text);
  const parent = nodeAt(root, path.slice(0, -1));
  const last = path[path.length - 1];
  if (!parent || last === undefined) throw new Error('Nothing to remove there.');
  const index =
    parent.type === 'object'
      ? (parent.children ?? []).findIndex((p) => p.children?.[0]?.value === last)
      : parent.type === 'array' && typeof last === 'number' && last < (parent.children?.length ?? 0)
        ? last
        : -1;
  if (index < 0) return text;
  const { offset, length } = entryRemovalRange(parent, index);
  return applyEdits(text, [{ offset, length, content: '' }]);
}

/** Inserts a property into the object at `parentPath` at position `index` (default: last). */
export function insertProperty(
  text: string,
  parentPath: Path,
  key: string,
  value: JsonValue,
  index?: number,
): string {
  const parent = nodeAt(treeOf(text), parentPath);
  if (!parent || parent.type !== 'object')
    throw new Error(`No object at ${parentPath.join('.') || 'the top level'}.`);
  if (parent.children?.some((p) => p.children?.[0]?.value === key))
    throw new Error(`"${key}" already exists.`);
  return applyEdits(
    text,
    modify(text, [...parentPath, key], value, {
      formattingOptions: detectFormatting(text),
      getInsertionIndex: (properties) =>
        index === undefined ? properties.length : Math.min(index, properties.length),
    }),
  );
}

/** The separator an array already uses between items (", " or ",\n    "), to insert one more in the same style. */
function itemSeparator(text: string, array: JsonNode): string {
  const items = array.children ?? [];
  if (items.length >= 2) return text.slice(items[0]!.offset + items[0]!.length, items[1]!.offset);
  const lead = text.slice(array.offset + 1, items[0]!.offset);
  return lead.includes('\n') ? `,${lead}` : ', ';
}

/** Inserts an item into the array at `arrayPath` at position `index` (default: last), in the array's own style. */
export function insertItem(text: string, arrayPath: Path, value: JsonValue, index?: number): string {
  const array = nodeAt(treeOf(text), arrayPath);
  if (!array || array.type !== 'array') throw new Error(`No array at ${arrayPath.join('.')}.`);
  const items = array.children ?? [];
  if (items.length === 0) {
    return applyEdits(
      text,
      modify(text, [...arrayPath, -1], value, {
        formattingOptions: detectFormatting(text),
        isArrayInsertion: true,
      }),
    );
  }
  const at = index === undefined ? items.length : Math.max(0, Math.min(index, items.length));
  const separator = itemSeparator(text, array);
  const content = JSON.stringify(value);
  if (at === items.length) {
    const last = items[items.length - 1]!;
    return applyEdits(text, [
      { offset: last.offset + last.length, length: 0, content: `${separator}${content}` },
    ]);
  }
  return applyEdits(text, [{ offset: items[at]!.offset, length: 0, content: `${content}${separator}` }]);
}

/** Renames the property at `path` (its last segment is the current name); the value's text is kept byte for byte. */
export function renameProperty(text: string, path: Path, newName: string): string {
  const root = treeOf(text);
  const parent = nodeAt(root, path.slice(0, -1));
  const oldName = path[path.length - 1];
  if (!parent || parent.type !== 'object') throw new Error('No object holds that property.');
  if (oldName === newName) return text;
  if (parent.children?.some((p) => p.children?.[0]?.value === newName))
    throw new Error(`"${newName}" already exists.`);
  const key = parent.children?.find((p) => p.children?.[0]?.value === oldName)?.children?.[0];
  if (!key) throw new Error(`"${String(oldName)}" does not exist.`);
  return applyEdits(text, [{ offset: key.offset, length: key.length, content: JSON.stringify(newName) }]);
}

/**
 * Moves the entry at index `from` of the object or array at `parentPath` to index `to`. Each entry's text moves as it
 * is, and the separators and blank lines between entries stay where they were.
 */
export function moveEntry(text: string, parentPath: Path, from: number, to: number): string {
  const parent = nodeAt(treeOf(text), parentPath);
  const entries = parent?.children ?? [];
  if (!parent || (parent.type !== 'object' && parent.type !== 'array'))
    throw new Error('Nothing to reorder there.');
  if (from < 0 || from >= entries.length || to < 0 || to >= entries.length)
    throw new Error('No entry at that index.');
  if (from === to) return text;
  const texts = entries.map((e) => text.slice(e.offset, e.offset + e.length));
  const order = texts.map((_, i) => i);
  const [moved] = order.splice(from, 1);
  order.splice(to, 0, moved!);
  const lo = Math.min(from, to);
  const hi = Math.max(from, to);
  const edits = [];
  for (let slot = lo; slot <= hi; slot++) {
    const e = entries[slot]!;
    edits.push({ offset: e.offset, length: e.length, content: texts[order[slot]!]! });
  }
  return applyEdits(text, edits);
}

/** A starting question of each kind: also the editor's snippets and the form's "add". */
export function questionTemplate(kind: QuestionType): JsonValue {
  switch (kind) {
    case 'choice':
      return {
        type: 'choice',
        instructions: 'Which category fits best?',
        criteria: { first_label: 'What this label means', second_label: 'What this label means' },
      };
    case 'score':
      return {
        type: 'score',
        instructions: 'How strongly does it show the quality?',
        criteria: ['Not at all', 'Somewhat', 'Clearly and strongly'],
      };
    case 'noul':
      return {
        type: 'noul',
        instructions: 'Does it show the quality?',
        criteria: { true: 'What a yes looks like', false: 'What a no looks like' },
      };
  }
}

/** A name not yet taken: `base`, then `base_2`, `base_3`... */
export function uniqueName(taken: Iterable<string>, base: string): string {
  const used = new Set(taken);
  if (!used.has(base)) return base;
  for (let i = 2; ; i++) if (!used.has(`${base}_${i}`)) return `${base}_${i}`;
}

/** Adds a question of a kind at the end (an empty text becomes an object first); returns the text and the new name. */
export function addQuestion(text: string, kind: QuestionType): { text: string; name: string } {
  const start = text.trim() === '' ? '{}\n' : text;
  const parsed = parseJson(start);
  if (!parsed.ok) throw new Error('The questions do not parse: the form edits only valid JSON.');
  const names = readQuestions(parsed.value)?.map((q) => q.name) ?? [];
  const name = uniqueName(names, `${kind}_question`);
  return { text: insertProperty(start, [], name, questionTemplate(kind)), name };
}

const asText = (d: unknown): string | null => (typeof d === 'string' ? d : null);

/** Criteria for a new kind, carried over from the old ones where the meaning survives (labels and levels swap). */
function convertedCriteria(kind: QuestionType, old: FormQuestion): JsonValue {
  const template = questionTemplate(kind) as { criteria: JsonValue };
  if (kind === 'score' && isRecord(old.criteria)) {
    const levels = Object.entries(old.criteria).map(([label, d]) => asText(d) || label);
    if (levels.length >= MIN_LEVELS && levels.length <= MAX_LEVELS) return levels;
  }
  if (kind === 'choice' && Array.isArray(old.criteria)) {
    const labels = old.criteria.map((l) => (typeof l === 'string' ? l.trim() : '')).filter(Boolean);
    if (
      labels.length >= MIN_OPTIONS &&
      labels.length <= MAX_OPTIONS &&
      new Set(labels).size === labels.length
    ) {
      return Object.fromEntries(labels.map((l) => [l, null]));
    }
  }
  return template.criteria;
}

/** Changes a question's type, with criteria the new kind accepts; instructions and formatting elsewhere stay. */
export function changeQuestionType(text: string, name: string, kind: QuestionType): string {
  const parsed = parseJson(text);
  if (!parsed.ok) throw new Error('The questions do not parse: the form edits only valid JSON.');
  const question = readQuestions(parsed.value)?.find((q) => q.name === name);
  if (!question) throw new Error(`No question named "${name}".`);
  if (question.type === kind) return text;
  let next = setValue(text, [name, 'type'], kind);
  next = setValue(next, [name, 'criteria'], convertedCriteria(kind, question));
  return next;
}

/** Why a question or option name cannot be used, or null. */
export function nameProblem(
  name: string,
  taken: readonly string[],
  what: 'question' | 'label',
): string | null {
  if (name.trim() === '') return `A ${what} name must not be empty.`;
  if (taken.includes(name)) return `"${name}" is already a ${what} name here.`;
  return null;
}

/** Whether a string is one of the service's question types. */
export const isQuestionType = (t: unknown): t is QuestionType =>
  typeof t === 'string' && (QUESTION_TYPES as readonly string[]).includes(t);
