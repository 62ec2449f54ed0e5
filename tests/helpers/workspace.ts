// People of a workspace as the browser's client sees them, for tests in Node: the real workspace server on loopback
// (PGlite in a temporary folder, tests/unit/server/workspace/helpers.ts), and per person a connection whose transport
// keeps the workspace's cookie as a browser would, and can be taken offline (every request fails as a dropped
// connection does) and back.
import type { WorkspaceConnection } from '../../src/client/workspace';
import { startWorkspace } from '../unit/server/workspace/helpers';
import type { TestWorkspace } from '../unit/server/workspace/helpers';

export { startWorkspace };
export type { TestWorkspace };

export interface BrowserPerson {
  conn: WorkspaceConnection;
  /** Drops (true) or restores (false) this person's connection. */
  setOffline: (offline: boolean) => void;
  /** Requests sent while online, by method and path. */
  sent: string[];
}

/** A person's browser: a cookie jar over fetch to the workspace's URL. */
export function browserPerson(url: string): BrowserPerson {
  let cookie: string | null = null;
  let offline = false;
  const sent: string[] = [];
  const transport: typeof fetch = async (input, init) => {
    if (offline) throw new TypeError('fetch failed', { cause: { code: 'ECONNREFUSED' } });
    const headers = new Headers(init?.headers);
    if (cookie) headers.set('cookie', cookie);
    const target = new URL(String(input));
    sent.push(`${init?.method ?? 'GET'} ${target.pathname}`);
    const response = await fetch(input, { ...init, headers });
    const set = response.headers.get('set-cookie');
    if (set) cookie = set.split(';')[0]!;
    return response;
  };
  return { conn: { origin: url, fetch: transport }, setOffline: (o) => (offline = o), sent };
}
