// Session records from older schema versions, and the plain functions that bring them to the current one.
// Every step parses its input with that version's schema, so a damaged record fails with a clear sentence
// instead of being half-migrated. Used by IndexedDB reads, file imports and share links alike.
import { z } from 'zod';
import { EvaluateRequestSchema, EvaluateResponseSchema } from '../contract';
import { SESSION_SCHEMA_VERSION, SessionSchema } from './session';
import type { RunRecord, Session, SessionDoc } from './session';
import { isRecord } from '../contract/guards';

/**
 * Schema version 1, the first one: the editors' text flat on the record, one target and model for the whole session,
 * runs without ids, attempts or a per-run target, and errors kept as a bare sentence. It stored only requests it had
 * sent, which were checked against the contract before sending.
 */
export const SessionV1Schema = z.object({
  schemaVersion: z.literal(1),
  id: z.string().min(1),
  name: z.string(),
  created: z.string(),
  updated: z.string(),
  /** The state editor's text: plain text or JSON text. */
  state: z.string(),
  /** The questions editor's text (JSON). */
  questions: z.string(),
  target: z.string().min(1),
  model: z.string(),
  runs: z.array(
    z.object({
      at: z.string(),
      request: EvaluateRequestSchema,
      response: EvaluateResponseSchema.optional(),
      error: z.string().optional(),
      latencyMs: z.number().min(0).optional(),
    }),
  ),
});
export type SessionV1 = z.infer<typeof SessionV1Schema>;

/** Why a value could not be read as a session, in one sentence. */
export class SessionRecordError extends Error {
  override readonly name = 'SessionRecordError';
}

/** One readable sentence for a zod failure: the first problem with its path, and how many more there are. */
export function describeZodError(error: z.ZodError): string {
  const [first, ...rest] = error.issues;
  if (!first) return 'it does not match the expected shape';
  const where = first.path.length > 0 ? `${first.path.map(String).join('.')}: ` : '';
  const more = rest.length > 0 ? ` (and ${rest.length} more problem${rest.length === 1 ? '' : 's'})` : '';
  return `${where}${first.message.replace(/\.$/, '')}${more}`;
}

/**
 * Which editor mode a state text was written in: JSON when it reads as an object or array, or when it starts like
 * one (an object being typed); otherwise plain text.
 */
export function inferStateMode(stateText: string): SessionDoc['stateMode'] {
  const t = stateText.trim();
  if (t.startsWith('{')) return 'json';
  if (!t.startsWith('[')) return 'text';
  try {
    return Array.isArray(JSON.parse(t)) ? 'json' : 'text';
  } catch {
    return 'text'; // "[URGENT] payouts failing" is text, not a broken array
  }
}

/** Version 1 to 2: the editors' text moves into `doc`, runs gain an id, their target and an empty attempt list. */
export function migrateV1ToV2(v1: SessionV1): Session {
  const runs: RunRecord[] = v1.runs.map((run, index) => ({
    // Deterministic, so migrating the same record twice (two tabs, a retried upgrade) yields the same ids.
    id: `${v1.id}-run-${index + 1}`,
    at: run.at,
    targetId: v1.target,
    request: run.request,
    ...(run.response !== undefined ? { response: run.response } : {}),
    ...(run.error !== undefined
      ? { error: { kind: 'unknown', message: run.error, fieldErrors: [], possiblyBilled: false } }
      : {}),
    ...(run.latencyMs !== undefined ? { latencyMs: run.latencyMs } : {}),
    attempts: [],
  }));
  return {
    schemaVersion: 2,
    id: v1.id,
    name: v1.name,
    createdAt: v1.created,
    updatedAt: v1.updated,
    doc: {
      stateMode: inferStateMode(v1.state),
      stateText: v1.state,
      questionsText: v1.questions,
      targetId: v1.target,
      model: v1.model,
    },
    runs,
  };
}

// Step N takes a record of version N (unknown, parsed here) to version N + 1 (parsed by the next step or at the end).
const STEPS: Record<number, (raw: unknown) => unknown> = {
  1: (raw) => {
    const parsed = SessionV1Schema.safeParse(raw);
    if (!parsed.success) {
      throw new SessionRecordError(
        `This session (schema version 1) is damaged: ${describeZodError(parsed.error)}.`,
      );
    }
    return migrateV1ToV2(parsed.data);
  },
};

/**
 * Reads any stored, exported or shared session record and returns it at the current schema version.
 * Throws a SessionRecordError with one clear sentence for a value that is not a session, is damaged, or comes from a
 * newer version of the workbench.
 */
export function migrateSession(raw: unknown): Session {
  if (!isRecord(raw)) throw new SessionRecordError('This is not a session: it is not an object.');
  const version = raw['schemaVersion'];
  if (typeof version !== 'number' || !Number.isInteger(version) || version < 1) {
    throw new SessionRecordError('This is not a session: it has no valid "schemaVersion".');
  }
  if (version > SESSION_SCHEMA_VERSION) {
    throw new SessionRecordError(
      `This session was saved by a newer version of Evaluate Workbench (schema version ${version}; this one reads up to ${SESSION_SCHEMA_VERSION}).`,
    );
  }
  let record: unknown = raw;
  for (let at = version; at < SESSION_SCHEMA_VERSION; at++) {
    const step = STEPS[at];
    if (!step) throw new SessionRecordError(`No migration exists from session schema version ${at}.`);
    record = step(record);
  }
  const parsed = SessionSchema.safeParse(record);
  if (!parsed.success)
    throw new SessionRecordError(`This session is damaged: ${describeZodError(parsed.error)}.`);
  return parsed.data;
}
