// The rows parser worker: parses a picked file off the page's thread (100,000 rows never freeze it), keeps the rows,
// and plans runs against them with the project's tokenizer, which is loaded here and never in the page's first chunk.
import type { ImportSession } from '../../core/rows/importSession';
import { questionTokens, stateTokens } from '../../contract/tokens';
import { readRows } from './readRows';
import { ITEMS_BATCH } from './rowsParserProtocol';
import type { FromParser, ToParser } from './rowsParserProtocol';

interface WorkerScope {
  postMessage(message: FromParser): void;
  onmessage: ((event: MessageEvent<ToParser>) => void) | null;
}
const scope = self as unknown as WorkerScope;
const counter = { stateTokens, questionTokens };

let session: ImportSession | null = null;
// Messages are handled one at a time, in order: a plan never runs against a half-read file.
let queue: Promise<void> = Promise.resolve();

async function handle(message: ToParser): Promise<void> {
  const { id } = message;
  try {
    if (message.type === 'parse') {
      session = null;
      const read = await readRows(message.file, message.options, (p) =>
        scope.postMessage({ type: 'progress', id, ...p }),
      );
      session = read.session;
      scope.postMessage({ type: 'parsed', id, summary: read.summary });
    } else if (message.type === 'plan') {
      if (!session) throw new Error('No file is loaded.');
      scope.postMessage({
        type: 'planned',
        id,
        plan: session.plan(message.mapping, message.questions, counter, message.context),
      });
    } else {
      if (!session) throw new Error('No file is loaded.');
      const items = session.items(message.runId);
      for (let i = 0; i < items.length; i += ITEMS_BATCH) {
        scope.postMessage({ type: 'itemsBatch', id, items: items.slice(i, i + ITEMS_BATCH) });
      }
      scope.postMessage({ type: 'items', id, count: items.length });
    }
  } catch (error) {
    scope.postMessage({ type: 'error', id, message: error instanceof Error ? error.message : String(error) });
  }
}

scope.onmessage = (event) => {
  queue = queue.then(() => handle(event.data));
};
