// "Get code": the exact current request as a curl command, a TypeScript (fetch) program and a Python (requests)
// program. The key is read from an environment variable in every form; the retry policy is noted or implemented.
import { DEFAULT_EVALUATE_PATH, outgoing, RETRY_POLICY } from '../contract';
import type { WireSettings } from '../contract';

/** Where the generated code sends the request. */
export interface CodegenTarget {
  baseUrl: string;
  /** The evaluate route; some deployments serve it away from /v1/evaluate. */
  evaluatePath?: string;
}

/**
 * The body a target receives for the editors' body: the proxy's own translation (the Decisions form, a conversation
 * as native input, the workbench-only field removed), so the code runs unchanged against that target. When the
 * translation refuses, the body stays as it is and `problem` says why.
 */
export function bodyAsSent(body: unknown, wire: WireSettings): { body: unknown; problem: string | null } {
  const out = outgoing(wire, DEFAULT_EVALUATE_PATH, JSON.stringify(body));
  return out.ok
    ? { body: JSON.parse(out.body) as unknown, problem: null }
    : { body, problem: out.body.detail.message };
}

/** The environment variable every snippet reads the API key from. */
export const API_KEY_ENV = 'EVAL_API_KEY';

/** The evaluate URL of a target: base URL without trailing slashes, then the path with one leading slash. */
export function evaluateUrl({ baseUrl, evaluatePath = DEFAULT_EVALUATE_PATH }: CodegenTarget): string {
  const path = evaluatePath.trim() === '' ? DEFAULT_EVALUATE_PATH : evaluatePath.trim();
  return `${baseUrl.trim().replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`;
}

/** A POSIX shell word that stands for `s` exactly: single quotes, each inner quote written as '\''. */
export const shellQuote = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;

const { maxRetries, initialBackoffMs, maxBackoffMs, jitter, maxRetryAfterMs, defaultTimeoutMs } =
  RETRY_POLICY;
const jitterPercent = Math.round(jitter * 100);
const maxRetryAfterS = maxRetryAfterMs / 1000;
const timeoutS = defaultTimeoutMs / 1000;

/** The contract's retry policy in a few comment lines, prefixed for the snippet's language. */
const policyComment = (prefix: string): string =>
  [
    `Retry policy of the service: at most ${maxRetries} retries, after 408, 429 and every 5xx (529 "overloaded"`,
    `included), network errors and timeouts; wait min(${initialBackoffMs} * 2^k, ${maxBackoffMs}) ms less up to ${jitterPercent}% jitter, or what`,
    `retry-after-ms / Retry-After ask for (up to ${maxRetryAfterS} s). Never retry 401 or 422. A retried request may be`,
    `evaluated (and billed) twice; a timeout means "unknown", not "failed".`,
  ]
    .map((line) => `${prefix} ${line}`)
    .join('\n');

/** The body as pretty JSON: the exact request the workbench would send. */
const bodyJson = (request: unknown): string => JSON.stringify(request, null, 2);

const HEREDOC = 'EVAL_REQUEST_JSON';

/**
 * A curl command that sends the request exactly: the body goes through a quoted heredoc (`--data-binary @-`), so no
 * character in it is read by the shell; the key is expanded from $EVAL_API_KEY and the command stops if it is unset.
 */
export function requestToCurl(request: unknown, target: CodegenTarget): string {
  const body = bodyJson(request);
  // Pretty JSON has no line equal to the delimiter, but the check costs nothing and keeps the guarantee local.
  let delimiter = HEREDOC;
  while (body.split('\n').includes(delimiter)) delimiter += '_';
  return [
    `# Evaluate the current request (bash, zsh or sh). The key comes from $${API_KEY_ENV}; never write it into scripts or commit it.`,
    `# curl --retry ${maxRetries} retries timeouts, 408, 429, 500, 502, 503 and 504 and honours Retry-After. The service's policy`,
    '# also retries 529 (overloaded): run the command again after a few seconds if you get one.',
    policyComment('#'),
    `curl -sS --retry ${maxRetries} --max-time ${timeoutS} -X POST ${shellQuote(evaluateUrl(target))} \\`,
    `  -H "Authorization: Bearer \${${API_KEY_ENV}:?set ${API_KEY_ENV} to your API key}" \\`,
    `  -H 'Content-Type: application/json' \\`,
    `  --data-binary @- <<'${delimiter}'`,
    body,
    delimiter,
    '',
  ].join('\n');
}

/** True when some object in a value has an own "__proto__" key, which a JavaScript object literal cannot express. */
function hasProtoKey(value: unknown): boolean {
  if (Array.isArray(value)) return value.some(hasProtoKey);
  if (typeof value !== 'object' || value === null) return false;
  return Object.keys(value).some((k) => k === '__proto__') || Object.values(value).some(hasProtoKey);
}

