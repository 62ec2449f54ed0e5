// Planning a robustness check before anything is sent: the model pinned, the rows already answered (stored, or the
// main screen's last answer), the plan, its budget and the notes the dialog shows; for the main screen's request or a
// sample of a file run's rows.
import type { EvaluateRequest } from '../../../contract';
import { isVersionedId } from '../../../contract';
import { describeBudget } from '../../../core/robustness/budget';
import type { CheckPlan, CheckedState } from '../../../core/robustness/check';
import { partialSquareNotes, planBudget, planCheck } from '../../../core/robustness/check';
import { sampleIndices, seededRandom } from '../../../core/robustness/random';
import { VARIANT_LABELS } from '../../../core/robustness/variants';
import { dedupKey } from '../../../core/rows/dedup';
import type { StoredAnswer } from '../../../core/rows/records';
import type { TokenCounter } from '../../../core/rows/runPlan';
import { plannedFromItems } from '../../../core/rows/runPlan';
import { findStoredAnswers } from '../../persistence/rowsRepo';
import { RowsRepo } from '../../persistence/rowsRepo';

import type { CheckSettings, ReadyCheck, RobustnessDeps, RowsSource, StateSource } from './robustnessTypes';
import { clampInt, MAX_SAMPLE, planKeyOf, settingsFor } from './robustnessTypes';

/** The model to send and why: a pinned id as is; an alias pinned to the version it answered as on the same request. */
function pinModel(source: StateSource): { model: string; note: string | null } {
  const model = source.request.model.trim();
  if (isVersionedId(model)) return { model, note: null };
  const last = source.lastRun;
  const body = last?.body as Partial<EvaluateRequest> | undefined;
  if (last?.response && last.targetId === source.targetId && body?.model === source.request.model)
    return {
      model: last.response.model,
      note: `${model} answered as ${last.response.model} on the last run; the check pins that version, so every answer comes from one model.`,
    };
  return {
    model,
    note: `${model} is an alias: it may move to another version during the check, and stored answers are reused only for a pinned version. Run once first, or pick a versioned id, to pin it.`,
  };
}

/** Which rows already have an answer: stored, or in memory from the main screen. */
export const reusedRows = async (
  deps: Pick<RobustnessDeps, 'db'>,
  plan: CheckPlan,
  targetId: string,
  model: string,
  seeds: Map<string, StoredAnswer>,
): Promise<{ reused: Set<number>; keys: Map<number, string> }> => {
  const keys = new Map<number, string>();
  const reused = new Set<number>();
  if (!isVersionedId(model)) return { reused, keys };
  for (const row of plan.rows) {
    keys.set(
      row.number,
      await dedupKey({
        targetId,
        model,
        state: row.state,
        questions: row.questions ?? plan.questions,
        ...(row.tag ? { tag: row.tag } : {}),
      }),
    );
  }
  let stored = new Map<string, StoredAnswer>();
  try {
    stored = await findStoredAnswers(deps.db(), [...keys.values()]);
  } catch {
    // Storage unreadable: nothing counts as stored, so the budget errs on the side of paying.
  }
  for (const [n, key] of keys) if (stored.has(key) || seeds.has(key)) reused.add(n);
  return { reused, keys };
};

