// The one tokenizer of the project: the reference bills with it and the workbench estimates with it,
// so an estimate equals the bill. cl100k_base is large (about 1 MB): the SPA loads this module lazily.
import { countTokens as countCl100k } from 'gpt-tokenizer/encoding/cl100k_base';
import type { Description, EvaluateRequest, Question, State } from './request';
import { MAX_REQUEST_INPUT_TOKENS, MAX_STATE_PLUS_QUESTION_TOKENS } from './limits';

/**
 * Longest unbroken run (letters, symbols or whitespace) counted as one piece. The tokenizer's merge step is quadratic
 * in a piece's length (80,000 letters took 7 s), so a longer run is counted as consecutive pieces of at most this many
 * characters, each alone. Ordinary text (words, numbers, code) has no such run and is counted exactly as cl100k_base
 * counts it; docs/token-counting.md states the rule.
 */
export const MAX_RUN_CHARS = 64;
/** Text is counted in segments of about this many characters, cut where the tokenizer's pieces break anyway. */
export const SEGMENT_CHARS = 8_192;

const LONG_RUN = new RegExp(
  `\\p{L}{${MAX_RUN_CHARS + 1},}|[^\\s\\p{L}\\p{N}]{${MAX_RUN_CHARS + 1},}|\\s{${MAX_RUN_CHARS + 1},}`,
  'gu',
);
// Places where a cl100k piece always ends, whatever follows (see docs/token-counting.md): after a letter before a
// non-letter, after a digit before a non-digit, after a non-space before a space or tab, after a line break before a
// non-space. Cutting there and counting each side alone gives the same pieces as counting the whole.
const SAFE_CUT = /(?<=\p{L})(?!\p{L})|(?<=\p{N})(?!\p{N})|(?<=\S)(?=[^\S\r\n])|(?<=[\r\n])(?=\S)/gu;
// Special-token text ("<|endoftext|>") in a state is the user's text: counted as text, never refused or thrown on.
const AS_TEXT = { disallowedSpecial: new Set<string>() };

/**
 * Whether `text` may hold a run LONG_RUN matches, by a scan far cheaper than the Unicode regex: ASCII characters are
 * classed as LONG_RUN classes them (letter, space, digit, other), and any other character may continue any run, so the
 * answer is never a wrong "no". Ordinary text in a Latin script is cleared without the regex.
 */
function mayHoldLongRun(text: string): boolean {
  let letters = 0;
  let spaces = 0;
  let others = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 128) {
      letters++;
      spaces++;
      others++;
    } else if ((c >= 65 && c <= 90) || (c >= 97 && c <= 122)) {
      letters++;
      spaces = others = 0;
    } else if (c === 32 || (c >= 9 && c <= 13)) {
      spaces++;
      letters = others = 0;
    } else if (c >= 48 && c <= 57) {
      letters = spaces = others = 0;
    } else {
      others++;
      letters = spaces = 0;
    }
    if (letters > MAX_RUN_CHARS || spaces > MAX_RUN_CHARS || others > MAX_RUN_CHARS) return true;
  }
  return false;
}

/** The tokenizer's own count of a bounded piece of text, with special-token text read as text. */
const countPlain = (text: string): number =>
  text.includes('<|') ? countCl100k(text, AS_TEXT) : countCl100k(text);

/** Splits `run` into pieces of at most MAX_RUN_CHARS characters, never between the halves of a surrogate pair. */
function* runPieces(run: string): Generator<string> {
  for (let at = 0; at < run.length;) {
    let end = Math.min(run.length, at + MAX_RUN_CHARS);
    const code = run.charCodeAt(end - 1);
    if (end < run.length && code >= 0xd800 && code <= 0xdbff) end--;
    yield run.slice(at, end);
    at = end;
  }
}

/** Splits text without long runs into segments of about `segmentChars`, at places where the pieces break anyway. */
function* plainSegments(text: string, segmentChars: number): Generator<string> {
  // A copy per call: a caller may pause between segments while another count runs.
  const cuts = new RegExp(SAFE_CUT);
  let at = 0;
  while (text.length - at > segmentChars) {
    let from = at + segmentChars;
    cuts.lastIndex = from;
    let cut = cuts.exec(text);
    // A unicode regex starting inside a surrogate pair steps back to the pair: never cut at or before `at`.
    while (cut && cut.index <= at) {
      cuts.lastIndex = ++from;
      cut = cuts.exec(text);
    }
    if (!cut || cut.index >= text.length) break;
    yield text.slice(at, cut.index);
    at = cut.index;
  }
  if (at < text.length) yield at === 0 ? text : text.slice(at);
}

/**
 * The text as the pieces it is counted in: segments of ordinary text, and each long run cut into bounded pieces.
 * Every piece is short enough to count in well under a millisecond, so a caller can yield between pieces.
 */
