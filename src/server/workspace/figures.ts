// The owner's figures of a queue: per labeller (labels, median time per label, agreement with the others so far) and
// each question's labels in the shape src/core/trust's TrustData takes, on the basis the owner asks for: each person
// apart, the majority of a row's labels, or the settled label where there is one (else the majority).
import type {
  ActiveEstimateWire,
  FiguresBasis,
  JudgeAnswer,
  FiguresResponse,
  LabellerFigures,
  TrustDataWire,
  WorkspaceLabelValue,
} from '../../contract/workspace';
import type { Question } from '../../contract';
import { classesOf, majorityOf } from '../../core/labels';
import { MISSING } from '../../core/trust';
import type { Sql } from './db';
import type { QueueRecord } from './queues';
import { activeEstimate } from './activeOrder';

interface LabelLine {
  idx: number;
  question: string;
  person_id: string;
  value: WorkspaceLabelValue;
  seconds: number | null;
}

/** The class index of a label value (choice: its position in the criteria; score: its level; noul: 1 for yes). */
export function classIndex(value: WorkspaceLabelValue, question: Question): number {
  if (question.type === 'noul') return typeof value === 'boolean' ? Number(value) : MISSING;
  if (question.type === 'score') return typeof value === 'number' ? value : MISSING;
  return typeof value === 'string' ? classesOf(question).indexOf(value) : MISSING;
}

