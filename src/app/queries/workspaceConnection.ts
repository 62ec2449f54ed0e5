// Where the page reaches the team workspace: its own origin, speaking through the workspace's cookie. The one module
// that says so, so component tests replace it (a loopback server and a cookie jar) instead of globals.
import type { WorkspaceConnection } from '../../client/workspace';

const SAME_ORIGIN: WorkspaceConnection = {};

/** The app's connection to the workspace. */
export const workspaceConnection = (): WorkspaceConnection => SAME_ORIGIN;
