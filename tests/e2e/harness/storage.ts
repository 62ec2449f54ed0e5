// Everything a page keeps in the browser, as one string: for checks that a secret is stored nowhere.
import type { BrowserContext, Page } from 'playwright-core';

/** localStorage, sessionStorage, every IndexedDB record, Cache Storage URLs and cookies, serialised. */
export async function storageSnapshot(page: Page, context: BrowserContext): Promise<string> {
  const inPage = await page.evaluate(async () => {
    const idb: Record<string, Record<string, unknown[]>> = {};
    for (const info of await indexedDB.databases()) {
      if (!info.name) continue;
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const open = indexedDB.open(info.name!);
        open.onsuccess = () => resolve(open.result);
        open.onerror = () => reject(open.error);
      });
      const stores: Record<string, unknown[]> = {};
      for (const name of Array.from(db.objectStoreNames)) {
        stores[name] = await new Promise<unknown[]>((resolve, reject) => {
          const request = db.transaction(name, 'readonly').objectStore(name).getAll();
          request.onsuccess = () => resolve(request.result);
          request.onerror = () => reject(request.error);
        });
      }
      db.close();
      idb[info.name] = stores;
    }
    const caches: string[] = [];
    if ('caches' in self) {
      for (const name of await self.caches.keys()) {
        for (const request of await (await self.caches.open(name)).keys()) caches.push(request.url);
      }
    }
    return {
      localStorage: { ...localStorage },
      sessionStorage: { ...sessionStorage },
      indexedDB: idb,
      caches,
    };
  });
  return JSON.stringify({ ...inPage, cookies: await context.cookies() });
}
