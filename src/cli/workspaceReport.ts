// `evaluate-workbench report --workspace URL --queue ID`: the figures of a team workspace's queue from its latest labels
// (the owner's token in WORKBENCH_WORKSPACE_TOKEN), gated like a results file, so CI fails when the judge stops agreeing
// with the people. The workspace sends each question's labels in TrustData's shape; they become the alignment's rows.
import type { Answer, Questions } from '../contract';
import {
  FiguresResponseSchema,
  QueueListResponseSchema,
  WORKSPACE_PATHS,
  queuePath,
} from '../contract/workspace';
import type { FiguresResponse, TrustDataWire } from '../contract/workspace';
import { computeAlignment } from '../core/alignment';
import type { AlignmentOptions, AlignRow, Figure } from '../core/alignment';
import type { LabelValue } from '../core/labels';
import { majorityOf } from '../core/labels';
import { getJson } from '../client/evaluate';
import type { Gate, GateResult } from './gates';
import { checkGates } from './gates';
import { InputError } from './inputs';
import { writeJunit } from './reports';

export interface WorkspaceReportOptions {
  url: string;
  queue: string;
  token: string | undefined;
  gates: Gate[];
  strict: boolean;
  alignment?: Partial<AlignmentOptions>;
  junit?: string;
  fetch?: typeof fetch;
}

/** A class index of a question read back as the label value people gave (choice label, level, yes/no). */
function valueOf(data: TrustDataWire, k: number): LabelValue {
  if (data.type === 'noul') return k === 1;
  if (data.type === 'score') return k;
  return data.classes[k]!;
}

/** The judge's class and confidence as an answer: the class gets the confidence, the others share the rest. */
function answerOf(data: TrustDataWire, k: number, confidence: number | null): Answer {
  const top = confidence ?? 1;
  const K = data.classes.length;
  if (data.type === 'noul') return { type: 'noul', noul: k === 1 ? top : 1 - top };
  const rest = K > 1 ? (1 - top) / (K - 1) : 0;
  const probabilities = Object.fromEntries(data.classes.map((c, i) => [c, i === k ? top : rest]));
  return data.type === 'choice'
    ? { type: 'choice', choice: data.classes[k]!, confidence: top, probabilities }
    : { type: 'score', score: k, confidence: top, legend: {}, probabilities };
}

/** The workspace's figures as the alignment's rows: each annotator's label apart, their majority as the row's label. */
export function alignRowsOf(figures: FiguresResponse): AlignRow[] {
  return figures.keys.map((id, i) => {
    const row: AlignRow = { id, labels: {}, answers: {} };
    for (const [question, data] of Object.entries(figures.trust)) {
      const A = data.annotators.length;
      const given: Record<string, LabelValue> = {};
      data.annotators.forEach((name, a) => {
        const k = data.ratings[i * A + a]!;
        if (k >= 0) given[name] = valueOf(data, k);
      });
      const majority = majorityOf(data.annotators.map((name) => given[name]));
      if (majority !== undefined) row.labels[question] = majority;
      if (A > 1 && Object.keys(given).length) (row.annotations ??= {})[question] = given;
      const judged = data.judge[i]!;
      if (judged >= 0) row.answers![question] = answerOf(data, judged, data.confidence[i] ?? null);
    }
    return row;
  });
}

export async function workspaceReportCommand(
  o: WorkspaceReportOptions,
): Promise<{ code: number; gates: GateResult[]; figures: Map<string, Figure>; lines: string[] }> {
  if (!o.token)
    throw new InputError(
      'Set WORKBENCH_WORKSPACE_TOKEN to a token the workspace owner made (POST /api/workspace/tokens, or the owner page).',
    );
  const target = {
    baseUrl: o.url.replace(/\/+$/, ''),
    headers: { authorization: `Bearer ${o.token}`, 'x-workbench-request': '1' },
    ...(o.fetch ? { fetch: o.fetch } : {}),
  };
  const read = async <T>(path: string, schema: Parameters<typeof getJson<T>>[2]): Promise<T> => {
    try {
      return (await getJson(target, path, schema)).data;
    } catch (error) {
      // The client's sentence names the status and the workspace's own message; the token is never in either.
      throw new InputError(
        `The workspace at ${target.baseUrl} did not answer ${path}: ${(error as Error).message}`,
      );
    }
  };
  const { queues } = await read(WORKSPACE_PATHS.queues, QueueListResponseSchema);
  const queue = queues.find((q) => q.id === o.queue);
  if (!queue)
    throw new InputError(
      `The workspace has no queue "${o.queue}"; it has: ${queues.map((q) => q.id).join(', ') || 'none'}.`,
    );
  const figures = await read(
    `${queuePath(WORKSPACE_PATHS.figures, o.queue)}?basis=each`,
    FiguresResponseSchema,
  );
  const questions: Questions = queue.questions;
  const alignment = computeAlignment(questions, alignRowsOf(figures), o.alignment ?? {});
  const map = new Map(Object.entries(alignment.figures));
  const gates = checkGates(o.gates, map, { strict: o.strict });
  if (o.junit) writeJunit(o.junit, gates);
  const lines = [
    `Read queue ${queue.name} (${o.queue}) at ${target.baseUrl}: ${figures.labels.toLocaleString('en-US')} labels by ${figures.labellers.length} people on ${queue.rows.toLocaleString('en-US')} rows (${queue.progress.text}); each person's labels apart, their majority as the row's label.`,
    ...gates.map((g) => `${g.passed ? 'pass' : 'FAIL'}: ${g.message}`),
  ];
  return { code: gates.some((g) => !g.passed) ? 1 : 0, gates, figures: map, lines };
}
