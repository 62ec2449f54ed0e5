// The workspace inside `npm start`'s server: mounted under /api/workspace beside the proxy, refused at start when its
// database is newer than the code, and serving beyond this machine only as an explicit, complete setting.
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openPglite } from '../../../../src/server/workspace/db';
import { LATEST_VERSION, migrate } from '../../../../src/server/workspace/migrations';
import { workspaceSettings } from '../../../../src/server/workspace/settings';
import { startWorkbench } from '../proxy/helpers';
import { pgliteTemplate } from './helpers';

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

async function workspaceDir(): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'workspace-mount-'));
  dirs.push(dir);
  cpSync(await pgliteTemplate(), dir, { recursive: true });
  return dir;
}

describe('settings', () => {
  const root = '/srv/workbench';
  it('keeps the database in .workbench/workspace, or on PostgreSQL when DATABASE_URL is set', () => {
    expect(workspaceSettings({}, root, { loopback: true })).toEqual({
      databaseUrl: null,
      dataDir: '/srv/workbench/.workbench/workspace',
      startAtBoot: false,
      publicOrigin: null,
    });
    expect(
      workspaceSettings({ DATABASE_URL: 'postgresql://db/x' }, root, { loopback: true }).databaseUrl,
    ).toBe('postgresql://db/x');
    expect(() => workspaceSettings({ DATABASE_URL: 'mysql://secret@db' }, root, { loopback: true })).toThrow(
      'DATABASE_URL must be a postgres:// or postgresql:// URL.',
    );
  });

  it('serves beyond this machine only with the explicit setting, a public origin and the workspace on', () => {
    expect(() => workspaceSettings({}, root, { loopback: false })).toThrow(/WORKBENCH_LISTEN_PUBLIC=1/);
    expect(() => workspaceSettings({ WORKBENCH_LISTEN_PUBLIC: '1' }, root, { loopback: false })).toThrow(
      /needs WORKBENCH_PUBLIC_ORIGIN/,
    );
    const origin = { WORKBENCH_LISTEN_PUBLIC: '1', WORKBENCH_PUBLIC_ORIGIN: 'https://labels.example.org/' };
    expect(() => workspaceSettings(origin, root, { loopback: false })).toThrow(/needs the workspace on/);
    const team = workspaceSettings({ ...origin, WORKBENCH_WORKSPACE: '1' }, root, { loopback: false });
    expect(team).toMatchObject({ publicOrigin: 'https://labels.example.org', startAtBoot: true });
  });
});

describe('the workbench server', () => {
  it(
    'answers /api/workspace beside the proxy, and starts a workspace from this machine',
    { timeout: 60_000 },
    async () => {
      const wb = await startWorkbench({ WORKBENCH_WORKSPACE_DIR: await workspaceDir() });
      try {
        const headers = { 'x-workbench-request': '1' };
        const status = await fetch(`${wb.url}/api/workspace/status`, { headers });
        expect(await status.json()).toEqual({ started: false, me: null });
        const start = await fetch(`${wb.url}/api/workspace/start`, { method: 'POST', headers, body: '{}' });
        expect(start.status).toBe(200);
        const link = ((await start.json()) as { ownerLink: string }).ownerLink;
        expect(link).toMatch(new RegExp(`^${wb.url}/#workspace-owner=[A-Za-z0-9_-]{43}$`));
        // Printed once, to the server's log, for the person who started it.
        expect(wb.logs.filter((l) => l.line.includes(link))).toHaveLength(1);
        const targets = await fetch(`${wb.url}/api/targets`, { headers });
        expect(targets.status).toBe(200);
      } finally {
        await wb.close();
      }
    },
  );

  it(
    'refuses to start on a database a newer workbench migrated, with the sentence',
    { timeout: 60_000 },
    async () => {
      const dir = await workspaceDir();
      const db = await openPglite(dir);
      await migrate(db);
      await db.query('INSERT INTO workspace_schema (version) VALUES ($1)', [LATEST_VERSION + 1]);
      await db.close();
      await expect(startWorkbench({ WORKBENCH_WORKSPACE_DIR: dir })).rejects.toThrow(
        /The workspace database is at version \d+, newer than this workbench knows/,
      );
    },
  );
});
