// Stands in for monaco-editor's `internal/common/workers.js` (vite.config.ts aliases it here). That module gives the
// JSON language its worker factory but also imports every editor contribution Monaco has; this one gives the same
// factory and registers only the contributions the workbench's editors use (./monacoFeatures).
import './monacoFeatures';
import { editor } from 'monaco-editor/editor/editor.api';

/** The options Monaco's language workers pass (see monaco-editor's internal/common/workers.js). */
interface WebWorkerOptions {
  label?: string;
  moduleId?: string;
  createWorker?: () => Worker;
  createData?: unknown;
  host?: Record<string, (...args: unknown[]) => unknown>;
  keepIdleModels?: boolean;
}

/** A worker from self.MonacoEnvironment.getWorker (set by loadMonaco), else the language's own factory. */
function startWorker(opts: WebWorkerOptions): Worker {
  const label = opts.label ?? 'monaco-editor-worker';
  const getWorker = self.MonacoEnvironment?.getWorker;
  if (getWorker) return getWorker('workerMain.js', label) as Worker;
  if (opts.createWorker) return opts.createWorker();
  throw new Error('Monaco has no worker factory: loadMonaco sets self.MonacoEnvironment before any editor.');
}

export function createWebWorker<T extends object>(opts: WebWorkerOptions): editor.MonacoWebWorker<T> {
  const worker = Promise.resolve(startWorker(opts)).then((w) => {
    // The worker's first message starts its server; the second carries the language's settings.
    w.postMessage('ignore');
    w.postMessage(opts.createData);
    return w;
  });
  return editor.createWebWorker<T>({ worker, host: opts.host, keepIdleModels: opts.keepIdleModels });
}
