// Other tabs of the app in this browser profile: Web Locks (which tab drives a run) and BroadcastChannel (what changed).
// The only module that touches navigator.locks and BroadcastChannel; the stores take these small interfaces so tests
// can give two stores of one process the same locks.
import type { z } from 'zod';

/** The part of the Web Locks API the app uses (navigator.locks). */
export interface TabLocks {
  request(
    name: string,
    options: { ifAvailable?: boolean; signal?: AbortSignal },
    callback: (lock: unknown) => Promise<void> | void,
  ): Promise<unknown>;
  query(): Promise<{ held?: { name?: string }[]; pending?: { name?: string }[] }>;
}

/** Messages to and from the other tabs, parsed on arrival. */
export interface TabChannel<T> {
  post(message: T): void;
  /** Listens to the other tabs' messages; returns the function that stops listening. */
  subscribe(listener: (message: T) => void): () => void;
  close(): void;
}

/** The browser's Web Locks, when it has them. */
export function browserLocks(): TabLocks | undefined {
  return typeof navigator !== 'undefined' && navigator.locks ? (navigator.locks as TabLocks) : undefined;
}

/**
 * A BroadcastChannel whose messages are parsed with `schema` (a message from another build that does not parse is
 * dropped). Undefined where the browser has none: each tab then works alone and re-reads on focus.
 */
export function openChannel<T>(name: string, schema: z.ZodType<T>): TabChannel<T> | undefined {
  if (typeof BroadcastChannel === 'undefined') return undefined;
  const channel = new BroadcastChannel(name);
  const listeners = new Set<(message: T) => void>();
  channel.onmessage = (event: MessageEvent<unknown>) => {
    const parsed = schema.safeParse(event.data);
    if (!parsed.success) return;
    for (const listener of listeners) listener(parsed.data);
  };
  return {
    post(message) {
      try {
        channel.postMessage(message);
      } catch {
        // A closed channel (the page is going away): the other tabs re-read from storage anyway.
      }
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    close() {
      listeners.clear();
      channel.close();
    },
  };
}

/** The run ids whose lock some tab holds now. */
export async function heldNames(locks: TabLocks): Promise<string[]> {
  try {
    const state = await locks.query();
    return (state.held ?? []).flatMap((l) => (l.name ? [l.name] : []));
  } catch {
    return [];
  }
}
