// The page's handle on the rows parser: the worker in the app, the same session in the page's thread for component
// tests (jsdom has no workers) and for browsers that refuse to start the worker.
import type { Questions } from '../../contract';
import { ImportSession } from '../../core/rows/importSession';
import type { ImportSummary, PlanSummary } from '../../core/rows/importSession';
import type { RowMapping } from '../../core/rows/mapping';
import { detectFormat, parseRowsText } from '../../core/rows/parse';
import type { RowItem } from '../../core/rows/records';
import type { FromParser, ParseOptions, ParseProgress, ToParser } from './rowsParserProtocol';
import { fileText } from '../platform/files';
import type { TargetContext } from '../../core/rows/runPlan';

export type { ParseOptions, ParseProgress };

export interface RowsParser {
  parse(
    file: File,
    options: ParseOptions,
    onProgress?: (progress: ParseProgress) => void,
  ): Promise<ImportSummary>;
  /** Plans the rows; `context` leaves out rows longer than the chosen target reads. */
  plan(mapping: RowMapping, questions: Questions, context?: TargetContext): Promise<PlanSummary>;
  items(runId: string): Promise<RowItem[]>;
  dispose(): void;
}

type Pending = {
  resolve: (m: FromParser) => void;
  reject: (e: Error) => void;
  onProgress?: (p: ParseProgress) => void;
  /** Takes each batch of an 'items' request's rows. */
  onItems?: (items: RowItem[]) => void;
};

/** The parser in a module worker (bundled by Vite as its own chunk, with the tokenizer). */
export function createWorkerParser(): RowsParser {
  const worker = new Worker(new URL('./rowsParser.worker.ts', import.meta.url), {
    type: 'module',
  });
  const pending = new Map<number, Pending>();
  let nextId = 1;
  worker.onmessage = (event: MessageEvent<FromParser>) => {
    const m = event.data;
    const p = pending.get(m.id);
    if (!p) return;
    if (m.type === 'progress') {
      p.onProgress?.({ bytes: m.bytes, total: m.total, rows: m.rows });
      return;
    }
    if (m.type === 'itemsBatch') {
      p.onItems?.(m.items);
      return;
    }
    pending.delete(m.id);
    if (m.type === 'error') p.reject(new Error(m.message));
    else p.resolve(m);
  };
  worker.onerror = (event) => {
    const error = new Error(`The file reader stopped: ${event.message || 'unknown error'}.`);
    for (const p of pending.values()) p.reject(error);
    pending.clear();
  };
  const send = <T extends FromParser['type']>(
    message: ToParser,
    expect: T,
    onProgress?: (p: ParseProgress) => void,
  ): Promise<Extract<FromParser, { type: T }>> =>
    new Promise((resolve, reject) => {
      pending.set(message.id, {
        resolve: (m) =>
          m.type === expect
            ? resolve(m as Extract<FromParser, { type: T }>)
            : reject(new Error(`Unexpected answer from the file reader: ${m.type}.`)),
        reject,
        onProgress,
      });
      worker.postMessage(message);
    });
  /** A run's rows, which arrive in batches so no single message holds the page. */
  const items = (runId: string): Promise<RowItem[]> => {
    const id = nextId++;
    const got: RowItem[] = [];
    return new Promise((resolve, reject) => {
      pending.set(id, {
        onItems: (batch) => {
          for (const item of batch) got.push(item);
        },
        resolve: (m) => {
          if (m.type !== 'items') reject(new Error(`Unexpected answer from the file reader: ${m.type}.`));
          else if (got.length !== m.count)
            reject(new Error(`The file reader sent ${got.length} of ${m.count} rows.`));
          else resolve(got);
        },
        reject,
      });
      worker.postMessage({ type: 'items', id, runId } satisfies ToParser);
    });
  };
  return {
    parse: async (file, options, onProgress) =>
      (await send({ type: 'parse', id: nextId++, file, options }, 'parsed', onProgress)).summary,
    plan: async (mapping, questions, context) =>
      (
        await send(
          { type: 'plan', id: nextId++, mapping, questions, ...(context ? { context } : {}) },
          'planned',
        )
      ).plan,
    items,
    dispose: () => worker.terminate(),
  };
}

export { fileText };

/** The same session in the page's thread: for tests and as a fallback. Loads the tokenizer lazily. */
export function createInlineParser(): RowsParser {
  let session: ImportSession | null = null;
  return {
    async parse(file, options, onProgress) {
      const text = await fileText(file);
      const format =
        options.format === 'auto' ? detectFormat(file.name, text.slice(0, 65_536)) : options.format;
      const out = parseRowsText(format, text, { header: options.header });
      session = new ImportSession(file.name);
      session.add(out);
      onProgress?.({ bytes: file.size, total: file.size, rows: session.rowCount });
      return session.summary(out.summary);
    },
    async plan(mapping, questions, context) {
      if (!session) throw new Error('No file is loaded.');
      const { questionTokens, stateTokens } = await import('../../contract/tokens');
      return session.plan(mapping, questions, { questionTokens, stateTokens }, context);
    },
    async items(runId) {
      if (!session) throw new Error('No file is loaded.');
      return session.items(runId);
    },
    dispose: () => {
      session = null;
    },
  };
}

/** The worker parser where workers exist, else the inline one. */
export function createRowsParser(): RowsParser {
  if (typeof Worker === 'undefined') return createInlineParser();
  try {
    return createWorkerParser();
  } catch {
    return createInlineParser();
  }
}