/** The check of the main screen's request: its plan, budget and notes, the model pinned, the last answer seeded. */
export const planState = async (
  deps: Pick<RobustnessDeps, 'db'>,
  current: CheckSettings,
  source: StateSource,
  counter: TokenCounter,
): Promise<ReadyCheck> => {
  const { model, note } = pinModel(source);
  const { request, targetId } = source;
  const settings = settingsFor(current, request.questions);
  const states: CheckedState[] = [{ state: request.state, label: 'this state' }];
  const plan = planCheck(states, request.questions, settings, counter);
  const seeds = new Map<string, StoredAnswer>();
  const last = source.lastRun;
  const response = last?.response;
  if (response && isVersionedId(model) && response.model === model && last.targetId === targetId) {
    // The main screen's last answer is the check's original request when state and questions are the same.
    const body = last.body as Partial<EvaluateRequest>;
    const baseKey = await dedupKey({
      targetId,
      model,
      state: request.state,
      questions: request.questions,
    });
    const lastKey =
      body.state !== undefined && body.questions
        ? await dedupKey({ targetId, model, state: body.state, questions: body.questions })
        : null;
    if (lastKey === baseKey) seeds.set(baseKey, { key: baseKey, targetId, model, response, at: Date.now() });
  }
  const { reused } = await reusedRows(deps, plan, targetId, model, seeds);
  const budget = planBudget(plan, reused, source.terms.inputPrice);
  const notes = [note, ...variantNotes(plan), ...orderNotes(plan)].filter((n): n is string => !!n);
  const requestKey = await dedupKey({
    targetId,
    model: request.model,
    state: request.state,
    questions: request.questions,
    tag: 'robustness',
  });
  return {
    plan,
    budget,
    budgetText: describeBudget(budget),
    targetId,
    model,
    notes,
    source: { kind: 'state' },
    requestKey,
    seeds,
    pacing: source.terms.pacing,
    inputPrice: source.terms.inputPrice,
    planKey: planKeyOf(source, current),
  };
};

/** The check of a sample of a file run's rows (the same rows each time), on the run's target, model and terms. */
export const planRows = async (
  deps: Pick<RobustnessDeps, 'db'>,
  current: CheckSettings,
  source: RowsSource,
  counter: TokenCounter,
): Promise<ReadyCheck> => {
  const repo = new RowsRepo(deps.db());
  const run = await repo.getRun(source.runId);
  if (!run) throw new Error('that file run is no longer stored');
  const { items } = await repo.loadItems(run.id);
  const { rows } = plannedFromItems(items, run.mapping);
  if (rows.length === 0) throw new Error(`the file run “${run.fileName}” has no rows that can be sent`);
  const sample = clampInt(source.sample, 1, Math.min(MAX_SAMPLE, rows.length));
  const picked = sampleIndices(rows.length, sample, seededRandom(1)).map((i) => rows[i]!);
  const settings = settingsFor(current, run.questions);
  const plan = planCheck(
    picked.map((r) => ({ state: r.state, label: `row ${r.id || r.number} (line ${r.line})` })),
    run.questions,
    settings,
    counter,
  );
  const seeds = new Map<string, StoredAnswer>();
  const { reused } = await reusedRows(deps, plan, run.targetId, run.model, seeds);
  const budget = planBudget(plan, reused, run.inputPrice);
  const notes = [
    `${sample} of ${rows.length} rows of “${run.fileName}”, picked at random (the same rows each time), on ${run.targetId} with ${run.model}.`,
    isVersionedId(run.model)
      ? null
      : `${run.model} is an alias: stored answers are reused only for a pinned version.`,
    ...variantNotes(plan),
    ...orderNotes(plan),
  ].filter((n): n is string => !!n);
  return {
    plan,
    budget,
    budgetText: describeBudget(budget),
    targetId: run.targetId,
    model: run.model,
    notes,
    source: {
      kind: 'rows',
      runId: run.id,
      fileName: run.fileName,
      sampled: sample,
      rowCount: rows.length,
    },
    requestKey: `rows:${run.id}:${sample}`,
    seeds,
    // The file run's own pacing and price: what its target allowed and charged when it ran.
    pacing: run.pacing,
    ...(run.inputPrice !== undefined ? { inputPrice: run.inputPrice } : {}),
    planKey: planKeyOf(source, current),
  };
};

function variantNotes(plan: CheckPlan): string[] {
  const missing = new Set(plan.states.flatMap((s) => s.plan.missingVariants));
  if (missing.size === 0) return [];
  const kinds = [...missing].map((k) => VARIANT_LABELS[k].replace(/ changed$/, ''));
  return [`This state has no ${kinds.join(' or ')} to change, so that variant is not sent.`];
}

function orderNotes(plan: CheckPlan): string[] {
  const fixed = plan.states[0]?.plan.orders.fixed ?? {};
  return [
    ...Object.entries(fixed).map(([name, reason]) => `“${name}” keeps its order: ${reason}`),
    ...partialSquareNotes(plan),
  ];
}
