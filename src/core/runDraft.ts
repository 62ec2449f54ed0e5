// What a run would send, read from the editors' text: the request body, and every problem located on its line.
import { modelIdProblem, targetLimitProblems, toDecisionsRequest, validateRequestShape } from '../contract';
import type { Conversation, EvaluateRequest, JsonValue, Loc, TargetLimits, WireDialect } from '../contract';
import { CONVERSATION_FIELD } from '../contract';
import { checkConversation } from './conversation/check';
import { renderConversation } from './conversation/render';
import { turnList, turnsToDrop } from './conversation/fit';
import { scopedQuestions } from './conversation/scope';
import { duplicateKeys, lintRubric } from './lint';
import type { LintFinding, LintFix, LintInput } from './lint';
import { LineIndex, firstLineSpan, locateInJson, splitLoc } from './locate';
import type { LocArea, TextSpan } from './locate';
import { parseJson, removeValue, setValue, syntaxSentence } from './questionsDocument';
import type { SessionDoc } from './session';

export type ProblemSeverity = 'error' | 'warning' | 'info';

/** One problem with the draft, located in an editor (span) or on the model picker. */
export interface DraftProblem {
  severity: ProblemSeverity;
  area: LocArea;
  /** The JSON path in the request body, when the problem has one. */
  loc: Loc;
  message: string;
  /** Where to mark it in its editor's text; absent for the model picker and whole-request problems. */
  span?: TextSpan;
  /** Where the problem came from: 'syntax', 'contract', 'model', 'duplicate', 'service' or a lint rule id. */
  source: string;
  /** Why it matters, in one line (lint rules). */
  explanation?: string;
  /** A quick fix: a title and the edits it makes to the editors' documents. */
  fix?: LintFix;
}

/** The request a run would send, or why it cannot be sent. */
export interface Draft {
  /** The body as parsed from the editors, or null when an editor does not hold JSON. */
  body: {
    state: unknown;
    model: string;
    questions: unknown;
    /** The conversation itself, when the state is one (the state is then its rendering). */
    [CONVERSATION_FIELD]?: Conversation;
  } | null;
  /** The body when it passes the contract. */
  request: EvaluateRequest | null;
  problems: DraftProblem[];
  /** True when an error stops the run (a syntax error always does; contract errors can be sent anyway). */
  blocking: boolean;
  /** One sentence per editor that does not parse, shown next to it. */
  syntax: { state: string | null; questions: string | null };
}

/** Where a body location falls in the editors' text: a span in the state or questions editor, or none. */
export function locateInDoc(doc: SessionDoc, loc: Loc): { area: LocArea; span?: TextSpan } {
  const { area, path } = splitLoc(loc);
  if (area === 'questions')
    return { area, span: locateInJson(doc.questionsText, path)?.span ?? firstLineSpan(doc.questionsText) };
  if (area === 'state') {
    if (doc.stateMode === 'text') return { area, span: firstLineSpan(doc.stateText) };
    return { area, span: locateInJson(doc.stateText, path)?.span ?? firstLineSpan(doc.stateText) };
  }
  return { area };
}

const SEVERITY_ORDER: Record<ProblemSeverity, number> = { error: 0, warning: 1, info: 2 };
const AREA_ORDER: Record<LocArea, number> = { model: 0, state: 1, questions: 2, request: 3 };

/** Errors first, then by area in screen order, then by line. */
export function sortProblems(problems: DraftProblem[]): DraftProblem[] {
  return [...problems].sort(
    (a, b) =>
      SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity] ||
      AREA_ORDER[a.area] - AREA_ORDER[b.area] ||
      (a.span?.offset ?? -1) - (b.span?.offset ?? -1),
  );
}

/** Problems from field errors (the contract's checks or a 422), each located on its line. */
export function locatedProblems(
  doc: SessionDoc,
  errors: { loc: Loc; msg: string }[],
  source: string,
  severity: ProblemSeverity = 'error',
): DraftProblem[] {
  return errors.map((e) => ({ severity, loc: e.loc, message: e.msg, source, ...locateInDoc(doc, e.loc) }));
}

/**
 * Reads the editors into a request. A text that does not parse blocks the run; the contract's checks and the model
 * id rules are errors too, but the body can still be sent to let the service have its say.
 */
/** The state as it will be sent: plain text, parsed JSON, or a conversation rendered (kept to send beside it). */
interface StateRead {
  state: { ok: true; value: unknown } | { ok: false };
  syntax: string | null;
  conversation?: Conversation;
}

