// The workspace's settings from the environment, read once through zod: where its database is, and whether the
// workbench serves a team beyond this machine (an explicit setting that needs a public origin and the workspace on).
import { join } from 'node:path';
import { z } from 'zod';

export interface WorkspaceSettings {
  /** A real PostgreSQL (DATABASE_URL), or null for PGlite in dataDir. */
  databaseUrl: string | null;
  dataDir: string;
  /** Start the workspace at boot when it was never started (printing the owner link): WORKBENCH_WORKSPACE=1. */
  startAtBoot: boolean;
  /** The https origin people reach the workbench at (behind a TLS-terminating proxy), or null on loopback. */
  publicOrigin: string | null;
}

const flag = (name: string) => z.enum(['0', '1'], { error: `${name} must be 0 or 1.` }).optional();

const WorkspaceEnvSchema = z.object({
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'DATABASE_URL must be a postgres:// or postgresql:// URL.')
    .optional(),
  WORKBENCH_WORKSPACE_DIR: z.string().min(1).optional(),
  WORKBENCH_WORKSPACE: flag('WORKBENCH_WORKSPACE'),
  WORKBENCH_LISTEN_PUBLIC: flag('WORKBENCH_LISTEN_PUBLIC'),
  WORKBENCH_PUBLIC_ORIGIN: z
    .url({ error: 'WORKBENCH_PUBLIC_ORIGIN must be an origin such as https://labels.example.org.' })
    .optional(),
});

/** Thrown with a sentence naming the setting, never a value (a database URL may hold a password). */
export class WorkspaceSettingsError extends Error {
  override readonly name = 'WorkspaceSettingsError';
}

/** The settings, or an error naming what is wrong; `host` is the address the server binds (HOST). */
export function workspaceSettings(
  raw: Record<string, string | undefined>,
  root: string,
  host: { loopback: boolean },
): WorkspaceSettings {
  const set = Object.fromEntries(Object.entries(raw).filter(([, v]) => v !== undefined && v.trim() !== ''));
  const parsed = WorkspaceEnvSchema.safeParse(set);
  if (!parsed.success) throw new WorkspaceSettingsError(parsed.error.issues.map((i) => i.message).join(' '));
  const e = parsed.data;
  const isPublic = e.WORKBENCH_LISTEN_PUBLIC === '1';
  if (!host.loopback && !isPublic)
    throw new WorkspaceSettingsError(
      'HOST is not a loopback address: serving beyond this machine is an explicit setting. Set WORKBENCH_LISTEN_PUBLIC=1, WORKBENCH_PUBLIC_ORIGIN and WORKBENCH_WORKSPACE=1 (README, "A team workspace"), or leave HOST unset.',
    );
  if (isPublic && !e.WORKBENCH_PUBLIC_ORIGIN)
    throw new WorkspaceSettingsError(
      'WORKBENCH_LISTEN_PUBLIC=1 needs WORKBENCH_PUBLIC_ORIGIN, the https address people open (behind a TLS-terminating proxy).',
    );
  if (isPublic && e.WORKBENCH_WORKSPACE !== '1')
    throw new WorkspaceSettingsError(
      'WORKBENCH_LISTEN_PUBLIC=1 needs the workspace on: set WORKBENCH_WORKSPACE=1, so every request beyond this machine is someone the owner invited.',
    );
  const origin = isPublic && e.WORKBENCH_PUBLIC_ORIGIN ? new URL(e.WORKBENCH_PUBLIC_ORIGIN).origin : null;
  return {
    databaseUrl: e.DATABASE_URL ?? null,
    dataDir: e.WORKBENCH_WORKSPACE_DIR ?? join(root, '.workbench', 'workspace'),
    startAtBoot: e.WORKBENCH_WORKSPACE === '1',
    publicOrigin: origin,
  };
}
