// A target's one call into the wire translation (src/contract/wireForm.ts): a target whose dialect, envelope or
// model-in-path differs from the interface gets the request in its own form, and its answer comes back in the
// interface's; answers from every non-local target are normalised so that numbers compare across servers.
import { incoming, outgoing, PLAIN_WIRE } from '../../contract';
import type { ErrorBody } from '../../contract';
import type { ForwardOutcome } from './forward';
import type { ProxyTarget } from './target';

export type Prepared =
  { ok: true; path: string; body: Buffer<ArrayBuffer> } | { ok: false; status: number; body: ErrorBody };

/** The evaluate call as the target takes it: its path and body. */
export function prepareEvaluate(target: ProxyTarget, body: Buffer<ArrayBuffer>): Prepared {
  const wire = target.wire ?? PLAIN_WIRE;
  const out = outgoing(wire, target.evaluatePath, body.toString('utf8'));
  if (!out.ok) return out;
  // A plain target gets the very bytes the browser sent.
  return {
    ok: true,
    path: out.path,
    body: out.body === body.toString('utf8') ? body : Buffer.from(out.body, 'utf8'),
  };
}

/** The target's answer to an evaluate call, read back into the interface's form. */
export function readEvaluate(
  target: ProxyTarget,
  outcome: ForwardOutcome,
  sent: Buffer<ArrayBuffer>,
  logger: { warn: (line: string) => void },
): ForwardOutcome {
  if (outcome.type !== 'response') return outcome;
  const read = incoming(
    target.wire ?? PLAIN_WIRE,
    { status: outcome.status, headers: outcome.headers, body: outcome.body.toString('utf8') },
    sent.toString('utf8'),
    // The local reference is the contract's own implementation: its numbers are the contract's already.
    { normalise: target.kind !== 'local' },
  );
  if (read.problem)
    logger.warn(`[proxy] ${target.id}: its answer could not be read in its dialect: ${read.problem}.`);
  return { ...outcome, body: Buffer.from(read.body, 'utf8') };
}
