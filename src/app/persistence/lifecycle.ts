// Page lifecycle for saving: flush pending writes when the page is hidden or left, and warn before leaving while a
// change could not be saved. The only module that listens to pagehide, visibilitychange and beforeunload.

/** What the lifecycle needs from the saver. */
export interface Flushable {
  flush(): Promise<void>;
  /** True when some change is not stored yet. */
  hasUnsaved(): boolean;
  /** True when the last write failed, so leaving now would lose the change. */
  failed(): boolean;
}

/** Installs the listeners; returns the function that removes them. */
export function installSaveLifecycle(saver: Flushable, target: Window = window): () => void {
  const doc = target.document;
  // pagehide is the last event a page reliably gets (also on mobile and bfcache); visibilitychange covers tab
  // switches and app switching, after which the page may be killed without any other event.
  const onPageHide = (): void => void saver.flush();
  const onVisibility = (): void => {
    if (doc.visibilityState === 'hidden') void saver.flush();
  };
  const onBeforeUnload = (event: BeforeUnloadEvent): void => {
    if (saver.hasUnsaved()) void saver.flush();
    if (saver.failed()) event.preventDefault(); // the browser asks "leave site?"; the change lives only in this tab
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
