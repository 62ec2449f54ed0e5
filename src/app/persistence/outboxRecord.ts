// The outbox's record: one label given in a workspace queue that its server has not acknowledged yet. Versioned like
// every stored record and parsed on read; a record of a version this build does not know (a newer build wrote it) is
// kept as it is and reported, never dropped, since it is a person's work.
import { z } from 'zod';
import { LabelInputSchema } from '../../contract/workspace';
import type { LabelInput } from '../../contract/workspace';

/** The outbox record's present schema version. */
export const OUTBOX_SCHEMA_VERSION = 1;

export const OutboxRecordSchema = z.object({
  schemaVersion: z.literal(OUTBOX_SCHEMA_VERSION),
  /** The label's client id: the table's key and the server's idempotency key. */
  clientId: z.string().min(1),
  queueId: z.string().min(1),
  label: LabelInputSchema,
  /** When the person gave it (ISO): the order labels are sent in. */
  createdAt: z.iso.datetime(),
  /** The server's sentence when it refused the label for good (not a dropped connection): kept, not sent again. */
  refusal: z.string().optional(),
});
export type OutboxRecord = z.infer<typeof OutboxRecordSchema>;

/** A row as the table holds it: a record of any version (read through readOutboxRecord). */
export type OutboxRow = { clientId: string; queueId: string; createdAt: string } & Record<string, unknown>;

/** A new record for a label. */
export function outboxRecord(queueId: string, label: LabelInput, createdAt: string): OutboxRecord {
  return { schemaVersion: OUTBOX_SCHEMA_VERSION, clientId: label.clientId, queueId, label, createdAt };
}

/**
 * A stored row as a present record, or why it cannot be read. Version 1 is the first: a later version adds its step
 * here (each a plain function from the shape before, tested with a fixture of that shape).
 */
export function readOutboxRecord(
  row: unknown,
): { ok: true; record: OutboxRecord } | { ok: false; message: string } {
  const version = (row as { schemaVersion?: unknown } | null)?.schemaVersion;
  if (typeof version === 'number' && version > OUTBOX_SCHEMA_VERSION)
    return {
      ok: false,
      message: `This label was kept by a newer version of the workbench (record version ${version}); it stays stored until that version sends it.`,
    };
  const parsed = OutboxRecordSchema.safeParse(row);
  if (parsed.success) return { ok: true, record: parsed.data };
  const issue = parsed.error.issues[0];
  return {
    ok: false,
    message: `A label kept in this browser is damaged (${issue ? `${issue.path.join('.') || 'record'}: ${issue.message}` : 'unreadable'}); it stays stored.`,
  };
}
