// The browser's storage manager: asks for persistent storage (so the browser does not evict sessions under pressure)
// and reads how much space is used. The only caller of navigator.storage.

/** Where persistence stands: granted, refused (best effort: may be evicted), or not supported by this browser. */
export type Persistence = 'granted' | 'refused' | 'unsupported';

let asked: Promise<Persistence> | undefined;

/**
 * Asks once per page load for persistent storage, unless already granted. Chrome decides silently from site
 * engagement (so asking again on a later visit can succeed); Firefox asks the user once and remembers the answer.
 */
export function requestPersistentStorage(
  storage: StorageManager | undefined = globalThis.navigator?.storage,
): Promise<Persistence> {
  asked ??= (async () => {
    if (!storage?.persist || !storage.persisted) return 'unsupported';
    try {
      if (await storage.persisted()) return 'granted';
      return (await storage.persist()) ? 'granted' : 'refused';
    } catch {
      return 'unsupported';
    }
  })();
  return asked;
}

/** Asks again, on the user's request (the answer can change with site engagement, or after a browser prompt). */
export function askPersistentStorageAgain(
  storage: StorageManager | undefined = globalThis.navigator?.storage,
): Promise<Persistence> {
  asked = undefined;
  return requestPersistentStorage(storage);
}

/** Bytes used and available to this site, when the browser says. */
export async function estimateStorage(
  storage: StorageManager | undefined = globalThis.navigator?.storage,
): Promise<{ usage: number; quota: number } | undefined> {
  if (!storage?.estimate) return undefined;
  try {
    const { usage, quota } = await storage.estimate();
    return usage !== undefined && quota !== undefined ? { usage, quota } : undefined;
  } catch {
    return undefined;
  }
}

/** Forgets that persistence was asked for (tests). */
export function resetPersistenceRequest(): void {
  asked = undefined;
}
