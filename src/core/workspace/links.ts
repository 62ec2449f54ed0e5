// The links a person opens to enter a workspace: `#workspace-owner=<token>` (the one-time owner link) and
// `#workspace-invite=<token>` (an invite). The fragment never reaches a server's log; it is parsed here with zod and
// anything else is no link.
import { z } from 'zod';
import { INVITE_LINK_KEY, OWNER_LINK_KEY, WorkspaceTokenSchema } from '../../contract/workspace';

export const WorkspaceLinkSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('owner'), token: WorkspaceTokenSchema }),
  z.object({ kind: z.literal('invite'), token: WorkspaceTokenSchema }),
]);
export type WorkspaceLink = z.infer<typeof WorkspaceLinkSchema>;

/** The link a fragment holds ("#workspace-invite=abc…"), or null. */
export function workspaceLinkOf(fragment: string): WorkspaceLink | null {
  const params = new URLSearchParams(fragment.replace(/^#/, ''));
  const owner = params.get(OWNER_LINK_KEY);
  const invite = params.get(INVITE_LINK_KEY);
  const parsed = WorkspaceLinkSchema.safeParse(
    owner !== null ? { kind: 'owner', token: owner } : { kind: 'invite', token: invite },
  );
  return parsed.success ? parsed.data : null;
}
