// Reading IndexedDB failures: quota errors arrive bare, wrapped by Dexie, or as the inner error of an AbortError.

const errorName = (error: unknown): string | undefined =>
  typeof error === 'object' && error !== null && typeof (error as { name?: unknown }).name === 'string'
    ? (error as { name: string }).name
    : undefined;

/** True when a storage failure means the origin is out of quota (in any of the forms browsers and Dexie use). */
export function isQuotaError(error: unknown): boolean {
  for (let at: unknown = error, depth = 0; at && depth < 4; depth++) {
    const name = errorName(at);
    if (name === 'QuotaExceededError') return true;
    // Firefox reports a full disk as NS_ERROR_FILE_NO_DEVICE_SPACE; Safari sometimes as a bare code 22.
    if (name === 'NS_ERROR_FILE_NO_DEVICE_SPACE') return true;
    if ((at as { code?: unknown }).code === 22) return true;
    at = (at as { inner?: unknown; cause?: unknown }).inner ?? (at as { cause?: unknown }).cause;
  }
  return false;
}

/** One sentence for a failed save, for the storage status line. */
export function describeStorageError(error: unknown): string {
  if (isQuotaError(error)) {
    return 'The browser refused to store more: its storage for this site is full. Your latest change is kept in this tab; export the session or free space (delete old sessions or site data), then try again.';
  }
  const name = errorName(error);
  const message = error instanceof Error ? error.message.replace(/\.$/, '') : String(error);
  if (name === 'DatabaseClosedError' || name === 'InvalidStateError') {
    return `The session store was closed (${message}); your latest change is kept in this tab. Reload the page to reconnect after exporting anything important.`;
  }
  return `Saving failed (${message}); your latest change is kept in this tab and saving will be tried again.`;
}