/** Reads the state editor in its mode; its syntax problems go to `problems`. */
function readState(doc: SessionDoc, problems: DraftProblem[]): StateRead {
  let state: { ok: true; value: unknown } | { ok: false } = { ok: true, value: doc.stateText };
  let stateSyntax: string | null = null;
  let conversation: Conversation | undefined;
  if (doc.stateMode === 'conversation') {
    const checked = checkConversation(doc.stateText);
    if (checked.ok) {
      conversation = checked.conversation;
      state = { ok: true, value: renderConversation(checked.conversation, doc.conversationRule) };
    } else {
      state = { ok: false };
      stateSyntax = checked.problems[0]!.message;
      for (const p of checked.problems)
        problems.push({
          severity: 'error',
          area: 'state',
          loc: ['state', ...p.loc],
          message: p.message,
          span: p.span,
          source: 'conversation',
        });
    }
  } else if (doc.stateMode === 'json') {
    const parsed = parseJson(doc.stateText);
    stateSyntax = syntaxSentence('state fields', parsed);
    if (parsed.ok) state = { ok: true, value: parsed.value };
    else {
      state = { ok: false };
      // Only the first syntax problem: the ones after it are mostly its echoes (the sentence gives their count).
      const spans = parsed.empty
        ? [firstLineSpan(doc.stateText)]
        : parsed.problems.slice(0, 1).map((p) => p.span);
      const messages = parsed.empty
        ? ['The state is empty: write a JSON object, or switch to plain text.']
        : parsed.problems.slice(0, 1).map((p) => p.message);
      spans.forEach((span, i) =>
        problems.push({
          severity: 'error',
          area: 'state',
          loc: ['state'],
          message: sentenceCase(messages[i]!),
          span,
          source: 'syntax',
        }),
      );
    }
  }

  return { state, syntax: stateSyntax, ...(conversation ? { conversation } : {}) };
}

/** Reads the questions editor as JSON; an empty editor or its first syntax problem goes to `problems`. */
function readQuestions(doc: SessionDoc, problems: DraftProblem[]) {
  const questionsParsed = parseJson(doc.questionsText);
  const questionsSyntax = syntaxSentence('questions', questionsParsed);
  if (!questionsParsed.ok) {
    if (questionsParsed.empty) {
      problems.push({
        severity: 'error',
        area: 'questions',
        loc: ['questions'],
        message: 'The questions are empty: add a question (the form or a snippet writes one).',
        span: firstLineSpan(doc.questionsText),
        source: 'syntax',
      });
    }
    for (const p of questionsParsed.problems.slice(0, 1)) {
      problems.push({
        severity: 'error',
        area: 'questions',
        loc: ['questions'],
        message: sentenceCase(p.message),
        span: p.span,
        source: 'syntax',
      });
    }
  }

  return { parsed: questionsParsed, syntax: questionsSyntax };
}

/** The body and the request it makes, checked against the contract; a conversation's field and scopes added. */
function buildRequest(
  doc: SessionDoc,
  model: string,
  { state, conversation }: StateRead,
  questionsParsed: ReturnType<typeof parseJson>,
  problems: DraftProblem[],
): { body: Draft['body']; request: EvaluateRequest | null } {
  let body: Draft['body'] = null;
  let request: EvaluateRequest | null = null;
  if (state.ok && questionsParsed.ok) {
    body = { state: state.value, model, questions: questionsParsed.value };
    const checked = validateRequestShape(body);
    if (checked.ok) request = checked.value;
    else problems.push(...locatedProblems(doc, checked.errors, 'contract'));
    // Sent beside the rendered state: a Decisions target reads the conversation itself (src/contract/wireForm.ts).
    if (conversation) {
      body = { ...body, [CONVERSATION_FIELD]: conversation };
      // A question asked of the last turn says so in its instructions, for every kind of target alike.
      if (request && doc.conversationScopes) {
        request = { ...request, questions: scopedQuestions(request.questions, doc.conversationScopes) };
        body = { ...body, questions: request.questions };
      }
    }
  }
  return { body, request };
}

