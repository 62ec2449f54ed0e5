// Gateway samples: a request written for the third-party gateway (`boolean` questions, gateway model ids) rewritten
// to the direct service's form.
import { REQUEST_FIELDS, classifyModelId } from '../contract';
import { isRecord } from '../contract/guards';

/** What a pasted request needs to become a direct one: sentences for the user, and the rewritten body. */
export interface GatewayRewrite {
  /** One sentence per change (empty when the body is already in direct form). */
  problems: string[];
  /** The body with every change applied; other content is kept exactly. */
  rewritten: Record<string, unknown>;
}

// A direct id at the end of a gateway id ("vendor/jev-latest", "provider:model-1.13.0", "~typesafe/jev-latest"), or
// inside it ("vendor.model-1.13.0-v1:0"), for any model line. Versioned ids first, so "jev-1.13.0" is not read as
// the product line "jev-1.13".
const DIRECT_AT_END = /(?:^|[/:~])([a-z][\w.-]*?-(?:latest|preview|\d+\.\d+\.\d+|\d+\.\d+))$/i;
const DIRECT_INSIDE = /(?:^|[/:.~])([a-z][\w-]*?-(?:latest|preview|\d+\.\d+\.\d+))(?![\d.])/i;
// A gateway's prefix: a vendor path, a provider tag or OpenRouter's tilde.
const GATEWAY_PREFIX = /[/:~]/;

/** The fallback when no direct id can be read from a gateway id. */
export const FALLBACK_MODEL = 'model-latest';

/** The direct model id a gateway model id names, or null when none is recognisable. Direct ids map to themselves. */
export function directModelId(id: string): string | null {
  const trimmed = id.trim();
  if (!GATEWAY_PREFIX.test(trimmed) && classifyModelId(trimmed) !== 'unknown') return trimmed;
  const found = DIRECT_AT_END.exec(trimmed)?.[1] ?? DIRECT_INSIDE.exec(trimmed)?.[1];
  return found ? found.toLowerCase() : null;
}

/** True for question types gateway samples use for the yes/no kind. */
const isGatewayBoolean = (type: unknown): boolean =>
  typeof type === 'string' && ['boolean', 'bool'].includes(type.trim().toLowerCase());

/**
 * Rewrites a pasted request to the direct form: `boolean` question types become `noul`, a gateway model id becomes the
 * direct id it ends in (or `model-latest`, with a note, when none is recognisable), and top-level fields the service
 * does not define (`metadata`, `stream`...) are dropped. Null when the body is not a JSON object.
 */
export function rewriteGatewayRequest(body: unknown): GatewayRewrite | null {
  if (!isRecord(body)) return null;
  const problems: string[] = [];
  const rewritten: Record<string, unknown> = { ...body };

  if (typeof body.model === 'string' && body.model.trim() !== '') {
    const direct = directModelId(body.model);
    if (direct !== body.model.trim()) {
      rewritten.model = direct ?? FALLBACK_MODEL;
      problems.push(
        direct
          ? `The model "${body.model}" is a gateway id; the direct service calls it "${direct}".`
          : `The model "${body.model}" names no direct model; it was set to "${FALLBACK_MODEL}" (an alias): pick the version you meant, such as model-1.13.0.`,
      );
      if (direct && classifyModelId(direct) === 'product-line') {
        problems.push(`"${direct}" names a product line; pin a versioned id such as ${direct}.0.`);
      }
    }
  }

  if (isRecord(body.questions)) {
    const questions: Record<string, unknown> = {};
    const renamed: string[] = [];
    for (const [name, question] of Object.entries(body.questions)) {
      if (isRecord(question) && isGatewayBoolean(question.type)) {
        questions[name] = { ...question, type: 'noul' };
        renamed.push(name);
      } else questions[name] = question;
    }
    if (renamed.length > 0) {
      rewritten.questions = questions;
      const names = renamed.map((n) => `"${n}"`).join(', ');
      problems.push(
        `${renamed.length === 1 ? 'Question' : 'Questions'} ${names} ${renamed.length === 1 ? 'uses' : 'use'} the gateway type "boolean"; the direct service calls it "noul".`,
      );
    }
  }

  for (const field of Object.keys(body)) {
    if ((REQUEST_FIELDS as readonly string[]).includes(field)) continue;
    delete rewritten[field];
    problems.push(
      `The field "${field}" is not part of a direct request (only ${REQUEST_FIELDS.join(', ')}); it was dropped.`,
    );
  }
  return { problems, rewritten };
}

/** True when a pasted body looks written for the gateway: it needs a rewrite before the direct service accepts it. */
export const isGatewayRequest = (body: unknown): boolean =>
  (rewriteGatewayRequest(body)?.problems.length ?? 0) > 0;
