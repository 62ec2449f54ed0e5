// The requests of a robustness check for one state: the original request, the same questions in other option orders,
// the original repeated, and near-duplicate states. Each is a probe; the runner sends them like rows of a file.
import type { Questions, State } from '../../contract';
import type { QuestionOrders } from './orders';
import { planQuestionOrders } from './orders';
import type { VariantKind } from './variants';
import { stateVariants, VARIANT_KINDS } from './variants';

/** What the user sets before a check. */
export interface RobustnessSettings {
  /** Option orders per choice question, the user's own included (1 turns the order check off). */
  orders: number;
  /** Identical requests, the original included (1 turns the repetition check off). */
  repeats: number;
  variants: readonly VariantKind[];
  /** A move (total variation distance) above this is flagged. */
  threshold: number;
  seed: number;
}

export const DEFAULT_REPEATS = 5;
export const MAX_REPEATS = 20;
/** Five points of probability: below what a reader of a chart notices, above two-decimal rounding. */
export const DEFAULT_THRESHOLD = 0.05;

export const defaultSettings = (orders: number): RobustnessSettings => ({
  orders,
  repeats: DEFAULT_REPEATS,
  variants: VARIANT_KINDS,
  threshold: DEFAULT_THRESHOLD,
  seed: 1,
});

export type ProbeKind = 'base' | 'order' | 'repeat' | 'variant';

/** One request of a check. */
export interface Probe {
  kind: ProbeKind;
  state: State;
  questions: Questions;
  /** Order index (0 for the user's order). */
  order: number;
  /** Repetition index: 0, or 1..n-1 for the copies of the original (so each copy is its own stored answer). */
  repeat: number;
  variant?: VariantKind;
  /**
   * What sets this probe apart from the original where stored-answer keys (canonical JSON: key order ignored) cannot:
   * the repeat number, the label orders, the variant. Absent on the original, so it reuses the main screen's answers.
   */
  tag?: string;
}

export interface StatePlan {
  probes: Probe[];
  orders: QuestionOrders;
  /** Variant kinds asked for that this state has no form of. */
  missingVariants: VariantKind[];
}

/**
 * The probes for one state: the original first, then orders 1..k-1, repeats 1..n-1, then one probe per variant.
 * The original serves as order 0, repeat 0 and the reference of every variant, so it is sent once.
 */
export function planState(state: State, questions: Questions, settings: RobustnessSettings): StatePlan {
  const orders = planQuestionOrders(questions, settings.orders, settings.seed);
  const probes: Probe[] = [{ kind: 'base', state, questions, order: 0, repeat: 0 }];
  for (let j = 1; j < orders.count; j++) {
    const labels = Object.entries(orders.labels).map(([name, o]) => [name, o[j]!]);
    const tag = `order:${JSON.stringify(labels)}`;
    probes.push({ kind: 'order', state, questions: orders.questions[j]!, order: j, repeat: 0, tag });
  }
  const repeats = Math.max(1, Math.min(MAX_REPEATS, Math.floor(settings.repeats)));
  for (let r = 1; r < repeats; r++)
    probes.push({ kind: 'repeat', state, questions, order: 0, repeat: r, tag: `repeat:${r}` });
  const variants = stateVariants(state, settings.variants);
  for (const v of variants)
    probes.push({
      kind: 'variant',
      state: v.state,
      questions,
      order: 0,
      repeat: 0,
      variant: v.kind,
      tag: `variant:${v.kind}`,
    });
  const present = new Set(variants.map((v) => v.kind));
  return { probes, orders, missingVariants: settings.variants.filter((k) => !present.has(k)) };
}