export function draftRequest(doc: SessionDoc, listedModels: readonly string[] = []): Draft {
  const problems: DraftProblem[] = [];
  const model = doc.model.trim();
  const stateRead = readState(doc, problems);
  const questions = readQuestions(doc, problems);
  const built = buildRequest(doc, model, stateRead, questions.parsed, problems);
  let request = built.request;
  const modelReported = problems.some((p) => p.area === 'model');
  const modelProblem = modelIdProblem(model, listedModels);
  if (modelProblem && !modelReported) {
    problems.push({
      severity: 'error',
      area: 'model',
      loc: ['model'],
      message: modelProblem,
      source: 'model',
    });
    request = null;
  }

  return {
    body: built.body,
    request,
    problems: sortProblems(problems),
    blocking: problems.some((p) => p.severity === 'error'),
    syntax: { state: stateRead.syntax, questions: questions.syntax },
  };
}

function sentenceCase(s: string): string {
  const t = s.trim();
  if (!t) return t;
  const capital = t[0]!.toUpperCase() + t.slice(1);
  return /[.!?]$/.test(capital) ? capital : `${capital}.`;
}

/** Problems from lint findings, located on their lines, with the rule's fix and explanation. */
export function lintProblems(doc: SessionDoc, findings: readonly LintFinding[]): DraftProblem[] {
  return findings.map((f) => ({
    severity: f.severity,
    loc: f.loc,
    message: f.message,
    source: f.ruleId,
    explanation: f.explanation,
    ...(f.fix ? { fix: f.fix } : {}),
    ...locateInDoc(doc, f.loc),
  }));
}

/**
 * Keys written twice in one object: a parser keeps only the last, so the earlier question, label or field is dropped
 * without a word. Each dropped occurrence is an error on its own line.
 */
export function duplicateProblems(doc: SessionDoc): DraftProblem[] {
  const index = new LineIndex(doc.questionsText);
  const all = duplicateKeys(doc.questionsText, { allLevels: true });
  return all
    .filter((d) => !d.kept)
    .map((d) => {
      const kept = all.find(
        (k) => k.kept && k.name === d.name && k.path.join('\u0000') === d.path.join('\u0000'),
      );
      const keptLine = kept ? index.positionAt(kept.offset).line : undefined;
      const what =
        d.path.length === 0
          ? 'question name'
          : d.path.length === 2 && d.path[1] === 'criteria'
            ? 'label'
            : 'field';
      const later = keptLine ? ` (line ${keptLine})` : '';
      return {
        severity: 'error' as const,
        area: 'questions' as const,
        loc: ['questions', ...d.path, d.name],
        message: `Duplicate ${what} "${d.name}": this one is dropped and only the later one${later} is sent; rename or remove one.`,
        span: index.span(d.offset, d.length),
        source: 'duplicate',
      };
    });
}

const isPrefix = (a: Loc, b: Loc): boolean =>
  a.length <= b.length && a.every((part, i) => String(part) === String(b[i]));

/**
 * Every problem of a draft in one list: the draft's own, lint findings and duplicate keys, and the service's 422
 * errors. A contract error that a lint error already reports on the same place is dropped: the lint finding says the
 * same with an explanation and a fix.
 */
export function mergeProblems(
  draft: Draft,
  lint: DraftProblem[],
  extra: DraftProblem[] = [],
): DraftProblem[] {
  const lintErrors = lint.filter((l) => l.severity === 'error');
  const own = draft.problems.filter(
    (p) =>
      p.source !== 'contract' || !lintErrors.some((l) => isPrefix(p.loc, l.loc) || isPrefix(l.loc, p.loc)),
  );
  // The model rule of the draft and of lint say the same about a product-line id.
  const lintFiltered = lint.filter(
    (l) => !(l.area === 'model' && own.some((p) => p.area === 'model' && p.severity === 'error')),
  );
  return sortProblems([...own, ...lintFiltered, ...extra]);
}

/** True when a problem stops the run: any error except what the service said last time (the next run re-asks it). */
export const blocksRun = (p: DraftProblem): boolean => p.severity === 'error' && p.source !== 'service';

/** The problems the list under the editors shows: a 422 is said in the answers and marked on its line, not a third time. */
export const listedProblems = (problems: readonly DraftProblem[]): DraftProblem[] =>
  problems.filter((p) => p.source !== 'service');

