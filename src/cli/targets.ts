// Where a headless run sends its rows: the same targets as the proxy (environment and .env.local), as client targets
// that carry their key in this process only. `local` is the reference service in process, with no socket and no key.
import type { ClientTarget } from '../client';
import { DEFAULT_EVALUATE_PATH } from '../contract';
import type { Pacing } from '../core/rows/pacer';
import { pacingFor } from '../core/rows/pacer';
import type { ServerEnv } from '../server/env';
import { targetsFromEnv } from '../server/proxy/targets';
import { inProcessTransport, networkTransportOnce } from '../server/proxy/transport';
import { createReferenceApp } from '../server/reference/app';
import { referenceOptionsFromEnv } from '../server/reference/options';
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
  /** Its price per million input tokens; null when unknown (then no budget can be held). */
  inputPrice: number | null;
}

// The in-process reference needs a well-formed URL for its requests; nothing listens there.
const LOCAL_ORIGIN = 'http://local-reference.invalid';

/** The in-process reference service, with its first configured key. */
function localCliTarget(env: ServerEnv): Omit<CliTarget, 'pacing' | 'inputPrice'> {
  const options = referenceOptionsFromEnv(env.raw);
  const app = createReferenceApp(options);
  const key = options.apiKeys[0]!;
  return {
    id: 'local',
    label: 'Local reference (in process, not a language model)',
    client: {
      baseUrl: LOCAL_ORIGIN,
      evaluatePath: DEFAULT_EVALUATE_PATH,
      headers: { Authorization: `Bearer ${key}` },
      fetch: transportFetch(inProcessTransport((request) => app.fetch(request))),
    },
    secret: null,
    keyMissing: null,
  };
}

/** Every configured target by id, local included. */
export function cliTargets(env: ServerEnv): CliTarget[] {
  return targetsFromEnv(env).map((t) => ({
    pacing: pacingFor(t.description),
    inputPrice: t.description.inputPrice,
    ...(t.id === 'local'
      ? localCliTarget(env)
      : {
          id: t.id,
          label: t.label,
          client: {
            baseUrl: t.baseUrl,
            evaluatePath: t.evaluatePath,
            // A keyless server (llama.cpp, Ollama) gets no credential header at all.
            headers: t.credential ? { [t.credential.header]: t.credential.value } : {},
            // The same translation as the proxy's: the target's dialect, envelope and model-in-path; numbers normalised.
            fetch: transportFetch(networkTransportOnce, t.wire, true),
          },
          secret: t.secret === '' ? null : t.secret,
          keyMissing: t.keyMissing,
        }),
  }));
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
