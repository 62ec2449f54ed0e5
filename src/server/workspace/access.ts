// Who a request speaks for and whether it may: the Host and Origin checks and the workbench header of the proxy's
// security module, the token (cookie or bearer) read as a person, wrong tokens slowed then refused per address, and
// every refusal logged without the token.
import type { Context } from 'hono';
import { getCookie } from 'hono/cookie';
import { getConnInfo } from '@hono/node-server/conninfo';
import { WORKSPACE_COOKIE, WorkspaceTokenSchema } from '../../contract/workspace';
import type { Person } from '../../contract/workspace';
import { isLoopbackHost } from '../env';
import type { Logger } from '../proxy/log';
import type { HostPolicy } from '../proxy/security';
import { checkWorkbenchHeader, WORKBENCH_HEADER } from '../proxy/security';
import type { Backoff } from './backoff';
import type { Sql } from './db';
import { WorkspaceFault } from './fault';
import { personByToken } from './people';

export interface AccessOptions {
  db: Sql;
  logger: Logger;
  hostPolicy: HostPolicy;
  backoff: Backoff;
}

/** The peer's address, or '' when the request did not come through a socket (an in-process fetch). */
export function peerAddress(c: Context): string {
  try {
    return getConnInfo(c).remote.address ?? '';
  } catch {
    return '';
  }
}

export const fromLoopback = (c: Context): boolean => {
  const address = peerAddress(c).replace(/^::ffff:/, '');
  return address !== '' && isLoopbackHost(address);
};

/** The token a request carries: a bearer header first (the command line), else the cookie; null when neither. */
function tokenOf(c: Context): string | null {
  const auth = c.req.header('authorization');
  if (auth?.toLowerCase().startsWith('bearer ')) return auth.slice(7).trim();
  return getCookie(c, WORKSPACE_COOKIE) ?? null;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export class Access {
  constructor(private readonly o: AccessOptions) {}

  /** Logs a refusal (method, path, address and the sentence; never a token) and returns it to throw. */
  refusal(c: Context, fault: WorkspaceFault): WorkspaceFault {
    this.o.logger.warn(
      `[workspace] refused ${c.req.method} ${c.req.path} from ${peerAddress(c) || 'in-process'}: ${fault.status} ${fault.message}`,
    );
    return fault;
  }

  /** Host, Origin and the workbench header; the event stream (EventSource sets no header) is a same-site GET. */
  checkRequest(c: Context, events: boolean): void {
    const policy = this.o.hostPolicy;
    const refusal =
      policy.checkHost(c.req.header('host')) ??
      policy.checkOrigin(c.req.header('origin'), c.req.header('sec-fetch-site')) ??
      (events ? null : checkWorkbenchHeader(c.req.header(WORKBENCH_HEADER)));
    if (refusal) throw this.refusal(c, new WorkspaceFault(403, 'forbidden', refusal.message));
  }

  /** Waits the address's backoff, or refuses it when it failed too often. */
  async beforeTokenCheck(c: Context): Promise<void> {
    const standing = this.o.backoff.standing(peerAddress(c));
    if (standing.refused)
      throw this.refusal(
        c,
        new WorkspaceFault(
          429,
          'too_many_failures',
          'Too many wrong sign-ins from this address; try again in 15 minutes.',
        ),
      );
    if (standing.delayMs) await sleep(standing.delayMs);
  }

  /** Counts a wrong token against the address and returns the refusal to throw. */
  wrongToken(c: Context, message: string): WorkspaceFault {
    this.o.backoff.fail(peerAddress(c));
    return this.refusal(c, new WorkspaceFault(401, 'unauthorized', message));
  }

  /** The person the request's token names, null without a token; a token that names nobody is refused. */
  async person(c: Context): Promise<Person | null> {
    const token = tokenOf(c);
    if (token === null) return null;
    await this.beforeTokenCheck(c);
    const person = WorkspaceTokenSchema.safeParse(token).success
      ? await personByToken(this.o.db, token)
      : null;
    if (!person)
      throw this.wrongToken(
        c,
        'This sign-in is not valid in this workspace: open your invite link again, or ask the owner for a new one.',
      );
    return person;
  }

  async signedIn(c: Context): Promise<Person> {
    const person = await this.person(c);
    if (!person)
      throw this.refusal(
        c,
        new WorkspaceFault(401, 'unauthorized', 'Sign in first: open the invite link the owner sent you.'),
      );
    return person;
  }

  async owner(c: Context): Promise<Person> {
    const person = await this.signedIn(c);
    if (person.role !== 'owner')
      throw this.refusal(c, new WorkspaceFault(403, 'owner_only', "Only the workspace's owner may do this."));
    return person;
  }
}
