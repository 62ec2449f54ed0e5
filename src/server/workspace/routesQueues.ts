// The routes of queues: publish and list, the next row, labels, skips, and the owner's disagreements, adjudications,
// figures, live events, export and import. Blindness is here: a labeller's answer never holds a judge's answer or
// another person's label, whatever the page asks.
import type { Context, Hono } from 'hono';
import { streamSSE } from 'hono/streaming';
import {
  AdjudicationRequestSchema,
  CreateQueueRequestSchema,
  FiguresBasisSchema,
  InteropFormatSchema,
  PutLabelsRequestSchema,
  SkipRequestSchema,
  WORKSPACE_PATHS as P,
} from '../../contract/workspace';
import type { Person, WorkspaceEvent } from '../../contract/workspace';
import type { Access } from './access';
import { issuesText, jsonBody, LARGE_BODY, textBody } from './body';
import type { Db } from './db';
import type { WorkspaceEvents } from './events';
import { WorkspaceFault } from './fault';
import { queueFigures } from './figures';
import { exportQueue, importQueue } from './interopStore';
import { adjudicate, disagreements, labelCount, listLabels, myRowLabels, putLabels } from './labels';
import {
  createQueue,
  listQueues,
  mayLabel,
  nextRow,
  queueById,
  queueProgress,
  skipRow,
  summaryOf,
} from './queues';
import type { QueueRecord } from './queues';

export interface QueueRouteOptions {
  db: Db;
  access: Access;
  events: WorkspaceEvents;
  /** Seconds between keep-alive comments on an event stream (proxies close silent connections). */
  heartbeatSeconds?: number;
}

/** The queue a request names, reached as a labeller or as the owner, and the event its change sends. */
interface QueueAccess {
  signedInQueue: (c: Context) => Promise<{ person: Person; queue: QueueRecord }>;
  ownerQueue: (c: Context) => Promise<{ person: Person; queue: QueueRecord }>;
  emit: (queue: QueueRecord, e: Omit<WorkspaceEvent, 'queue' | 'labels' | 'at'>) => Promise<void>;
}

function queueAccessOf(o: QueueRouteOptions): QueueAccess {
  const { db, access, events } = o;
  /** The queue the path names, if this person may work on it; another's queue is as absent as a missing one. */
  const queueFor = async (c: Context, person: Person): Promise<QueueRecord> => {
    const queue = await queueById(db, c.req.param('id') ?? '');
    if (!queue || !mayLabel(queue, person))
      throw access.refusal(
        c,
        new WorkspaceFault(404, 'no_queue', 'There is no such queue for you in this workspace.'),
      );
    return queue;
  };
  const signedInQueue = async (c: Context) => {
    const person = await access.signedIn(c);
    return { person, queue: await queueFor(c, person) };
  };
  const ownerQueue = async (c: Context) => {
    const person = await access.owner(c);
    return { person, queue: await queueFor(c, person) };
  };
  const emit = async (queue: QueueRecord, e: Omit<WorkspaceEvent, 'queue' | 'labels' | 'at'>) =>
    events.emit({
      ...e,
      queue: queue.id,
      labels: await labelCount(db, queue.id),
      at: new Date().toISOString(),
    });
  return { signedInQueue, ownerQueue, emit };
}

/** A labeller's routes: the queues, the next row, labels and skips. */
function labellerRoutes(app: Hono, db: Db, access: Access, q: QueueAccess): void {
  const { signedInQueue, emit } = q;
  app.post(P.queues, async (c) => {
    await access.owner(c);
    const body = await jsonBody(c, CreateQueueRequestSchema, LARGE_BODY);
    const queue = await createQueue(db, body);
    return c.json({ queue: summaryOf(queue, await queueProgress(db, queue)) });
  });

  app.get(P.queues, async (c) => c.json({ queues: await listQueues(db, await access.signedIn(c)) }));

  app.post(P.next, async (c) => {
    const { person, queue } = await signedInQueue(c);
    const next = await nextRow(db, queue, person);
    return c.json({
      row: next.row && {
        index: next.row.idx,
        key: next.row.key,
        state: next.row.state,
        mine: await myRowLabels(db, queue.id, person, next.row.idx),
      },
      reservedUntil: next.row?.reserved_until.toISOString() ?? null,
      questions: queue.questions,
      progress: await queueProgress(db, queue),
      reason: next.reason,
    });
  });

  app.put(P.labels, async (c) => {
    const { person, queue } = await signedInQueue(c);
    const body = await jsonBody(c, PutLabelsRequestSchema);
    const saved = await putLabels(db, queue, person, body.labels);
    for (const s of saved)
      if (s.outcome !== 'same')
        await emit(queue, { kind: 'label', row: s.row, question: s.question, person: person.id });
    return c.json({ saved, progress: await queueProgress(db, queue) });
  });

  app.post(P.skip, async (c) => {
    const { person, queue } = await signedInQueue(c);
    const body = await jsonBody(c, SkipRequestSchema);
    await skipRow(db, queue, person, body.row);
    return c.json({ progress: await queueProgress(db, queue) });
  });

  app.get(P.labels, async (c) => {
    const { person, queue } = await signedInQueue(c);
    return c.json({ labels: await listLabels(db, queue, person) });
  });
}