/** Applies a lint fix to the session document; each edit applies to the text the previous one produced. */
export function applyFix(doc: SessionDoc, fix: LintFix): SessionDoc {
  let next = doc;
  for (const edit of fix.edits) {
    if (edit.document === 'state' && next.stateMode !== 'json') continue;
    const key = edit.document === 'questions' ? 'questionsText' : 'stateText';
    const text = next[key];
    const changed =
      edit.value === undefined
        ? removeValue(text, edit.path)
        : setValue(text, edit.path, edit.value as JsonValue);
    next = { ...next, [key]: changed };
  }
  return next;
}

/** Everything the screen needs to know before a run: the draft, all problems in order, and whether it may be sent. */
export interface Checked {
  draft: Draft;
  problems: DraftProblem[];
  /** An error stops the run (the user may still send a body that parses). */
  blocked: boolean;
}

/** What the editor's checks need of the chosen target: its name for sentences, its dialect and its own limits. */
export interface TargetFacts {
  label: string;
  dialect?: WireDialect;
  limits?: TargetLimits;
  /**
   * The tokenizer, once the page has loaded it (a megabyte, so never imported here): without it the target's context
   * is not checked yet.
   */
  tokens?: TokenCounting;
}

/** Counting input tokens, as src/contract/tokens does. */
export interface TokenCounting {
  request: (request: EvaluateRequest) => number;
  text: (text: string) => number;
}

/**
 * Problems of a valid request on this target: its own limits (65 questions for a 64-question server) and what its
 * dialect cannot carry (the Decisions form needs instructions on every question). Errors: the target would refuse.
 */
export function targetProblems(
  doc: SessionDoc,
  request: EvaluateRequest,
  target: TargetFacts,
  conversation?: Conversation,
): DraftProblem[] {
  // Tokens are counted only for a target that states its context (the contract's own token limits are the meter's).
  const context = target.limits?.contextTokens;
  const total = context === undefined || !target.tokens ? undefined : target.tokens.request(request);
  const limits = targetLimitProblems(request, target.limits, target.label, total);
  // A conversation that does not fit says which of its turns to drop.
  if (conversation && context !== undefined && total !== undefined && total > context) {
    const drop = turnsToDrop(conversation, total - context, target.tokens!.text);
    for (const p of limits)
      if (p.loc.length === 1 && p.loc[0] === 'state')
        p.msg += drop.length
          ? ` Dropping ${turnList(drop)} (the oldest after the opening instructions) would make it fit.`
          : ' Even without its earlier turns it would not fit: shorten the last turns.';
  }
  const dialect =
    target.dialect === 'decisions'
      ? (() => {
          const translated = toDecisionsRequest(request);
          return translated.ok ? [] : translated.errors;
        })()
      : [];
  return [...locatedProblems(doc, limits, 'target'), ...locatedProblems(doc, dialect, 'dialect')];
}

/** What the run being prepared is, for the lint rules that depend on it (aliases matter in comparisons and files). */
export type LintMode = Pick<LintInput, 'mode' | 'models'>;

/**
 * Checks the editors' content: syntax, the contract, the model id, every lint rule and duplicate keys, plus the field
 * errors the service gave on the last run (shown on their lines, never blocking). `lintMode` says what the screen is
 * preparing: a single run, a comparison (the columns' models) or a file run.
 */
export function checkDoc(
  doc: SessionDoc,
  listedModels: readonly string[] = [],
  serviceErrors: readonly { loc: Loc; msg: string }[] = [],
  lintMode: LintMode = { mode: 'single' },
  target?: TargetFacts,
): Checked {
  const draft = draftRequest(doc, listedModels);
  // A body that passes the contract is checked against the target even when its model id is questioned.
  const shaped = target && !draft.request && draft.body ? validateRequestShape(draft.body) : null;
  const request = draft.request ?? (shaped?.ok ? shaped.value : null);
  const onTarget =
    target && request ? targetProblems(doc, request, target, draft.body?.[CONVERSATION_FIELD]) : [];
  let lint: DraftProblem[] = [];
  if (draft.body) {
    const findings = lintRubric({
      state: draft.body.state,
      questions: draft.body.questions,
      model: doc.model,
      ...lintMode,
      ...(draft.body[CONVERSATION_FIELD] ? { conversation: draft.body[CONVERSATION_FIELD] } : {}),
    });
    lint = lintProblems(doc, findings);
  }
  const service = locatedProblems(doc, [...serviceErrors], 'service');
  const problems = mergeProblems(draft, lint, [...duplicateProblems(doc), ...onTarget, ...service]);
  return { draft, problems, blocked: problems.some(blocksRun) };
}