export function* countingPieces(text: string, segmentChars = SEGMENT_CHARS): Generator<string> {
  let at = 0;
  // matchAll works on a copy of the regex, so counts paused between pieces do not disturb each other; the copy starts
  // where the shared regex's last test left it, so from 0 (else the first long run would go uncut).
  LONG_RUN.lastIndex = 0;
  for (const run of text.matchAll(LONG_RUN)) {
    if (run.index > at) yield* plainSegments(text.slice(at, run.index), segmentChars);
    yield* runPieces(run[0]);
    at = run.index + run[0].length;
  }
  if (at < text.length) yield* plainSegments(at === 0 ? text : text.slice(at), segmentChars);
}

/**
 * Counts `text` piece by piece, yielding each piece's count so a server can pause between pieces (and stop once a
 * limit is passed); returns the total. Linear in the text.
 */
export function* countTokensInSteps(text: string): Generator<number, number> {
  let total = 0;
  for (const piece of countingPieces(text)) {
    const n = countPlain(piece);
    total += n;
    yield n;
  }
  return total;
}

/** Tokens in a piece of text; linear in its length for any text (see MAX_RUN_CHARS). */
export function countTokens(text: string): number {
  if (text === '') return 0;
  // The usual case: short ordinary text, counted by the tokenizer in one call (a label cannot hold a long run).
  if (text.length <= MAX_RUN_CHARS) return countPlain(text);
  if (text.length <= SEGMENT_CHARS && !mayHoldLongRun(text)) return countPlain(text);
  LONG_RUN.lastIndex = 0;
  if (text.length <= SEGMENT_CHARS && !LONG_RUN.test(text)) return countPlain(text);
  let total = 0;
  for (const piece of countingPieces(text)) total += countPlain(piece);
  return total;
}

/** Runs a counting generator to its end, with no pause. */
export function finishSteps<T>(steps: Generator<number, T>): T {
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

// Short texts are counted in one go: a generator pause per field would cost more than the count.
function* textSteps(text: string): Generator<number, number> {
  return text.length <= SEGMENT_CHARS ? countTokens(text) : yield* countTokensInSteps(text);
}

/** The text the model reads for a state, instructions or a description: text as is, anything else as JSON. */
export const modelText = (value: State | Description | null | undefined): string =>
  value === null || value === undefined ? '' : typeof value === 'string' ? value : JSON.stringify(value);

/** Input tokens of the state, yielding the count of each piece of a long one (see countTokensInSteps). */
export const stateTokensInSteps = (state: State): Generator<number, number> => textSteps(modelText(state));

/** Input tokens of the state. */
export const stateTokens = (state: State): number => countTokens(modelText(state));

/** Input tokens of one question, pausing between pieces of long texts: its instructions and every label, level or description. */
export function* questionTokensInSteps(question: Question): Generator<number, number> {
  let total = yield* textSteps(modelText(question.instructions));
  if (question.type === 'choice') {
    for (const [label, description] of Object.entries(question.criteria)) {
      total += (yield* textSteps(label)) + (yield* textSteps(modelText(description)));
    }
  } else if (question.type === 'score') {
    for (const level of question.criteria) total += yield* textSteps(level);
  } else if (question.criteria) {
    total += yield* textSteps(modelText(question.criteria.true));
    total += yield* textSteps(modelText(question.criteria.false));
  }
  return total;
}

/** Input tokens of one question: its instructions and every label, level or yes/no description. */
export const questionTokens = (question: Question): number => finishSteps(questionTokensInSteps(question));

/** Token accounting of a whole request, as the reference bills it. */
export interface RequestTokens {
  state: number;
  questions: Record<string, number>;
  total: number;
  /** State plus the longest single question, held against the 32k limit. */
  statePlusLongest: number;
}

/** Sums a state's count and each question's count into the request's accounting. */
export function tallyTokens(state: number, questions: Record<string, number>): RequestTokens {
  let sum = 0;
  let longest = 0;
  for (const n of Object.values(questions)) {
    sum += n;
    longest = Math.max(longest, n);
  }
  return { state, questions, total: state + sum, statePlusLongest: state + longest };
}

export function requestTokens(request: Pick<EvaluateRequest, 'state' | 'questions'>): RequestTokens {
  const questions: Record<string, number> = {};
  for (const [name, q] of Object.entries(request.questions)) questions[name] = questionTokens(q);
  return tallyTokens(stateTokens(request.state), questions);
}

/** Sentences for each token limit a request passes, empty when it fits. */
export function tokenLimitProblems(tokens: RequestTokens): string[] {
  const problems: string[] = [];
  if (tokens.total > MAX_REQUEST_INPUT_TOKENS) {
    problems.push(
      `The request holds ${tokens.total.toLocaleString()} input tokens; the limit is ${MAX_REQUEST_INPUT_TOKENS.toLocaleString()}.`,
    );
  }
  if (tokens.statePlusLongest > MAX_STATE_PLUS_QUESTION_TOKENS) {
    problems.push(
      `The state plus the longest question hold ${tokens.statePlusLongest.toLocaleString()} tokens; the limit is ${MAX_STATE_PLUS_QUESTION_TOKENS.toLocaleString()}.`,
    );
  }
  return problems;
}
