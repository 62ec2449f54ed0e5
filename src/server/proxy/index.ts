// The key-holding proxy over targets built by the targets module: the same code serves `npm start` and `npm run dev`.
import type { Hono } from 'hono';
import type { TargetInfo } from '../../contract';
import type { ServerEnv } from '../env';
import { createProxyApp } from './app';
import type { Logger } from './log';
import { HostPolicy } from './security';
import type { ServedAddress } from './security';
import { targetInfo, targetSecrets } from '../targets/target';
import type { ProxyTarget } from '../targets/target';

export { createProxyApp, proxyError, readLimitedBody, redactBody } from './app';
export type { ProxyAppOptions, ProxyErrorType } from './app';
export { createLogger, redact, REDACTED } from './log';
export type { Logger, LogLevel, LogWrite } from './log';
export { allowedHostValues, checkWorkbenchHeader, HostPolicy, WORKBENCH_HEADER } from './security';
export type { Refusal, ServedAddress } from './security';

/** The proxy of one workbench server. */
export interface WorkbenchProxy {
  app: Hono;
  /** What GET /api/targets lists (and what start prints). */
  targets: TargetInfo[];
  hostPolicy: HostPolicy;
  /** Every key the proxy holds, for redaction. */
  secrets: string[];
  /** Settles once every target can answer (a local model file loaded); rejects with the first sentence that says why not. */
  ready: Promise<void>;
  /** Releases what targets hold in this process. */
  close(): Promise<void>;
}

/**
 * Builds the proxy for a parsed environment over `targets` (built by src/server/targets, the local reference handed in
 * by a composition root); `servedAt` is read per request, since the port is known once listening.
 */
export function createWorkbenchProxy(
  env: ServerEnv,
  options: { targets: ProxyTarget[]; servedAt: () => ServedAddress | null; logger: Logger },
): WorkbenchProxy {
  const { targets } = options;
  const hostPolicy = new HostPolicy(options.servedAt);
  const app = createProxyApp({
    targets,
    hostPolicy,
    upstreamTimeoutMs: env.upstreamTimeoutMs,
    bodyLimitBytes: env.bodyLimitBytes,
    logger: options.logger,
    targetProblems: env.targets.problems,
  });
  return {
    app,
    targets: targets.map(targetInfo),
    hostPolicy,
    secrets: targets.flatMap(targetSecrets),
    ready: Promise.all(targets.map((t) => t.ready)).then(() => undefined),
    close: () => Promise.all(targets.map((t) => t.close?.())).then(() => undefined),
  };
}

/** One line per target for a terminal: id, label, and where its evaluations go (host and path); never a key. */
export function describeTargets(targets: readonly TargetInfo[]): string[] {
  const idWidth = Math.max(...targets.map((t) => t.id.length));
  const labelWidth = Math.max(...targets.map((t) => t.label.length));
  return targets.map((t) => {
    const where = t.kind === 'local' ? 'in-process' : `${t.host}${t.evaluatePath}`;
    const missing = t.keyMissing ? `  (${t.keyMissing}: does not send)` : '';
    return `  ${t.id.padEnd(idWidth)}  ${t.label.padEnd(labelWidth)}  ${where}${missing}`;
  });
}

/** True when the local reference is the only target: the UI and the terminal then say how to add a key. */
export const onlyLocal = (targets: readonly TargetInfo[]): boolean =>
  targets.every((t) => t.kind === 'local');
