// Reads the linter's input once into views every rule shares.
import { QUESTION_TYPES } from '../../contract';
import type { QuestionType } from '../../contract';
import { stateFieldNames } from './stateFields';
import type { LintContext, LintInput, QuestionView } from './types';
import { isRecord } from '../../contract/guards';

const knownKind = (type: unknown): QuestionType | null =>
  (QUESTION_TYPES as readonly unknown[]).includes(type) ? (type as QuestionType) : null;

const looksLikeQuestion = (v: unknown): boolean => isRecord(v) && 'type' in v;

/**
 * True for a whole request body pasted where only its questions map belongs: a `questions` map beside a `model`
 * string or a `state`, none of which is itself a question (question names "state" or "questions" stay legal).
 */
export const isPastedRequest = (
  doc: unknown,
): doc is Record<string, unknown> & { questions: Record<string, unknown> } =>
  isRecord(doc) &&
  isRecord(doc.questions) &&
  !looksLikeQuestion(doc.questions) &&
  (typeof doc.model === 'string' || ('state' in doc && !looksLikeQuestion(doc.state)));

/** Builds the shared context; any input is accepted. */
export function lintContext(input: LintInput): LintContext {
  const questionsIsMap = isRecord(input.questions);
  const pastedRequest = isPastedRequest(input.questions);
  const questions: QuestionView[] =
    questionsIsMap && !pastedRequest
      ? Object.entries(input.questions as Record<string, unknown>).map(([name, value]) => {
          const obj = isRecord(value) ? value : null;
          return { name, value, obj, kind: obj ? knownKind(obj.type) : null };
        })
      : [];
  const hasFields = isRecord(input.state) || Array.isArray(input.state);
  return {
    input,
    questionsIsMap,
    pastedRequest,
    questions,
    stateFields: hasFields ? stateFieldNames(input.state) : null,
  };
}
