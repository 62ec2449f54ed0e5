// Keeps secrets out of what the workbench saves, exports and shares. A session has no field for a key, a base URL or a
// proxy detail by construction (SessionSchema strips unknown fields); this module covers the one remaining path:
// sentences written by the client or the service (run errors, attempt messages) that might quote a credential.
import type { Session } from './session';

const REDACTED = '***';

/** Masks credentials in machine-written text: URL user info, bearer tokens, and key-like query parameters. */
export function scrubSecretText(text: string): string {
  return text
    .replace(/\b([a-z][a-z0-9+.-]*:\/\/)[^\s/?#@]+@/gi, `$1${REDACTED}@`)
    .replace(/\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]+/g, `$1 ${REDACTED}`)
    .replace(
      /([?&](?:api[_-]?key|key|token|access[_-]?token|secret|password|sig|signature)=)[^&#\s]+/gi,
      `$1${REDACTED}`,
    );
}

/**
 * The session with credentials masked in its run errors and attempt messages. What the user typed (state, questions,
 * requests) is their content and is kept as it is: a state may legitimately quote a URL.
 */
export function scrubSecrets(session: Session): Session {
  let changed = false;
  const scrub = (text: string): string => {
    const clean = scrubSecretText(text);
    if (clean !== text) changed = true;
    return clean;
  };
  const runs = session.runs.map((run) => ({
    ...run,
    ...(run.error ? { error: { ...run.error, message: scrub(run.error.message) } } : {}),
    attempts: run.attempts.map((a) => (a.message === undefined ? a : { ...a, message: scrub(a.message) })),
  }));
  return changed ? { ...session, runs } : session;
}
