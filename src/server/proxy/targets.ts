// The proxy's targets: where each one's calls go and which credential it adds. Built from configuration only.
import { basename, extname } from 'node:path';
import { DEFAULT_EVALUATE_PATH, localFileModelIds } from '../../contract';
import type { TargetLimits, WireSettings } from '../../contract';
import type { TargetInfo, TargetKind } from '../../client/workbenchApi';
import type { ServerEnv } from '../env';
import { createReferenceApp } from '../reference/app';
import { createModelJudge } from '../reference/modelJudge/engine';
import { modelJudgeSettingsFromEnv } from '../reference/modelJudge/settings';
import { referenceOptionsFromEnv } from '../reference/options';
import { inProcessTransport, networkTransport } from './transport';
import type { Transport } from './transport';

/** A target as the proxy holds it: public facts plus the credential, which never leaves the server. */
export interface ProxyTarget {
  id: string;
  label: string;
  kind: TargetKind;
  /** Upstream base URL, from configuration only. */
  baseUrl: string;
  evaluatePath: string;
  /** Shown to the browser instead of the URL: a URL may carry credentials. */
  host: string;
  /** The header that carries the key, and its full value. */
  credential: { header: string; value: string };
  /** The key alone, so that it can be redacted from logs and responses. */
  secret: string;
  transport: Transport;
  /** The local target's model file, named to the browser (never its full path). */
  modelFile?: { fileName: string; alias: string };
  /** Settles once the target can answer (a model file loaded); rejects with a sentence when it cannot. */
  ready?: Promise<unknown>;
  /** Releases what the target holds in this process (a loaded model). */
  close?: () => Promise<void>;
  /** How the target's wire differs from the interface; the interface's own form when absent. */
  wire?: WireSettings;
  /** The target's own limits, where they differ from the contract's. */
  limits?: TargetLimits;
}

export const LOCAL_LABEL = 'Local reference (not a language model)';
// The in-process reference is reached without a socket; this origin only gives its requests a well-formed URL.
const LOCAL_ORIGIN = 'http://local-reference.invalid';

/** The browser's view of a target: no key, no URL, nothing that could carry a credential. */
export function targetInfo(target: ProxyTarget): TargetInfo {
  return {
    id: target.id,
    label: target.label,
    kind: target.kind,
    host: target.host,
    evaluatePath: target.evaluatePath,
    ...(target.modelFile ? { modelFile: target.modelFile } : {}),
    ...(target.wire ? { dialect: target.wire.dialect, envelope: target.wire.envelope } : {}),
    ...(target.limits ? { limits: target.limits } : {}),
  };
}

/** The in-process reference service, with the first of its configured keys. */
export function localTarget(env: Readonly<Record<string, string | undefined>>): ProxyTarget {
  const options = referenceOptionsFromEnv(env);
  // REFERENCE_MODEL_FILE: a GGUF model answers beside the lexical judge, loaded once in this process.
  const modelSettings = modelJudgeSettingsFromEnv(env);
  const modelJudge = modelSettings ? createModelJudge(modelSettings) : null;
  const app = createReferenceApp({ ...options, modelJudge });
  const key = options.apiKeys[0]!;
  const file = modelJudge?.fileName;
  return {
    id: 'local',
    label: file ? `Local reference (${file}, and the lexical judge)` : LOCAL_LABEL,
    kind: 'local',
    baseUrl: LOCAL_ORIGIN,
    evaluatePath: DEFAULT_EVALUATE_PATH,
    host: 'in-process',
    credential: { header: 'Authorization', value: `Bearer ${key}` },
    secret: key,
    transport: inProcessTransport((request) => app.fetch(request)),
    ...(modelJudge && file
      ? {
          modelFile: { fileName: file, alias: localFileModelIds(basename(file, extname(file)), '').alias },
          ready: modelJudge.ready,
          close: () => modelJudge.close(),
        }
      : {}),
  };
}

/** Every target the environment configures: direct and gateway when their pairs are set, local always, last. */
export function targetsFromEnv(env: ServerEnv): ProxyTarget[] {
  const targets: ProxyTarget[] = [];
  if (env.direct) {
    const host = new URL(env.direct.baseUrl).host;
    targets.push({
      id: 'direct',
      label: `Evaluation Service (${host})`,
      kind: 'direct',
      baseUrl: env.direct.baseUrl,
      evaluatePath: env.direct.evaluatePath,
      host,
      credential: { header: 'Authorization', value: `Bearer ${env.direct.apiKey}` },
      secret: env.direct.apiKey,
      transport: networkTransport,
      ...(env.direct.wire ? { wire: env.direct.wire } : {}),
      ...(env.direct.limits ? { limits: env.direct.limits } : {}),
    });
  }
  if (env.gateway) {
    const host = new URL(env.gateway.baseUrl).host;
    const bearer = env.gateway.authHeader.toLowerCase() === 'authorization';
    targets.push({
      id: 'gateway',
      label: `Gateway (${host})`,
      kind: 'gateway',
      baseUrl: env.gateway.baseUrl,
      evaluatePath: env.gateway.evaluatePath,
      host,
      // A custom header (x-api-key and the like) carries the raw key, as gateways expect.
      credential: {
        header: env.gateway.authHeader,
        value: bearer ? `Bearer ${env.gateway.apiKey}` : env.gateway.apiKey,
      },
      secret: env.gateway.apiKey,
      transport: networkTransport,
      ...(env.gateway.wire ? { wire: env.gateway.wire } : {}),
      ...(env.gateway.limits ? { limits: env.gateway.limits } : {}),
    });
  }
  targets.push(localTarget(env.raw));
  return targets;
}
