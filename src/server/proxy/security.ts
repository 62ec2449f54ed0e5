// Who may talk to the proxy: the Host and Origin the workbench is served at, and only with the workbench's own header.
import { networkInterfaces } from 'node:os';
import { isLoopbackHost } from '../env';

/** The header every /api request must carry; a cross-site form or simple request cannot set it without a preflight. */
export const WORKBENCH_HEADER = 'x-workbench-request';

/** Where the workbench is served: the names it was bound with (configured host, bound address) and the port. */
export interface ServedAddress {
  hostnames: readonly string[];
  port: number;
  /**
   * The origin people open when a TLS-terminating proxy serves the workbench to a team (WORKBENCH_PUBLIC_ORIGIN, e.g.
   * https://labels.example.org): its host is a served Host, and it is the one foreign-scheme Origin accepted.
   */
  publicOrigin?: string;
}

/** Why a request is refused, in one sentence for a person. */
export interface Refusal {
  status: 403;
  message: string;
}

const WILDCARDS = new Set(['0.0.0.0', '::', '[::]', '']);
const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '[::1]'];

// `::1` in a Host header is written `[::1]`; names compare case-insensitively.
const bracket = (h: string): string => {
  const lower = h.toLowerCase();
  return lower.includes(':') && !lower.startsWith('[') ? `[${lower}]` : lower;
};

/** Every `host:port` value a browser may legitimately send for this address. */
export function allowedHostValues(served: ServedAddress): Set<string> {
  const names = new Set<string>();
  for (const name of served.hostnames) {
    if (WILDCARDS.has(name)) {
      // Bound to every interface: the machine's own addresses are the served host.
      for (const list of Object.values(networkInterfaces()))
        for (const a of list ?? []) names.add(bracket(a.address));
      LOOPBACK_NAMES.forEach((n) => names.add(n));
    } else {
      names.add(bracket(name));
      // The loopback spellings of a loopback address all reach the same socket.
      if (isLoopbackHost(name)) LOOPBACK_NAMES.forEach((n) => names.add(n));
    }
  }
  const values = new Set<string>();
  for (const n of names) {
    values.add(`${n}:${served.port}`);
    if (served.port === 80) values.add(n);
  }
  // The proxy in front forwards the Host people typed: the public origin's host, with its port when it has one.
  if (served.publicOrigin) values.add(new URL(served.publicOrigin).host.toLowerCase());
  return values;
}

/** Decides Host and Origin against the served address; caches the allowed set per address. */
export class HostPolicy {
  private cacheKey = '';
  private cachedFor: ServedAddress | null = null;
  private cache = new Set<string>();

  /** `served` is read on every request: the port is known only once the server listens. */
  constructor(private readonly served: () => ServedAddress | null) {}

  /** The allowed `host:port` values right now (empty before the server listens). */
  allowed(): Set<string> {
    const served = this.served();
    if (!served) return new Set();
    // The same address object comes back on every request of a running server: compare it first, cheaply.
    if (served === this.cachedFor) return this.cache;
    const key = `${served.hostnames.join(',')}|${served.port}|${served.publicOrigin ?? ''}`;
    if (key !== this.cacheKey) {
      this.cache = allowedHostValues(served);
      this.cacheKey = key;
    }
    this.cachedFor = served;
    return this.cache;
  }

  /** A refusal when the Host header is not the served host and port (DNS rebinding), else null. */
  checkHost(host: string | undefined): Refusal | null {
    if (host !== undefined && this.allowed().has(host.toLowerCase())) return null;
    return {
      status: 403,
      message: `Host "${host ?? ''}" is not the address this workbench is served at; open it at ${this.example()}.`,
    };
  }

  /**
   * A refusal when the browser says the request comes from another site: a foreign Origin, or Sec-Fetch-Site other
   * than same-origin. Requests without these headers (curl, same-origin GETs in some browsers) pass this check.
   */
  checkOrigin(origin: string | undefined, fetchSite: string | undefined): Refusal | null {
    if (origin !== undefined) {
      const ok =
        (origin.startsWith('http://') && this.allowed().has(origin.slice('http://'.length).toLowerCase())) ||
        (this.served()?.publicOrigin !== undefined && origin.toLowerCase() === this.served()?.publicOrigin);
      if (!ok) return { status: 403, message: `Requests from ${origin} may not use this workbench's keys.` };
    }
    if (fetchSite !== undefined && fetchSite !== 'same-origin' && fetchSite !== 'none') {
      return { status: 403, message: `A ${fetchSite} request may not use this workbench's keys.` };
    }
    return null;
  }

  private example(): string {
    const first = [...this.allowed()][0];
    return first ? `http://${first}` : 'the address npm start printed';
  }
}

/** A refusal when the workbench header is missing or not "1", else null. */
export function checkWorkbenchHeader(value: string | undefined): Refusal | null {
  return value === '1'
    ? null
    : {
        status: 403,
        message: `Every /api request must carry the header X-Workbench-Request: 1; this one did not.`,
      };
}
