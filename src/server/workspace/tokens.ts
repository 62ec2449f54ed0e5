// Tokens and ids: 32 random bytes as base64url travel to the person; only their sha-256 is stored.
import { createHash, randomBytes } from 'node:crypto';

export const newToken = (): string => randomBytes(32).toString('base64url');

export const hashToken = (token: string): string => createHash('sha256').update(token).digest('hex');

/** An id for a person, invite or queue: short, random, safe in a URL path. */
export const newId = (prefix: string): string => `${prefix}_${randomBytes(9).toString('base64url')}`;
