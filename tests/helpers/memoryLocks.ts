// The Web Locks API as the browser keeps it for one origin, in memory: exclusive locks by name, `ifAvailable`,
// waiting requests in order, abort by signal, and `query`. Two stores of one test process share a registry as two tabs
// share the browser's; `kill` releases a "tab"'s locks the way a closed or crashed page does, while its code is left
// hanging. The real API is exercised end to end in Chromium (tests/e2e/tabs.e2e.ts).
import type { TabLocks } from '../../src/app/persistence/tabs';

interface Waiter {
  client: number;
  grant: () => void;
}

export class LockRegistry {
  private readonly holders = new Map<string, number>();
  private readonly waiting = new Map<string, Waiter[]>();
  private readonly dead = new Set<number>();
  private nextClient = 1;

  /** The locks of one tab. */
  client(): TabLocks & { id: number } {
    const client = this.nextClient++;
    return {
      id: client,
      request: (name, options, callback) => this.request(client, name, options, callback),
      query: () =>
        Promise.resolve({
          held: [...this.holders.keys()].map((name) => ({ name })),
          pending: [...this.waiting].flatMap(([name, list]) => list.map(() => ({ name }))),
        }),
    };
  }

  /** The tab went away: every lock it holds is released at once, as the browser does for a closed page. */
  kill(client: number): void {
    this.dead.add(client);
    for (const [name, holder] of [...this.holders]) if (holder === client) this.release(name);
  }

  private async request(
    client: number,
    name: string,
    options: { ifAvailable?: boolean; signal?: AbortSignal },
    callback: (lock: unknown) => Promise<void> | void,
  ): Promise<unknown> {
    if (this.dead.has(client)) return new Promise(() => undefined);
    if (this.holders.has(name)) {
      if (options.ifAvailable) return callback(null);
      await new Promise<void>((resolve, reject) => {
        const waiter: Waiter = { client, grant: resolve };
        const list = this.waiting.get(name) ?? [];
        list.push(waiter);
        this.waiting.set(name, list);
        options.signal?.addEventListener('abort', () => {
          const at = list.indexOf(waiter);
          if (at >= 0) list.splice(at, 1);
          reject(options.signal!.reason);
        });
      });
    } else this.holders.set(name, client);
    try {
      return await callback({ name, mode: 'exclusive' });
    } finally {
      if (this.holders.get(name) === client && !this.dead.has(client)) this.release(name);
    }
  }

  private release(name: string): void {
    this.holders.delete(name);
    const next = this.waiting.get(name)?.shift();
    if (next) {
      this.holders.set(name, next.client);
      next.grant();
    }
  }
}
