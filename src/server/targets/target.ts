// The one place a target is built: a description (../targets/config.ts resolves them from the configuration) becomes
// a working target with its transport and credential. The proxy, the target check and the command line all build
// through here; the local reference is created by a composition root and handed in. The key never leaves the server.
import { basename, extname } from 'node:path';
import { hostOf, localFileModelIds, publicTarget } from '../../contract';
import type { TargetDescription, TargetInfo, TargetKind, TargetLimits, WireSettings } from '../../contract';
import { basicValue, keyForms, LOCAL_LABEL, localDescription } from './config';
import type { TargetsConfig } from './config';
import { inProcessTransport, networkTransport } from './transport';
import type { Transport } from './transport';

export { LOCAL_LABEL };

/** The in-process reference as a composition root hands it in (src/server/reference/local.ts creates one). */
export interface LocalReference {
  fetch: (request: Request) => Response | Promise<Response>;
  /** The reference's first key: the local target sends it as a bearer token. */
  apiKey: string;
  /** A model file loaded in this process, answering beside the lexical judge. */
  model?: { fileName: string; ready: Promise<unknown>; close: () => Promise<void> } | null;
}

/** How a target is reached: its credential and transport, and what it holds in this process. */
export interface TargetReach {
  /** The header that carries the key, and its full value; null when the target sends none (keyless or key missing). */
  credential: { header: string; value: string } | null;
  /** The key alone, so that it can be redacted from logs and responses; '' when there is none. */
  secret: string;
  /** "key missing: VAR" when the key variable is unset: the proxy then refuses to send. */
  keyMissing: string | null;
  transport: Transport;
  /** The local target's model file, named to the browser (never its full path). */
  modelFile?: { fileName: string; alias: string };
  /** Settles once the target can answer (a model file loaded); rejects with a sentence when it cannot. */
  ready?: Promise<unknown>;
  /** Releases what the target holds in this process (a loaded model). */
  close?: () => Promise<void>;
}

/**
 * A working target: its description (paths, auth, limits, dialect, price), which it keeps no copy of, and how it is
 * reached. The description's facts are read through it (id, label, kind...), so there is one source for each.
 */
export class ProxyTarget implements TargetReach {
  readonly credential: TargetReach['credential'];
  readonly secret: string;
  readonly keyMissing: string | null;
  readonly transport: Transport;
  readonly modelFile?: TargetReach['modelFile'];
  readonly ready?: Promise<unknown>;
  readonly close?: () => Promise<void>;

  constructor(
    /** The full description, shared with the app and the command line. */
    readonly description: TargetDescription,
    reach: TargetReach,
  ) {
    this.credential = reach.credential;
    this.secret = reach.secret;
    this.keyMissing = reach.keyMissing;
    this.transport = reach.transport;
    if (reach.modelFile) this.modelFile = reach.modelFile;
    if (reach.ready) this.ready = reach.ready;
    if (reach.close) this.close = reach.close;
  }

  get id(): string {
    return this.description.id;
  }
  get label(): string {
    return this.description.label;
  }
  get kind(): TargetKind {
    return this.description.kind;
  }
  /** Upstream base URL, from configuration only. */
  get baseUrl(): string {
    return this.description.baseUrl;
  }
  get evaluatePath(): string {
    return this.description.evaluatePath;
  }
  /** Shown instead of the URL: a URL may carry credentials. */
  get host(): string {
    return this.description.preset === 'local' ? 'in-process' : hostOf(this.description.baseUrl);
  }
  /** How the target's wire differs from the interface; absent for the local reference, which speaks it. */
  get wire(): WireSettings | undefined {
    const { kind, dialect, envelope, modelInPath } = this.description;
    return kind === 'local' ? undefined : { dialect, envelope, modelInPath };
  }
  /** The target's own limits, where they differ from the contract's (the local reference has the contract's). */
  get limits(): TargetLimits | undefined {
    return this.description.kind === 'local' ? undefined : this.description.limits;
  }
}

/** The browser's view of a target: no key, no URL, nothing that could carry a credential. */
export function targetInfo(target: ProxyTarget): TargetInfo {
  const wire = target.wire;
  return {
    ...publicTarget(target.description, target.keyMissing === null),
    ...(target.modelFile ? { modelFile: target.modelFile } : {}),
    ...(wire ? { dialect: wire.dialect, envelope: wire.envelope } : {}),
    ...(target.limits ? { limits: target.limits } : {}),
  };
}

/** Every string the proxy must redact for this target: the key and, for Basic auth, its encoded form. */
export const targetSecrets = (target: ProxyTarget): string[] =>
  target.secret === '' ? [] : keyForms(target.description, target.secret);

/** The local target over a reference handed in by a composition root, with the first of its keys. */
export function referenceTarget(reference: LocalReference): ProxyTarget {
  const file = reference.model?.fileName;
  const description = localDescription();
  if (file) description.label = `Local reference (${file}, and the lexical judge)`;
  return new ProxyTarget(description, {
    credential: { header: 'Authorization', value: `Bearer ${reference.apiKey}` },
    secret: reference.apiKey,
    keyMissing: null,
    transport: inProcessTransport(reference.fetch),
    ...(reference.model && file
      ? {
          modelFile: { fileName: file, alias: localFileModelIds(basename(file, extname(file)), '').alias },
          ready: reference.model.ready,
          close: reference.model.close,
        }
      : {}),
  });
}

/** The target of one configured description, with its key (undefined when its variable is unset). */
export function remoteTarget(description: TargetDescription, key: string | undefined): ProxyTarget {
  let credential: ProxyTarget['credential'] = null;
  if (key !== undefined && description.header !== null && description.auth !== 'none') {
    const value =
      description.auth === 'bearer' ? `Bearer ${key}` : description.auth === 'basic' ? basicValue(key) : key;
    credential = { header: description.header, value };
  }
  return new ProxyTarget(description, {
    credential,
    secret: key ?? '',
    keyMissing: publicTarget(description, key !== undefined).keyMissing,
    transport: networkTransport,
  });
}

/**
 * Every configured target, in the configuration's order (the local reference last). `local` creates the reference
 * when its description is reached, so a composition root decides what it loads.
 */
export function buildTargets(config: TargetsConfig, local: () => LocalReference): ProxyTarget[] {
  return config.targets.map((d) =>
    d.preset === 'local' ? referenceTarget(local()) : remoteTarget(d, config.keys[d.id]),
  );
}
