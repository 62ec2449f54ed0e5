// Every label, settled label and import, announced to the owner's open pages of that queue (server-sent events), so
// the figures update without a reload. In process: one workbench server holds the workspace.
import type { WorkspaceEvent } from '../../contract/workspace';

type Listener = (event: WorkspaceEvent) => void;

export class WorkspaceEvents {
  private readonly listeners = new Map<string, Set<Listener>>();

  /** Listens to one queue's events; returns the function that stops listening. */
  listen(queue: string, listener: Listener): () => void {
    const set = this.listeners.get(queue) ?? new Set<Listener>();
    set.add(listener);
    this.listeners.set(queue, set);
    return () => {
      set.delete(listener);
      if (!set.size) this.listeners.delete(queue);
    };
  }

  emit(event: WorkspaceEvent): void {
    for (const listener of this.listeners.get(event.queue) ?? []) listener(event);
  }

  /** Open listeners of every queue (a test and the bench read it). */
  get size(): number {
    let n = 0;
    for (const set of this.listeners.values()) n += set.size;
    return n;
  }
}