/** A TypeScript program (Node 18+, no dependencies) that sends the request with fetch, following the retry policy. */
export function requestToTypeScript(request: unknown, target: CodegenTarget): string {
  // JSON is valid JavaScript, except that "__proto__" in a literal sets the prototype: parse the text in that case.
  const body = hasProtoKey(request)
    ? `JSON.parse(${JSON.stringify(JSON.stringify(request))}) as unknown`
    : bodyJson(request);
  return `// Evaluate the current request with fetch (Node 18+). Run: ${API_KEY_ENV}=... npx tsx evaluate.ts
// The key comes from the ${API_KEY_ENV} environment variable; never commit it or ship it to a browser.
//
${policyComment('//')}

const EVALUATE_URL = ${JSON.stringify(evaluateUrl(target))};
const MAX_RETRIES = ${maxRetries};
const TIMEOUT_MS = ${defaultTimeoutMs};

const requestBody = ${body};

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function backoffMs(retry: number): number {
  return Math.min(${initialBackoffMs} * 2 ** retry, ${maxBackoffMs}) * (1 - Math.random() * ${jitter});
}

/** The wait the server asked for, when it is 0..${maxRetryAfterS} s: retry-after-ms, else Retry-After (seconds or a date). */
function retryAfterMs(response: Response): number | null {
  const ms = response.headers.get('retry-after-ms')?.trim();
  const after = response.headers.get('retry-after')?.trim();
  let wait: number | null = null;
  if (ms && /^\\d+(\\.\\d+)?$/.test(ms)) wait = Number(ms);
  else if (after && /^\\d+(\\.\\d+)?$/.test(after)) wait = Number(after) * 1000;
  else if (after) wait = Date.parse(after) - Date.now();
  return wait !== null && wait >= 0 && wait <= ${maxRetryAfterMs} ? wait : null;
}

export async function evaluate(body: unknown = requestBody): Promise<unknown> {
  const apiKey = process.env.${API_KEY_ENV};
  if (!apiKey) throw new Error('Set ${API_KEY_ENV} to your API key.');
  for (let attempt = 0; ; attempt++) {
    let response: Response;
    try {
      response = await fetch(EVALUATE_URL, {
        method: 'POST',
        headers: { Authorization: \`Bearer \${apiKey}\`, 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
    } catch (error) {
      // A network error or timeout: the evaluation may still have run, so never act on it.
      if (attempt >= MAX_RETRIES) throw error;
      await sleep(backoffMs(attempt));
      continue;
    }
    if (response.ok) return response.json();
    const retryable = response.status === 408 || response.status === 429 || response.status >= 500;
    if (!retryable || attempt >= MAX_RETRIES) {
      throw new Error(\`Evaluation failed with status \${response.status}: \${await response.text()}\`);
    }
    await response.body?.cancel();
    await sleep(retryAfterMs(response) ?? backoffMs(attempt));
  }
}

evaluate().then(
  (result) => console.log(JSON.stringify(result, null, 2)),
  (error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  },
);
`;
}

/** A Python literal for a JSON value: JSON strings and numbers are valid Python; true/false/null are spelled out. */
function pythonLiteral(value: unknown, indent = ''): string {
  const inner = `${indent}    `;
  if (value === null || value === undefined) return 'None';
  if (value === true) return 'True';
  if (value === false) return 'False';
  if (typeof value === 'number') return Number.isFinite(value) ? JSON.stringify(value) : 'None';
  if (typeof value === 'string') return JSON.stringify(value);
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    return `[\n${value.map((v) => `${inner}${pythonLiteral(v, inner)},`).join('\n')}\n${indent}]`;
  }
  const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
  if (entries.length === 0) return '{}';
  return `{\n${entries.map(([k, v]) => `${inner}${JSON.stringify(k)}: ${pythonLiteral(v, inner)},`).join('\n')}\n${indent}}`;
}

/** A Python program (requests) that sends the request, following the retry policy. */
export function requestToPython(request: unknown, target: CodegenTarget): string {
  return `# Evaluate the current request with requests (pip install requests). Run: ${API_KEY_ENV}=... python3 evaluate.py
# The key comes from the ${API_KEY_ENV} environment variable; never commit it.
#
${policyComment('#')}
import json
import os
import random
import time
from email.utils import parsedate_to_datetime

import requests

EVALUATE_URL = ${JSON.stringify(evaluateUrl(target))}
MAX_RETRIES = ${maxRetries}
TIMEOUT_S = ${timeoutS}

REQUEST_BODY = ${pythonLiteral(request)}


def backoff_s(retry):
    return min(${initialBackoffMs / 1000} * 2**retry, ${maxBackoffMs / 1000}) * (1 - random.random() * ${jitter})


def retry_after_s(response):
    """The wait the server asked for, when it is 0..${maxRetryAfterS} s: retry-after-ms, else Retry-After (seconds or a date)."""
    ms = response.headers.get("retry-after-ms", "").strip()
    after = response.headers.get("retry-after", "").strip()
    if ms.replace(".", "", 1).isdigit():
        wait = float(ms) / 1000
    elif after.replace(".", "", 1).isdigit():
        wait = float(after)
    elif after:
        try:
            wait = parsedate_to_datetime(after).timestamp() - time.time()
        except (TypeError, ValueError):
            return None
    else:
        return None
    return wait if 0 <= wait <= ${maxRetryAfterS} else None


def evaluate(body=REQUEST_BODY):
    api_key = os.environ["${API_KEY_ENV}"]
    for attempt in range(MAX_RETRIES + 1):
        last = attempt == MAX_RETRIES
        try:
            response = requests.post(
                EVALUATE_URL,
                json=body,
                headers={"Authorization": f"Bearer {api_key}"},
                timeout=TIMEOUT_S,
            )
        except (requests.ConnectionError, requests.Timeout):
            # A network error or timeout: the evaluation may still have run, so never act on it.
            if last:
                raise
            time.sleep(backoff_s(attempt))
            continue
        if response.ok:
            return response.json()
        retryable = response.status_code in (408, 429) or response.status_code >= 500
        if not retryable or last:
            raise requests.HTTPError(
                f"Evaluation failed with status {response.status_code}: {response.text}", response=response
            )
        wait = retry_after_s(response)
        time.sleep(backoff_s(attempt) if wait is None else wait)


if __name__ == "__main__":
    print(json.dumps(evaluate(), indent=2))
`;
}
