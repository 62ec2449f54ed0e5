// The export file: sessions written to a versioned JSON file and read back. Reading never trusts the file: a corrupt,
// truncated or foreign file gets one clear sentence, and each session is migrated and parsed on its own.
import { z } from 'zod';
import { describeZodError, migrateSession } from './sessionMigrations';
import { scrubSecrets } from './scrubSecrets';
import type { Session } from './session';
import { isRecord } from '../contract/guards';
import { errorText } from '../contract/text';

/** The `format` field that marks an Evaluate Workbench export. */
export const EXPORT_FORMAT = 'evaluate-workbench/sessions';
/** Version of the file layout (not of the sessions inside, which carry their own schemaVersion). */
export const EXPORT_FILE_VERSION = 1;

/** The envelope of a version 1 file; sessions are parsed one by one so one bad session does not sink the rest. */
const ExportEnvelopeV1Schema = z.object({
  format: z.literal(EXPORT_FORMAT),
  version: z.literal(1),
  exportedAt: z.string(),
  sessions: z.array(z.unknown(), { error: 'its "sessions" field is not a list' }),
});

/** What an export file holds once written. */
export interface ExportFile {
  format: typeof EXPORT_FORMAT;
  version: typeof EXPORT_FILE_VERSION;
  exportedAt: string;
  sessions: Session[];
}

/** The text of an export file holding these sessions (credentials in run messages masked). */
export function exportFile(sessions: readonly Session[], now: Date = new Date()): string {
  const file: ExportFile = {
    format: EXPORT_FORMAT,
    version: EXPORT_FILE_VERSION,
    exportedAt: now.toISOString(),
    sessions: sessions.map(scrubSecrets),
  };
  return `${JSON.stringify(file, null, 2)}\n`;
}

/** A file name for an export: the session's name for one session, a count for several, and the date. */
export function exportFileName(sessions: readonly Pick<Session, 'name'>[], now: Date = new Date()): string {
  const day = now.toISOString().slice(0, 10);
  const only = sessions.length === 1 ? sessions[0] : undefined;
  const slug = only
    ? only.name
        .normalize('NFKD')
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, '-')
        .replace(/^-+|-+$/g, '')
        .slice(0, 60) || 'session'
    : `${sessions.length}-sessions`;
  return `evaluate-workbench-${slug}-${day}.json`;
}

/** A session of the file that could not be read, by its zero-based position in the file. */
export interface ImportProblem {
  index: number;
  name?: string;
  message: string;
}

/** What reading a file gives: the sessions that read well plus the ones that did not, or one sentence why not at all. */
export type ImportResult =
  { ok: true; sessions: Session[]; problems: ImportProblem[] } | { ok: false; message: string };

/** 'CSV' or 'JSON Lines' when text that is not one JSON value reads like a file of rows, else null. */
export function rowsFileKind(text: string): 'CSV' | 'JSON Lines' | null {
  const lines = text.split(/\r?\n/).filter((l) => l.trim() !== '');
  if (lines.length >= 2 && lines.slice(0, 5).every((l) => l.trim().startsWith('{'))) return 'JSON Lines';
  const first = lines[0] ?? '';
  if (lines.length >= 2 && !first.trim().startsWith('{') && /[,\t;]/.test(first)) return 'CSV';
  return null;
}

/**
 * True when JSON text ends before its brackets or a string close: the mark of a file cut off in transit, as opposed
 * to one that is not JSON at all. Engine-independent (JSON.parse messages differ between browsers).
 */
export function looksCutOff(text: string): boolean {
  const stack: number[] = [];
  let inString = false;
  let escaped = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (escaped) escaped = false;
      else if (c === 0x5c)
        escaped = true; // backslash
      else if (c === 0x22) inString = false; // quote
      continue;
    }
    if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b)
      stack.push(c); // { [
    else if (c === 0x7d || c === 0x5d) {
      // } ] must close the matching bracket; a mismatch means broken, not cut off
      if (stack.pop() !== (c === 0x7d ? 0x7b : 0x5b)) return false;
    }
  }
  return inString || stack.length > 0;
}

