// Where a headless run sends its rows: the same targets as the proxy (environment and .env.local), built by the same
// targets module, as client targets that carry their key in this process only. `local` is the reference service in
// process, with no socket and no key, created by the composition root (main.ts) and handed in.
import type { ClientTarget } from '../client';
import type { RawEnv, ServerEnv } from '../server/env';
import { buildTargets } from '../server/targets/target';
import type { LocalReference } from '../server/targets/target';
import { networkTransportOnce } from '../server/targets/transport';
import type { Pacing } from '../core/rows/pacer';
import { pacingFor } from '../core/rows/pacer';
import { transportFetch } from './transportFetch';

/** A target the command line can send to, and the secret to keep out of everything it prints. */
export interface CliTarget {
  id: string;
  label: string;
  client: ClientTarget;
  secret: string | null;
  /** "key missing: VAR" when the target's key variable is unset: such a target does not send. */
  keyMissing: string | null;
  /** The target's own rate limits (the published ones where it states none): a run paces at these by default. */
  pacing: Pacing;
  /** Price per million input tokens (null unknown): the run's costs are counted at it, as the app counts them. */
  inputPrice: number | null;
}

/** Creates the in-process reference from the environment's variables (REFERENCE_*). */
export type LocalReferenceFactory = (env: RawEnv) => LocalReference;

/** Without a reference handed in, the local target is listed but refuses to send: a wiring mistake, said plainly. */
const NO_LOCAL_REFERENCE: LocalReference = {
  apiKey: '',
  fetch: () => {
    throw new Error(
      'The command line was given no local reference: its composition root (cli/main.ts) creates it.',
    );
  },
};

/**
 * Every configured target by id, local included. `local` creates the in-process reference (the command line's answers
 * come from its lexical judge: a model file is never loaded for a headless run).
 */
export function cliTargets(
  env: ServerEnv,
  local: LocalReferenceFactory = () => NO_LOCAL_REFERENCE,
): CliTarget[] {
  return buildTargets(env.targets, () => local(env.raw)).map((t) => {
    const isLocal = t.kind === 'local';
    return {
      id: t.id,
      label: isLocal ? 'Local reference (in process, not a language model)' : t.label,
      client: {
        baseUrl: t.baseUrl,
        evaluatePath: t.evaluatePath,
        // A keyless server (llama.cpp, Ollama) gets no credential header at all.
        headers: t.credential ? { [t.credential.header]: t.credential.value } : {},
        // The same translation as the proxy's: the target's dialect, envelope and model-in-path; numbers normalised
        // except the reference's own. Every attempt on the network is the runner's to count, so no silent retry.
        fetch: isLocal ? transportFetch(t.transport) : transportFetch(networkTransportOnce, t.wire, true),
      },
      secret: isLocal || t.secret === '' ? null : t.secret,
      keyMissing: t.keyMissing,
      pacing: pacingFor(t.description),
      inputPrice: t.description.inputPrice,
    };
  });
}

/** The target a run uses: the one asked for, else the first configured one whose key is present (local last). */
export function chooseTarget(targets: readonly CliTarget[], id: string | undefined): CliTarget | string {
  if (id === undefined) return targets.find((t) => t.keyMissing === null) ?? targets[0]!;
  const found = targets.find((t) => t.id === id);
  if (found?.keyMissing)
    return `The target "${id}" has no key (${found.keyMissing}): set it in .env.local or the shell.`;
  return (
    found ??
    `There is no target "${id}". Configured: ${targets.map((t) => t.id).join(', ')} (set EVAL_BASE_URL and EVAL_API_KEY for "direct", or list servers in workbench.targets.json).`
  );
}
