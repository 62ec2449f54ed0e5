// The app's workspace connection module pointed at the test server, as whoever the test says is at the keyboard: a
// component file calls it from its vi.mock factory and sets `holder.url` and `holder.person` before rendering.
import type * as ConnectionModule from '../../src/app/queries/workspaceConnection';
import type { BrowserPerson } from './workspace';

export interface ConnectionHolder {
  url: string;
  person: BrowserPerson | null;
}

export function heldWorkspaceConnection(holder: ConnectionHolder): typeof ConnectionModule {
  return {
    workspaceConnection: () => ({
      get origin() {
        return holder.url;
      },
      fetch: ((input: RequestInfo | URL, init?: RequestInit) =>
        holder.person!.conn.fetch!(input, init)) as typeof fetch,
    }),
  };
}
