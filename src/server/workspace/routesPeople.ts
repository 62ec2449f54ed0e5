// The routes of people and access: status, start (this machine only, once), claiming the owner link, invites, joining,
// the list of people and the command line's token.
import type { Context, Hono } from 'hono';
import { setCookie } from 'hono/cookie';
import {
  ClaimRequestSchema,
  INVITE_LINK_KEY,
  InviteRequestSchema,
  JoinRequestSchema,
  OWNER_LINK_KEY,
  StartRequestSchema,
  WORKSPACE_COOKIE,
  WORKSPACE_PATHS as P,
} from '../../contract/workspace';
import type { Access } from './access';
import { fromLoopback } from './access';
import { jsonBody } from './body';
import type { Db } from './db';
import { WorkspaceFault } from './fault';
import type { Logger } from '../proxy/log';
import {
  claimOwnerLink,
  createInvite,
  isStarted,
  joinWithInvite,
  listPeople,
  newSessionFor,
  startWorkspace,
} from './people';

export interface PeopleRouteOptions {
  db: Db;
  access: Access;
  logger: Logger;
  /** The origin links are written for: the configured public origin, else the address the request came to. */
  publicOrigin: string | null;
}

/** The origin a link names. */
export const linkOrigin = (c: Context, publicOrigin: string | null): string =>
  publicOrigin ?? `http://${c.req.header('host') ?? '127.0.0.1'}`;

export function giveCookie(c: Context, token: string, secure: boolean): void {
  setCookie(c, WORKSPACE_COOKIE, token, {
    httpOnly: true,
    sameSite: 'Strict',
    // /api, not only /api/workspace: on a public workbench the proxy's routes ask for the owner's cookie too.
    path: '/api',
    secure,
    maxAge: 365 * 24 * 3600,
  });
}

export function peopleRoutes(app: Hono, o: PeopleRouteOptions): void {
  const { db, access } = o;
  const secure = o.publicOrigin?.startsWith('https://') ?? false;

  app.get(P.status, async (c) => {
    const me = await access.person(c);
    return c.json({ started: await isStarted(db), me });
  });

  app.post(P.start, async (c) => {
    if (!fromLoopback(c))
      throw access.refusal(
        c,
        new WorkspaceFault(403, 'loopback_only', 'A workspace is started on the machine that serves it.'),
      );
    const body = await jsonBody(c, StartRequestSchema);
    const started = await startWorkspace(db, body.name);
    if (!started)
      throw access.refusal(c, new WorkspaceFault(409, 'started', 'This workspace was already started.'));
    const ownerLink = `${linkOrigin(c, o.publicOrigin)}/#${OWNER_LINK_KEY}=${started.linkToken}`;
    // The one time this link is written anywhere but the answer: the server's log, for the person who started it.
    o.logger.info(`[workspace] started. Owner link (works once, in another browser): ${ownerLink}`);
    giveCookie(c, started.session, secure);
    return c.json({ me: started.me, ownerLink });
  });

  app.post(P.claim, async (c) => {
    await access.beforeTokenCheck(c);
    const body = await jsonBody(c, ClaimRequestSchema);
    const claimed = await claimOwnerLink(db, body.token);
    if (!claimed) throw access.wrongToken(c, 'This owner link is not valid or was already used.');
    giveCookie(c, claimed.session, secure);
    return c.json({ me: claimed.me });
  });

  app.post(P.invites, async (c) => {
    await access.owner(c);
    const body = await jsonBody(c, InviteRequestSchema);
    const invite = await createInvite(db, body.note, body.expiresInSeconds);
    return c.json({
      id: invite.id,
      link: `${linkOrigin(c, o.publicOrigin)}/#${INVITE_LINK_KEY}=${invite.token}`,
      expiresAt: invite.expiresAt,
    });
  });

  app.post(P.join, async (c) => {
    await access.beforeTokenCheck(c);
    const body = await jsonBody(c, JoinRequestSchema);
    const joined = await joinWithInvite(db, body.invite, body.name);
    if (!joined.ok) {
      if (joined.why === 'unknown')
        throw access.wrongToken(c, 'This invite link is not one of this workspace.');
      throw access.refusal(
        c,
        new WorkspaceFault(
          403,
          `invite_${joined.why}`,
          joined.why === 'used'
            ? 'This invite link was already used; ask the owner for a new one.'
            : 'This invite link has expired; ask the owner for a new one.',
        ),
      );
    }
    giveCookie(c, joined.session, secure);
    return c.json({ me: joined.me });
  });

  app.get(P.people, async (c) => {
    await access.owner(c);
    return c.json({ people: await listPeople(db) });
  });

  app.post(P.tokens, async (c) => {
    const me = await access.owner(c);
    return c.json({ token: await newSessionFor(db, me.id) });
  });
}
