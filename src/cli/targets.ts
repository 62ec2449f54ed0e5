// Where a headless run sends its rows: the same targets as the proxy (environment and .env.local), as client targets
// that carry their key in this process only. `local` is the reference service in process, with no socket and no key.
import type { ClientTarget } from '../client';
import { DEFAULT_EVALUATE_PATH, publicTarget } from '../contract';
import type { TargetDescription } from '../contract';
import type { Pacing } from '../core/rows/pacer';
import { pacingFor } from '../core/rows/pacer';
import type { ServerEnv } from '../server/env';
import { inProcessTransport, networkTransportOnce } from '../server/proxy/transport';
import { createReferenceApp } from '../server/reference/app';
import { referenceOptionsFromEnv } from '../server/reference/options';
import { basicValue } from '../server/targets/config';
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

/**
 * The credential header of a remote target, as the proxy adds it (server/proxy/targets remoteTarget). Made here from
 * the same descriptions and keys because that module also loads the model judge (node-llama-cpp, some 50 MB of
 * resident memory), which the command line never uses: a shard of a million rows stays under 200 MB.
 */
function credentialOf(d: TargetDescription, key: string | undefined): Record<string, string> {
  if (key === undefined || d.header === null || d.auth === 'none') return {};
  return { [d.header]: d.auth === 'bearer' ? `Bearer ${key}` : d.auth === 'basic' ? basicValue(key) : key };
}

/** Every configured target by id, local included. */
export function cliTargets(env: ServerEnv): CliTarget[] {
  return env.targets.targets.map((d) => {
    const key = env.targets.keys[d.id];
    return {
      pacing: pacingFor(d),
      inputPrice: d.inputPrice,
      ...(d.preset === 'local'
        ? localCliTarget(env)
        : {
            id: d.id,
            label: d.label,
            client: {
              baseUrl: d.baseUrl,
              evaluatePath: d.evaluatePath,
              // A keyless server (llama.cpp, Ollama) gets no credential header at all.
              headers: credentialOf(d, key),
              // The same translation as the proxy's: the target's dialect, envelope and model-in-path; numbers normalised.
              fetch: transportFetch(
                networkTransportOnce,
                { dialect: d.dialect, envelope: d.envelope, modelInPath: d.modelInPath },
                true,
              ),
            },
            secret: key === undefined || key === '' ? null : key,
            keyMissing: publicTarget(d, key !== undefined).keyMissing,
          }),
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
