// `report --active <export.jsonl> --questions <file>`: the active-order estimates of a run labelled in the app, read
// back from its JSONL export. Each label there carries its probability of having been asked, so every target's
// estimate (a label's share or the mean level, and agreement) comes out as the page computed it, with what random
// order would have needed for the same width.
import { z } from 'zod';
import type { Questions } from '../contract';
import { AnswerSchema } from '../contract/response';
import { activeEstimateOfExport, activeTargetsOf } from '../core/alignment/labelOrder';
import type { ExportedOrderRow } from '../core/alignment/labelOrder';
import { LabelValueSchema } from '../core/labels/values';
import { activeSavingSentence } from '../core/trust/active';
import { InputError, readText } from './inputs';

/** What the estimate reads of an export line; a line never sent has no answers and counts as unanswered. */
const ExportLineSchema = z.object({
  answers: z.record(z.string(), AnswerSchema).nullable().optional(),
  labels: z.record(z.string(), LabelValueSchema).optional(),
  label_probabilities: z.record(z.string(), z.number().gt(0).max(1)).optional(),
});
type ExportLine = z.infer<typeof ExportLineSchema>;

function readExport(file: string): { lines: ExportLine[]; unreadable: number } {
  const text = readText(file, '--active export');
  const lines: ExportLine[] = [];
  let unreadable = 0;
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    let parsed: ReturnType<typeof ExportLineSchema.safeParse>;
    try {
      parsed = ExportLineSchema.safeParse(JSON.parse(line));
    } catch {
      unreadable++;
      continue;
    }
    if (parsed.success) lines.push(parsed.data);
    else unreadable++;
  }
  return { lines, unreadable };
}

const fixed = (x: number): string => x.toFixed(3);

/** The lines `report --active` prints: per question labelled in active order, each target's estimate. */
export function activeReportLines(file: string, questions: Questions): string[] {
  const { lines, unreadable } = readExport(file);
  const out: string[] = [];
  if (unreadable > 0) out.push(`${unreadable} lines of ${file} could not be read and are left out.`);
  const asked = Object.keys(questions).filter((q) =>
    lines.some((l) => l.label_probabilities?.[q] !== undefined),
  );
  if (asked.length === 0)
    throw new InputError(
      `${file} has no label probabilities for these questions: export a run labelled in active order as JSONL.`,
    );
  for (const name of asked) {
    const question = questions[name]!;
    const rows: ExportedOrderRow[] = lines.map((l) => ({
      answer: l.answers?.[name],
      label: l.labels?.[name],
      probability: l.label_probabilities?.[name],
    }));
    for (const { target, text } of activeTargetsOf(question)) {
      const estimate = activeEstimateOfExport(rows, question, target);
      if (!estimate) continue;
      const { active, n } = estimate;
      out.push(
        `${name}, ${text}: ${fixed(active.value)} (95% CI ${fixed(active.lo)} to ${fixed(active.hi)}) from ${n} labels in active order, each weighted by the inverse of its probability. ${activeSavingSentence(estimate)}`,
      );
    }
  }
  return out;
}
