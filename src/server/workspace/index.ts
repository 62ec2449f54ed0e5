// The team workspace (issue 40): a database (PGlite in a folder, or PostgreSQL at DATABASE_URL), migrated when opened,
// and the Hono app a composition root mounts under /api/workspace on the workbench's port. Opened at start when a
// team's settings ask for it (or its folder exists), else on the first workspace request: one person never pays for it.
import { existsSync } from 'node:fs';
import type { Hono } from 'hono';
import { OWNER_LINK_KEY, WORKSPACE_COOKIE } from '../../contract/workspace';
import type { Logger } from '../proxy/log';
import type { HostPolicy } from '../proxy/security';
import { createWorkspaceApp } from './app';
import { openDb } from './db';
import type { Db } from './db';
import type { WorkspaceEvents } from './events';
import { migrate } from './migrations';
import { isStarted, personByToken, startWorkspace } from './people';
import type { WorkspaceSettings } from './settings';

export { workspaceSettings, WorkspaceSettingsError } from './settings';
export type { WorkspaceSettings } from './settings';

export interface Workspace {
  app: Hono;
  db: Db;
  events: WorkspaceEvents;
}

export interface WorkspaceOptions {
  settings: WorkspaceSettings;
  logger: Logger;
  hostPolicy: HostPolicy;
}

/** Opens and migrates the database, then builds the app. */
export async function openWorkspace(options: WorkspaceOptions): Promise<Workspace> {
  const db = await openDb(options.settings);
  try {
    await migrate(db);
  } catch (error) {
    await db.close();
    throw error;
  }
  const { app, events } = createWorkspaceApp({
    db,
    logger: options.logger,
    hostPolicy: options.hostPolicy,
    publicOrigin: options.settings.publicOrigin,
  });
  return { app, db, events };
}

/** The workspace as a composition root holds it: opened once, on start or on first use. */
export class WorkspaceMount {
  private opening: Promise<Workspace> | null = null;

  constructor(private readonly options: WorkspaceOptions) {}

  /** Whether to open at start: a team's database, a start at boot, or a workspace this folder already holds. */
  get eager(): boolean {
    const s = this.options.settings;
    return s.databaseUrl !== null || s.startAtBoot || existsSync(s.dataDir);
  }

  open(): Promise<Workspace> {
    this.opening ??= openWorkspace(this.options).catch((error: unknown) => {
      this.opening = null;
      throw error;
    });
    return this.opening;
  }

  /** Starts the workspace at boot (WORKBENCH_WORKSPACE=1) when nobody has, and logs the one-time owner link. */
  async startAtBoot(localOrigin: string): Promise<void> {
    if (!this.options.settings.startAtBoot) return;
    const { db } = await this.open();
    if (await isStarted(db)) return;
    const started = await startWorkspace(db, 'Owner');
    if (started)
      this.options.logger.info(
        `[workspace] started. Owner link (works once): ${this.options.settings.publicOrigin ?? localOrigin}/#${OWNER_LINK_KEY}=${started.linkToken}`,
      );
  }

  /** Whether the workbench serves beyond this machine (then the proxy's keys are for the owner only). */
  get isPublic(): boolean {
    return this.options.settings.publicOrigin !== null;
  }

  /** Whether a request carries the owner's session (cookie or bearer): who may spend keys on a public workbench. */
  async fromOwner(request: Request): Promise<boolean> {
    const auth = request.headers.get('authorization');
    const cookie = new RegExp(`(?:^|;\\s*)${WORKSPACE_COOKIE}=([^;]+)`).exec(
      request.headers.get('cookie') ?? '',
    );
    const token = auth?.toLowerCase().startsWith('bearer ') ? auth.slice(7).trim() : cookie?.[1];
    if (!token) return false;
    const person = await personByToken((await this.open()).db, token).catch(() => null);
    return person?.role === 'owner';
  }

  /** Answers a request under /api/workspace (node's bindings passed on, for the peer's address). */
  async fetch(request: Request, bindings: unknown): Promise<Response> {
    try {
      return await (await this.open()).app.fetch(request, bindings);
    } catch (error) {
      this.options.logger.error(`[workspace] could not open: ${(error as Error).message}`);
      return Response.json(
        {
          error: {
            type: 'unavailable',
            message: `The workspace could not open: ${(error as Error).message}`,
          },
        },
        { status: 503 },
      );
    }
  }

  async close(): Promise<void> {
    const opening = this.opening;
    this.opening = null;
    if (opening) await (await opening.catch(() => null))?.db.close();
  }
}