/** The owner's routes over a queue's labels: disagreements, adjudications and figures. */
function ownerRoutes(app: Hono, db: Db, q: QueueAccess): void {
  const { ownerQueue, emit } = q;
  app.get(P.disagreements, async (c) => {
    const { queue } = await ownerQueue(c);
    return c.json({ disagreements: await disagreements(db, queue) });
  });

  app.put(P.adjudications, async (c) => {
    const { queue } = await ownerQueue(c);
    const body = await jsonBody(c, AdjudicationRequestSchema);
    const settled = await adjudicate(db, queue, body);
    await emit(queue, { kind: 'adjudication', row: body.row, question: body.question, person: null });
    return c.json({ settled });
  });

  app.get(P.figures, async (c) => {
    const { queue } = await ownerQueue(c);
    const basis = FiguresBasisSchema.safeParse(c.req.query('basis') ?? 'each');
    if (!basis.success) throw new WorkspaceFault(400, 'invalid_query', 'basis is each, majority or settled.');
    return c.json(await queueFigures(db, queue, basis.data));
  });
}

/** The owner's live events (server-sent, with keep-alives), and a queue's export and import. */
function eventAndInteropRoutes(app: Hono, o: QueueRouteOptions, q: QueueAccess): void {
  const { db, events } = o;
  const { ownerQueue, emit } = q;
  app.get(P.events, async (c) => {
    const { queue } = await ownerQueue(c);
    return streamSSE(c, async (stream) => {
      const stop = events.listen(
        queue.id,
        (e) => void stream.writeSSE({ event: e.kind, data: JSON.stringify(e) }),
      );
      stream.onAbort(stop);
      await stream.writeSSE({ event: 'ready', data: JSON.stringify({ queue: queue.id }) });
      while (!stream.aborted && !stream.closed) {
        await stream.sleep((o.heartbeatSeconds ?? 15) * 1000);
        if (!stream.aborted) await stream.write(': keep-alive\n\n');
      }
      stop();
    });
  });

  app.get(P.export, async (c) => {
    const { queue } = await ownerQueue(c);
    const format = InteropFormatSchema.safeParse(c.req.query('format') ?? 'csv');
    if (!format.success)
      throw new WorkspaceFault(
        400,
        'invalid_query',
        `format is csv, labelstudio or argilla: ${issuesText(format.error)}.`,
      );
    const file = await exportQueue(db, queue, format.data);
    return c.body(file.body, 200, {
      'content-type': `${file.type}; charset=utf-8`,
      'content-disposition': `attachment; filename="${queue.id}-${format.data}.${file.extension}"`,
    });
  });

  app.post(P.import, async (c) => {
    const { queue } = await ownerQueue(c);
    const format = InteropFormatSchema.safeParse(c.req.query('format') ?? 'csv');
    if (!format.success)
      throw new WorkspaceFault(400, 'invalid_query', 'format is csv, labelstudio or argilla.');
    const result = await importQueue(db, queue, format.data, await textBody(c, LARGE_BODY));
    await emit(queue, { kind: 'import', row: null, question: null, person: null });
    return c.json(result);
  });
}

export function queueRoutes(app: Hono, o: QueueRouteOptions): void {
  const q = queueAccessOf(o);
  labellerRoutes(app, o.db, o.access, q);
  ownerRoutes(app, o.db, q);
  eventAndInteropRoutes(app, o, q);
}