const NOT_OURS = 'This file is not an Evaluate Workbench export';
const sessionName = (raw: unknown): string | undefined =>
  isRecord(raw) && typeof raw['name'] === 'string' ? raw['name'] : undefined;

/** Why text that JSON.parse refused is not a sessions file: cut off, a file of rows, or not JSON at all. */
function unreadableMessage(text: string, error: unknown): string {
  if (looksCutOff(text))
    return `The file is cut off: it ends in the middle of its data after ${text.length.toLocaleString('en-US')} characters; export it again or use the complete file.`;
  const rows = rowsFileKind(text);
  if (rows)
    return `${NOT_OURS}: it looks like a file of rows (${rows}), which “Rows from a file” above the editors runs, one request per row.`;
  const detail = error instanceof Error ? error.message.replace(/\.$/, '') : 'unreadable';
  return `${NOT_OURS}: it is not JSON (${detail}).`;
}

/** Why a JSON value is not an export this workbench reads (not an object, another format, a newer version); null if it is. */
function envelopeProblem(raw: unknown): string | null {
  if (!isRecord(raw)) return `${NOT_OURS}: it holds JSON, but not an object.`;
  const format = raw['format'];
  if (format !== EXPORT_FORMAT)
    return typeof format === 'string'
      ? `${NOT_OURS}: its format is "${format.slice(0, 80)}", not "${EXPORT_FORMAT}".`
      : `${NOT_OURS}: it has no "format": "${EXPORT_FORMAT}" field.`;
  const version = raw['version'];
  if (typeof version !== 'number' || !Number.isInteger(version) || version < 1)
    return `${NOT_OURS}: its "version" is missing or not a whole number.`;
  if (version > EXPORT_FILE_VERSION)
    return `This file was exported by a newer version of Evaluate Workbench (file version ${version}; this one reads up to version ${EXPORT_FILE_VERSION}); update the workbench to import it.`;
  return null;
}

/** Each entry migrated to a session, or a problem naming it: one bad session does not lose the others. */
function migrateEntries(entries: readonly unknown[]): { sessions: Session[]; problems: ImportProblem[] } {
  const sessions: Session[] = [];
  const problems: ImportProblem[] = [];
  entries.forEach((entry, index) => {
    try {
      sessions.push(migrateSession(entry));
    } catch (error) {
      const name = sessionName(entry);
      problems.push({
        index,
        ...(name !== undefined ? { name } : {}),
        message: errorText(error),
      });
    }
  });
  return { sessions, problems };
}

/** Reads the text of an export file. Never throws; stores nothing. */
export function parseImportFile(input: string): ImportResult {
  const text = input.replace(/^\uFEFF/, ''); // editors on Windows may add a byte order mark
  if (text.trim() === '') return { ok: false, message: 'The file is empty: it holds no sessions.' };

  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    return { ok: false, message: unreadableMessage(text, error) };
  }
  const problem = envelopeProblem(raw);
  if (problem !== null) return { ok: false, message: problem };
  // Only file version 1 exists; an older layout would be brought to version 1 here, step by step.
  const envelope = ExportEnvelopeV1Schema.safeParse(raw);
  if (!envelope.success)
    return { ok: false, message: `The file is damaged: ${describeZodError(envelope.error)}.` };

  const entries = envelope.data.sessions;
  if (entries.length === 0)
    return { ok: false, message: 'This export holds no sessions; nothing was imported.' };
  const { sessions, problems } = migrateEntries(entries);
  if (sessions.length === 0) {
    const first = problems[0]!;
    const which = describeProblem(first);
    return {
      ok: false,
      message:
        entries.length === 1
          ? `The session in this file could not be read: ${first.message}`
          : `None of the ${entries.length} sessions in this file could be read; ${which}: ${first.message}`,
    };
  }
  return { ok: true, sessions, problems };
}

/** "session 3 (“Tone rubric”)": how to name a problem's session to a person (one-based). */
export function describeProblem(problem: ImportProblem): string {
  return `session ${problem.index + 1}${problem.name ? ` (“${problem.name}”)` : ''}`;
}
