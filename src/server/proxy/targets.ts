// The proxy's targets: where each one's calls go and which credential it adds. Built from configuration only (the
// resolved descriptions of ../targets/config.ts); the key is looked up here and never leaves the server.
import { basename, extname } from 'node:path';
import { localFileModelIds, publicTarget } from '../../contract';
import type { TargetDescription, TargetInfo, TargetKind, TargetLimits, WireSettings } from '../../contract';
import type { ServerEnv } from '../env';
import { createReferenceApp } from '../reference/app';
import { createModelJudge } from '../reference/modelJudge/engine';
import { modelJudgeSettingsFromEnv } from '../reference/modelJudge/settings';
import { referenceOptionsFromEnv } from '../reference/options';
import { basicValue, keyForms, LOCAL_LABEL, localDescription } from '../targets/config';
import { inProcessTransport, networkTransport } from './transport';
import type { Transport } from './transport';

export { LOCAL_LABEL };

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
  /** The header that carries the key, and its full value; null when the target sends none (keyless or key missing). */
  credential: { header: string; value: string } | null;
  /** The key alone, so that it can be redacted from logs and responses; '' when there is none. */
  secret: string;
  transport: Transport;
  /** The local target's model file, named to the browser (never its full path). */
  modelFile?: { fileName: string; alias: string };
  /** Settles once the target can answer (a model file loaded); rejects with a sentence when it cannot. */
  ready?: Promise<unknown>;
  /** Releases what the target holds in this process (a loaded model). */
  close?: () => Promise<void>;
  /** The full description (paths, auth, limits, dialect), shared with the app and the command line. */
  description: TargetDescription;
  /** "key missing: VAR" when the key variable is unset: the proxy then refuses to send. */
  keyMissing: string | null;
  /** How the target's wire differs from the interface; the interface's own form when absent. */
  wire?: WireSettings;
  /** The target's own limits, where they differ from the contract's. */
  limits?: TargetLimits;
}

/** The browser's view of a target: no key, no URL, nothing that could carry a credential. */
export function targetInfo(target: ProxyTarget): TargetInfo {
  return {
    ...publicTarget(target.description, target.keyMissing === null),
    ...(target.modelFile ? { modelFile: target.modelFile } : {}),
    ...(target.wire ? { dialect: target.wire.dialect, envelope: target.wire.envelope } : {}),
    ...(target.limits ? { limits: target.limits } : {}),
  };
}

/** Every string the proxy must redact for this target: the key and, for Basic auth, its encoded form. */
export const targetSecrets = (target: ProxyTarget): string[] =>
  target.secret === '' ? [] : keyForms(target.description, target.secret);

/** The in-process reference service, with the first of its configured keys. */
export function localTarget(env: Readonly<Record<string, string | undefined>>): ProxyTarget {
  const options = referenceOptionsFromEnv(env);
  // REFERENCE_MODEL_FILE: a GGUF model answers beside the lexical judge, loaded once in this process.
  const modelSettings = modelJudgeSettingsFromEnv(env);
  const modelJudge = modelSettings ? createModelJudge(modelSettings) : null;
  const app = createReferenceApp({ ...options, modelJudge });
  const key = options.apiKeys[0]!;
  const file = modelJudge?.fileName;
  const description = localDescription();
  if (file) description.label = `Local reference (${file}, and the lexical judge)`;
  return {
    id: 'local',
    label: description.label,
    kind: 'local',
    baseUrl: description.baseUrl,
    evaluatePath: description.evaluatePath,
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
    description,
    keyMissing: null,
  };
}

/** The proxy target of one configured description, with its key (undefined when its variable is unset). */
export function remoteTarget(description: TargetDescription, key: string | undefined): ProxyTarget {
  const info = publicTarget(description, key !== undefined);
  let credential: ProxyTarget['credential'] = null;
  if (key !== undefined && description.header !== null) {
    const value =
      description.auth === 'bearer' ? `Bearer ${key}` : description.auth === 'basic' ? basicValue(key) : key;
    credential = { header: description.header, value };
  }
  return {
    id: description.id,
    label: description.label,
    kind: description.kind,
    baseUrl: description.baseUrl,
    evaluatePath: description.evaluatePath,
    host: info.host,
    credential: description.auth === 'none' ? null : credential,
    secret: key ?? '',
    transport: networkTransport,
    description,
    keyMissing: info.keyMissing,
    wire: {
      dialect: description.dialect,
      envelope: description.envelope,
      modelInPath: description.modelInPath,
    },
    limits: description.limits,
  };
}

/** Every configured target, in the configuration's order, the local reference last. */
export function targetsFromEnv(env: ServerEnv): ProxyTarget[] {
  return env.targets.targets.map((d) =>
    d.preset === 'local' ? localTarget(env.raw) : remoteTarget(d, env.targets.keys[d.id]),
  );
}
