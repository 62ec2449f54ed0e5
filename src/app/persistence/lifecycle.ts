// Page lifecycle for saving: flush pending writes when the page is hidden or left, and warn before leaving while a
// change is not stored yet (waiting, being written, or refused). The only module that listens to pagehide, visibilitychange and beforeunload.

/** What the lifecycle needs from the saver. */
export interface Flushable {
  flush(): Promise<void>;
  /** True when some change is not stored yet. */
  hasUnsaved(): boolean;
  /** Writes what is unsaved at once, synchronously, in a form that survives the page going away mid-write. */
  writeNow(): void;
}

/** Installs the listeners; returns the function that removes them. */
export function installSaveLifecycle(saver: Flushable, target: Window = window): () => void {
  const doc = target.document;
  // pagehide is the last event a page reliably gets (also on mobile and bfcache); visibilitychange covers tab
  // switches and app switching, after which the page may be killed without any other event.
  const leaving = (): void => {
    if (!saver.hasUnsaved()) return;
    saver.writeNow();
    void saver.flush();
  };
  const onPageHide = (): void => leaving();
  const onVisibility = (): void => {
    if (doc.visibilityState === 'hidden') leaving();
  };
  const onBeforeUnload = (event: BeforeUnloadEvent): void => {
    if (!saver.hasUnsaved()) return;
    leaving();
    // The browser asks "leave site?" while a change is not stored yet: staying gives the save time to land.
    event.preventDefault();
  };
  target.addEventListener('pagehide', onPageHide);
  doc.addEventListener('visibilitychange', onVisibility);
  target.addEventListener('beforeunload', onBeforeUnload);
  return () => {
    target.removeEventListener('pagehide', onPageHide);
    doc.removeEventListener('visibilitychange', onVisibility);
    target.removeEventListener('beforeunload', onBeforeUnload);
  };
}
