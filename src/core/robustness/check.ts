// A whole check: the probes of every state checked (the main screen's state, or a sample of a file's rows) as rows
// for the rows runner, and the report assembled from what came back.
import type { EvaluateResponse, Questions, State } from '../../contract';
import type { PlannedRow, TokenCounter } from '../rows/runPlan';
import type { Budget } from './budget';
import { budgetOf, probeTokens } from './budget';
import type { RobustnessReport } from './card';
import type { Probe, RobustnessSettings, StatePlan } from './plan';
import { planState } from './plan';
import type { ProbeAnswer, StateAnswers } from './stats';
import { identicalAnswers } from './stats';
import { questionCards } from './verdict';

/** A state to check, with where it came from (a file's row id and line, for the card). */
export interface CheckedState {
  state: State;
  label: string;
}

/** One request of the check as the runner sees it, with the state and probe it belongs to. */
export interface CheckRow extends PlannedRow {
  stateIndex: number;
  probe: Probe;
}

export interface CheckPlan {
  settings: RobustnessSettings;
  questions: Questions;
  states: { source: CheckedState; plan: StatePlan }[];
  rows: CheckRow[];
}

/** Plans the probes of every state, numbered 1..n in state order, with their billed tokens. */
export function planCheck(
  states: readonly CheckedState[],
  questions: Questions,
  settings: RobustnessSettings,
  counter: TokenCounter,
): CheckPlan {
  const planned = states.map((source) => ({ source, plan: planState(source.state, questions, settings) }));
  const rows: CheckRow[] = [];
  planned.forEach(({ source, plan }, stateIndex) => {
    for (const probe of plan.probes) {
      const number = rows.length + 1;
      rows.push({
        number,
        line: number,
        id: `${source.label} · ${probeName(probe)}`,
        state: probe.state,
        tokens: probeTokens(probe, counter),
        questions: probe.questions,
        ...(probe.tag ? { tag: probe.tag } : {}),
        stateIndex,
        probe,
      });
    }
  });
  return { settings, questions, states: planned, rows };
}

/** A short name of a probe: "original", "order 2", "repeat 3", "casing". */
export function probeName(probe: Probe): string {
  switch (probe.kind) {
    case 'base':
      return 'original';
    case 'order':
      return `order ${probe.order + 1}`;
    case 'repeat':
      return `repeat ${probe.repeat + 1}`;
    case 'variant':
      return probe.variant ?? 'variant';
  }
}

/**
 * What a person should know when a choice question has more options than the check sends orders: the orders are rows
 * of a Latin square that is not complete, so not every option sits in every position, and the verdict is weaker.
 */
export function partialSquareNotes(plan: CheckPlan): string[] {
  const orders = plan.states[0]?.plan.orders;
  if (!orders) return [];
  return Object.entries(orders.labels).flatMap(([name, byOrder]) => {
    const options = byOrder[0]?.length ?? 0;
    if (options <= orders.count) return [];
    return [
      `“${name}” has ${options} options and the check sends ${orders.count} orders, so not every option sits in every position (a partial Latin square: each option tries ${orders.count} of ${options} positions). A position bias is measured on the options that reached the first and last places, and an order effect on the others can go unseen; "stable" means stable in these orders.`,
    ];
  });
}

/** The budget of a plan at the target's price, given which rows are already answered in storage (by row number). */
export const planBudget = (
  plan: CheckPlan,
  reused: ReadonlySet<number>,
  inputPrice?: number | null,
): Budget =>
  budgetOf(
    plan.rows.map((r) => ({ tokens: r.tokens, reused: reused.has(r.number) })),
    inputPrice,
  );

/** What came back for one row: the response, and whether it was reused from storage. */
export interface RowAnswer {
  response: EvaluateResponse;
  reused: boolean;
}

/** The report of a finished (or stopped) check from the answers by row number. */
export function buildReport(
  plan: CheckPlan,
  answers: ReadonlyMap<number, RowAnswer>,
  meta: Pick<
    RobustnessReport,
    'id' | 'at' | 'targetId' | 'model' | 'source' | 'estimatedCost' | 'requestKey' | 'inputPrice'
  >,
): RobustnessReport {
  const answered: ProbeAnswer[][] = plan.states.map(() => []);
  let reused = 0;
  let sent = 0;
  let billedTokens = 0;
  for (const row of plan.rows) {
    const answer = answers.get(row.number);
    if (!answer) continue;
    if (answer.reused) reused++;
    else {
      sent++;
      billedTokens += answer.response.usage.input_tokens;
    }
    answered[row.stateIndex]!.push({ probe: row.probe, answers: answer.response.answers });
  }
  const states: StateAnswers[] = plan.states.map(({ plan: p }, i) => ({
    orders: p.orders,
    answered: answered[i]!,
  }));
  const s = plan.settings;
  return {
    ...meta,
    settings: {
      orders: Math.max(1, ...plan.states.map((st) => st.plan.orders.count)),
      repeats: Math.max(1, Math.floor(s.repeats)),
      variants: [...s.variants],
      threshold: s.threshold,
      seed: s.seed,
    },
    requests: plan.rows.length,
    reused,
    sent,
    failed: plan.rows.length - reused - sent,
    billedTokens,
    identicalAnswers: identicalAnswers(states),
    cards: questionCards(plan.questions, states, s.threshold),
  };
}
