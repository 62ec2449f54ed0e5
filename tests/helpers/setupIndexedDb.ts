// Every test file's setup: fake-indexeddb on the global object before the file imports anything. Test files share
// their worker's modules (vite.config.ts), so this runs per file rather than relying on a cached `fake-indexeddb/auto`
// import, and Dexie, which reads the global indexedDB once when first imported, sees the fake whichever file is first.
import * as fake from 'fake-indexeddb';

const globals = {
  indexedDB: fake.indexedDB,
  IDBCursor: fake.IDBCursor,
  IDBCursorWithValue: fake.IDBCursorWithValue,
  IDBDatabase: fake.IDBDatabase,
  IDBFactory: fake.IDBFactory,
  IDBIndex: fake.IDBIndex,
  IDBKeyRange: fake.IDBKeyRange,
  IDBObjectStore: fake.IDBObjectStore,
  IDBOpenDBRequest: fake.IDBOpenDBRequest,
  IDBRequest: fake.IDBRequest,
  IDBTransaction: fake.IDBTransaction,
  IDBVersionChangeEvent: fake.IDBVersionChangeEvent,
};
for (const [name, value] of Object.entries(globals)) {
  Object.defineProperty(globalThis, name, { value, configurable: true, writable: true, enumerable: false });
}
