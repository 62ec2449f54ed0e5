// A target check's report: what a server does differently from the contract, in plain sentences. Sent by the proxy
// (`POST /api/targets/<id>/check`) and printed by `npm run check-target`.
import { z } from 'zod';

/**
 * How much a difference matters: `ok` (as the contract says), `normalised` (harmless; the proxy or the client smooths
 * it), `difference` (real; the workbench works but shows less, or the user must know), `problem` (something fails).
 */
export const CheckSeveritySchema = z.enum(['ok', 'normalised', 'difference', 'problem']);
export type CheckSeverity = z.infer<typeof CheckSeveritySchema>;

/** One sentence of a check, with the part of the contract it is about. */
export const CheckFindingSchema = z.object({
  severity: CheckSeveritySchema,
  /** models, evaluate, noul, choice, score, errors, headers, usage */
  area: z.string(),
  text: z.string(),
});
export type CheckFinding = z.infer<typeof CheckFindingSchema>;

export const TargetCheckReportSchema = z.object({
  targetId: z.string(),
  /** The model the probes were sent with, or null when none could be chosen. */
  model: z.string().nullable(),
  checkedAt: z.string(),
  findings: z.array(CheckFindingSchema),
});
export type TargetCheckReport = z.infer<typeof TargetCheckReportSchema>;

/** The body of a check request: the model to probe with (default: the first the target lists). */
export const TargetCheckRequestSchema = z.strictObject({ model: z.string().trim().min(1).optional() });
export type TargetCheckRequest = z.infer<typeof TargetCheckRequestSchema>;

/** The report's worst severity: what a target's badge shows. */
export function worstSeverity(findings: readonly CheckFinding[]): CheckSeverity {
  const order: CheckSeverity[] = ['ok', 'normalised', 'difference', 'problem'];
  return findings.reduce<CheckSeverity>(
    (worst, f) => (order.indexOf(f.severity) > order.indexOf(worst) ? f.severity : worst),
    'ok',
  );
}
