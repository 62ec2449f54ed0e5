// A pasted request moved into the editors: its questions, state and model each in their own place, in direct form.
import { isPastedRequest } from '../../../core/lint/context';
import { rewriteGatewayRequest } from '../../../core/gateway';
import type { SessionDoc } from '../../../core/session';
import { isRecord } from '../../../contract/guards';

const pretty = (value: unknown): string => `${JSON.stringify(value, null, 2)}\n`;

/** The session document with a request's parts in the editors; parts the request lacks stay as they were. */
export function docWithRequest(doc: SessionDoc, body: Record<string, unknown>): SessionDoc {
  const next: SessionDoc = { ...doc };
  if ('questions' in body) next.questionsText = pretty(body.questions);
  if (typeof body.state === 'string') {
    next.stateMode = 'text';
    next.stateText = body.state;
  } else if (body.state !== undefined && body.state !== null) {
    next.stateMode = 'json';
    next.stateText = pretty(body.state);
  }
  if (typeof body.model === 'string' && body.model.trim() !== '') next.model = body.model.trim();
  return next;
}

/** A request found in pasted text, in direct form, with one sentence per change the rewrite made. */
export interface PastedRequest {
  body: Record<string, unknown>;
  problems: string[];
}

/**
 * Reads a request out of pasted text: JSON, or the JSON inside a curl command or a code sample (from the first "{" to
 * the last "}"), then rewrites it to the direct form. Returns a sentence when no request object is found.
 */
export function readPastedRequest(text: string): PastedRequest | { error: string } {
  const parsed = parseLoose(text);
  if (parsed === undefined)
    return { error: 'No JSON object found: paste a request body, or a curl command that holds one.' };
  if (!isRecord(parsed) || !isRecord(parsed.questions)) {
    return { error: 'This JSON has no "questions" map: it is not an evaluation request.' };
  }
  const rewrite = rewriteGatewayRequest(parsed)!;
  return { body: rewrite.rewritten, problems: rewrite.problems };
}

function parseLoose(text: string): unknown {
  const attempts = [text.trim()];
  const first = text.indexOf('{');
  const last = text.lastIndexOf('}');
  if (first >= 0 && last > first) attempts.push(text.slice(first, last + 1));
  for (const candidate of attempts) {
    try {
      return JSON.parse(candidate) as unknown;
    } catch {
      // Try the next reading.
    }
  }
  return undefined;
}

/** The gateway rewrite the questions editor's content needs: set when it holds a whole request written for the gateway. */
export function gatewayOffer(questions: unknown): PastedRequest | null {
  if (!isPastedRequest(questions)) return null;
  const rewrite = rewriteGatewayRequest(questions);
  return rewrite && rewrite.problems.length > 0
    ? { body: rewrite.rewritten, problems: rewrite.problems }
    : null;
}
