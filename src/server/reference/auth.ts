// Bearer-key check in constant time: every accepted key is compared, through equal-length digests.
import { createHash, timingSafeEqual } from 'node:crypto';

const digest = (key: string): Buffer => createHash('sha256').update(key, 'utf8').digest();
const BEARER = /^Bearer[ \t]+(\S.*?)[ \t]*$/i;

/**
 * Builds a checker for an Authorization header: it returns the accepted key the header carries, or null. Keys are
 * compared as SHA-256 digests with timingSafeEqual, and all of them every time, so timing says nothing about a key.
 */
export function createKeyChecker(
  keys: readonly string[],
): (authorization: string | undefined) => string | null {
  const accepted = keys.map((key) => ({ key, digest: digest(key) }));
  // A digest of nothing in particular, compared when the header is absent, so that path costs the same.
  const blank = digest('');
  return (authorization) => {
    const presented = BEARER.exec(authorization ?? '')?.[1];
    const candidate = presented === undefined ? blank : digest(presented);
    let match: string | null = null;
    for (const { key, digest: d } of accepted) {
      if (timingSafeEqual(candidate, d) && presented !== undefined) match = key;
    }
    return match;
  };
}
