// CI gates on a run's figures: `--min department.kappa=0.7 --max frustration.mae=0.4`. A gate passes when the figure
// (or, with --strict, the side of its 95% interval that matters) is on the right side of the bound. Pure.
import type { Figure } from '../core/alignment';

export interface Gate {
  /** `department.kappa`: the question, a dot, the metric. */
  key: string;
  kind: 'min' | 'max';
  bound: number;
}

export interface GateResult extends Gate {
  passed: boolean;
  /** The number compared with the bound (the value, or an interval's end with --strict). */
  compared: number | null;
  figure: Figure | undefined;
  /** One sentence for the summary and the JUnit failure. */
  message: string;
}

/** Parses one `question.metric=value` gate; throws a sentence when it is not one. */
export function parseGate(kind: Gate['kind'], text: string): Gate {
  const match = /^\s*([^=\s]+\.[^=\s.]+)\s*=\s*(-?\d+(?:\.\d+)?)\s*$/.exec(text);
  if (!match)
    throw new Error(
      `--${kind} ${text} is not a gate: write question.metric=value, for example department.kappa=0.7.`,
    );
  return { key: match[1]!, kind, bound: Number(match[2]) };
}

const fmt = (x: number): string => (Number.isInteger(x) ? String(x) : x.toFixed(3).replace(/0+$/, ''));

/** Checks every gate against the figures by key; a figure that is missing or undefined fails its gate. */
export function checkGates(
  gates: readonly Gate[],
  figures: ReadonlyMap<string, Figure>,
  { strict = false } = {},
): GateResult[] {
  return gates.map((gate) => {
    const figure = figures.get(gate.key);
    const op = gate.kind === 'min' ? '≥' : '≤';
    if (!figure) {
      const known = [...figures.keys()].slice(0, 12).join(', ');
      return {
        ...gate,
        figure,
        passed: false,
        compared: null,
        message: `${gate.key}: no such figure for this run${known ? ` (figures: ${known}${figures.size > 12 ? ', …' : ''})` : ''}.`,
      };
    }
    if (figure.value === null) {
      return {
        ...gate,
        figure,
        passed: false,
        compared: null,
        message: `${gate.key} is undefined (${figure.undefinedReason ?? 'no rows to measure'}), so it cannot be ${op} ${fmt(gate.bound)}.`,
      };
    }
    const end = gate.kind === 'min' ? figure.lo : figure.hi;
    const compared = strict && end !== null ? end : figure.value;
    const passed = gate.kind === 'min' ? compared >= gate.bound : compared <= gate.bound;
    const interval =
      figure.lo !== null && figure.hi !== null
        ? ` (95% CI ${fmt(figure.lo)} to ${fmt(figure.hi)}, n = ${figure.n})`
        : ` (n = ${figure.n})`;
    const what =
      strict && compared !== figure.value
        ? `the ${gate.kind === 'min' ? 'lower' : 'upper'} bound of ${gate.key}`
        : gate.key;
    return {
      ...gate,
      figure,
      compared,
      passed,
      message: `${what} is ${fmt(compared)}${interval}: ${passed ? 'passes' : 'fails'} ${op} ${fmt(gate.bound)}.`,
    };
  });
}