const median = (xs: number[]): number | null => {
  if (!xs.length) return null;
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

/** Per labeller: labels, median seconds per label, and the share of their shared (row, question) pairs that agree. */
function labellerFigures(lines: readonly LabelLine[], people: Map<string, string>): LabellerFigures[] {
  const byCell = new Map<string, LabelLine[]>();
  const own = new Map<string, { labels: number; seconds: number[]; pairs: number; agree: number }>();
  for (const l of lines) {
    const cell = `${l.idx}\u0000${l.question}`;
    (byCell.get(cell) ?? byCell.set(cell, []).get(cell)!).push(l);
    const o = own.get(l.person_id) ?? { labels: 0, seconds: [], pairs: 0, agree: 0 };
    o.labels++;
    if (l.seconds !== null) o.seconds.push(l.seconds);
    own.set(l.person_id, o);
  }
  for (const cell of byCell.values())
    for (const a of cell)
      for (const b of cell)
        if (a !== b) {
          const o = own.get(a.person_id)!;
          o.pairs++;
          if (JSON.stringify(a.value) === JSON.stringify(b.value)) o.agree++;
        }
  return [...own].map(([person, o]) => ({
    person,
    name: people.get(person) ?? person,
    labels: o.labels,
    medianSeconds: median(o.seconds),
    agreement: o.pairs ? o.agree / o.pairs : null,
    pairs: o.pairs,
    agreesWithNoOne: o.pairs > 0 && o.agree === 0,
  }));
}

/** One question's labels as TrustData's arrays, on the basis asked. */
function trustOf(
  question: Question,
  name: string,
  n: number,
  lines: readonly LabelLine[],
  annotators: readonly string[],
  names: Map<string, string>,
  judge: readonly (Record<string, { label: WorkspaceLabelValue; confidence: number | null }> | null)[],
  settled: Map<string, WorkspaceLabelValue>,
  basis: FiguresBasis,
): TrustDataWire {
  const A = annotators.length;
  const col = new Map(annotators.map((p, a) => [p, a]));
  const each = new Int32Array(n * A).fill(MISSING);
  for (const l of lines)
    if (l.question === name) each[l.idx * A + col.get(l.person_id)!] = classIndex(l.value, question);
  let ratings: Int32Array = each;
  let labelNames = annotators.map((p) => names.get(p) ?? p);
  if (basis !== 'each') {
    ratings = new Int32Array(n).fill(MISSING);
    for (let i = 0; i < n; i++) {
      const fixed = basis === 'settled' ? settled.get(`${i}\u0000${name}`) : undefined;
      if (fixed !== undefined) ratings[i] = classIndex(fixed, question);
      else {
        const m = majorityOf(
          Array.from(each.subarray(i * A, i * A + A), (v) => (v === MISSING ? undefined : v)),
        );
        ratings[i] = m === undefined ? MISSING : Number(m);
      }
    }
    labelNames = [basis];
  }
  const judged = judge.map((j) => j?.[name]);
  return {
    type: question.type,
    classes: classesOf(question),
    annotators: labelNames,
    ratings: Array.from(ratings),
    judge: judged.map((j) => (j ? classIndex(j.label, question) : MISSING)),
    confidence: judged.map((j) => j?.confidence ?? null),
  };
}

/** A published row as the figures read it. */
interface FigureRow {
  key: string;
  judge: Record<string, JudgeAnswer> | null;
  design_probability: number | null;
  design_key: number | null;
}

/** Each row's label as one: the trust data's own on a one-column basis, else the majority of everyone's. */
function rowLabels(data: TrustDataWire): number[] {
  const A = data.annotators.length;
  if (A === 1) return data.ratings;
  return data.judge.map((_, i) => {
    const m = majorityOf(data.ratings.slice(i * A, i * A + A).map((v) => (v === MISSING ? undefined : v)));
    return m === undefined ? MISSING : Number(m);
  });
}

/** A queue in active order: the estimate of its target from the labels so far (activeOrder.ts). */
function activeOf(
  queue: QueueRecord,
  rows: readonly FigureRow[],
  trust: Record<string, TrustDataWire>,
): ActiveEstimateWire | null | undefined {
  const order = queue.row_order;
  if (order.kind !== 'active') return undefined;
  const question = queue.questions[order.question];
  const data = trust[order.question];
  if (!question || !data) return null;
  const labels = rowLabels(data);
  return activeEstimate(
    rows.map((r, i) => ({
      judge: r.judge?.[order.question],
      judgeClass: data.judge[i]!,
      probability: r.design_probability,
      key: r.design_key,
      label: labels[i]!,
    })),
    question,
    order,
  );
}

export async function queueFigures(
  db: Sql,
  queue: QueueRecord,
  basis: FiguresBasis,
): Promise<FiguresResponse> {
  const rows = await db.query<FigureRow>(
    'SELECT key, judge, design_probability, design_key FROM queue_rows WHERE queue_id = $1 ORDER BY idx',
    [queue.id],
  );
  const lines = await db.query<LabelLine>(
    'SELECT idx, question, person_id, value, seconds FROM labels WHERE queue_id = $1',
    [queue.id],
  );
  const people = await db.query<{ id: string; name: string }>(
    'SELECT id, name FROM people ORDER BY joined_at, id',
  );
  const names = new Map(people.map((p) => [p.id, p.name]));
  const labelled = new Set(lines.map((l) => l.person_id));
  const annotators = people.map((p) => p.id).filter((id) => labelled.has(id));
  const adjudications = await db.query<{ idx: number; question: string; value: WorkspaceLabelValue }>(
    'SELECT idx, question, value FROM adjudications WHERE queue_id = $1',
    [queue.id],
  );
  const settled = new Map(adjudications.map((a) => [`${a.idx}\u0000${a.question}`, a.value]));
  const judge = rows.map((r) => r.judge);
  const trust = Object.fromEntries(
    Object.entries(queue.questions).map(([name, q]) => [
      name,
      trustOf(q, name, rows.length, lines, annotators, names, judge, settled, basis),
    ]),
  );
  const byPerson = new Map(labellerFigures(lines, names).map((f) => [f.person, f]));
  return {
    basis,
    active: activeOf(queue, rows, trust),
    keys: rows.map((r) => r.key),
    labellers: annotators.map((id) => byPerson.get(id)!),
    trust,
    labels: lines.length,
    computedAt: new Date().toISOString(),
  };
}
