// What the proxy checks in an upstream's answer before passing it on: a final status the browser can be given, a
// body it can read (decompressed when the upstream compressed it anyway) and a size it can hold.
import { randomUUID } from 'node:crypto';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';

/** Largest upstream answer the proxy holds, compressed or not: evaluate answers are kilobytes, 255 labels included. */
export const MAX_ANSWER_BYTES = 8 * 1024 * 1024;

/** Why an upstream answer cannot be passed on. */
export type AnswerProblem =
  | { problem: 'status'; status: number }
  | { problem: 'encoding'; encoding: string }
  | { problem: 'too_large'; limit: number };

/** The id of an answer the proxy makes itself, in the same header as the service's own ids. */
export const proxyRequestId = (): string => `proxy_${randomUUID().replace(/-/g, '')}`;

/**
 * A status the browser can be given as the service's answer: a final status from 200 to 599. Informational (1xx)
 * answers are not final, and anything outside 100-599 is not HTTP a browser can be handed (Response refuses it).
 */
export const passableStatus = (status: number): boolean =>
  Number.isInteger(status) && status >= 200 && status <= 599;

const DECODERS: Record<string, (body: Buffer, options: { maxOutputLength: number }) => Buffer> = {
  gzip: gunzipSync,
  'x-gzip': gunzipSync,
  deflate: inflateSync,
  br: brotliDecompressSync,
};

/**
 * The body as plain bytes. The proxy asks for `identity`, but an upstream may compress anyway (some always do): the
 * body is decompressed (within MAX_ANSWER_BYTES) so that redaction can read it. An encoding it cannot undo is a problem.
 */
export function decodedBody(
  encoding: string | undefined,
  body: Buffer<ArrayBuffer>,
): { body: Buffer<ArrayBuffer> } | AnswerProblem {
  const codings = (encoding ?? '')
    .split(',')
    .map((c) => c.trim().toLowerCase())
    .filter((c) => c !== '' && c !== 'identity');
  let out: Buffer = body;
  // Codings are listed in the order they were applied: undo them last first.
  for (const coding of codings.reverse()) {
    const decode = DECODERS[coding];
    if (!decode) return { problem: 'encoding', encoding: coding };
    try {
      out = decode(out, { maxOutputLength: MAX_ANSWER_BYTES });
    } catch (error) {
      if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE')
        return { problem: 'too_large', limit: MAX_ANSWER_BYTES };
      return { problem: 'encoding', encoding: coding };
    }
  }
  return { body: out as Buffer<ArrayBuffer> };
}

const formatMiB = (n: number): string => `${Number((n / (1024 * 1024)).toFixed(1))} MiB`;

/** One sentence for a 502 about an answer that could not be passed on. */
export function upstreamFailure(where: string, problem: AnswerProblem): string {
  switch (problem.problem) {
    case 'status':
      return problem.status >= 100 && problem.status < 200
        ? `${where} answered with the informational status ${problem.status} instead of an answer; the evaluation may have run, so treat it as unknown.`
        : `${where} answered with the status ${problem.status}, which is not an HTTP status (100-599); the evaluation may have run, so treat it as unknown.`;
    case 'encoding':
      return `${where} answered in an encoding the workbench cannot read (${problem.encoding}); ask for an uncompressed answer or check the target's URL.`;
    case 'too_large':
      return `${where} answered with more than ${formatMiB(problem.limit)}, more than any evaluation answer; the answer was dropped.`;
  }
}
