// Share links: a session (editors' text, target id, model, comparison, reports and optionally its runs) deflated and
// written into the URL fragment, `#share=v1.<base64url>`. The fragment never reaches a server, so the content stays
// between the people who pass the link; on opening, the result is inflated with a size cap and parsed with zod.
import { Inflate, deflateSync, strToU8, strFromU8 } from 'fflate';
import { z } from 'zod';
import { SESSION_SCHEMA_VERSION } from './session';
import type { Session } from './session';
import { migrateSession } from './sessionMigrations';
import { scrubSecrets } from './scrubSecrets';

/** What starts the fragment of a share link. */
export const SHARE_FRAGMENT_PREFIX = '#share=';
/** Version of the link encoding (deflate-raw + base64url of the JSON below). */
export const SHARE_LINK_VERSION = 'v1';

/**
 * Longest share URL we hand out, in characters. Chrome accepts URLs up to 2 MB but its address bar shows and edits at
 * most 32 KiB; Firefox keeps 64 KiB in the bar and Safari about 80 KiB; chat and mail clients cut or refuse longer
 * links. 32,000 stays under the smallest of these with room for the origin.
 */
export const MAX_SHARE_URL_LENGTH = 32_000;

/**
 * Largest JSON a link may inflate to. A 32,000-character link deflates at most ~1000:1, so an honest link stays far
 * below this; the cap stops a crafted one from exhausting memory.
 */
export const MAX_SHARE_JSON_BYTES = 8 * 1024 * 1024;

/**
 * The envelope a link carries: the fields of a session without its id or times (the receiver makes its own), tagged
 * with the session schema version, so links made before a schema change still open through the session migrations.
 */
const ShareEnvelopeSchema = z.looseObject({ schemaVersion: z.number().int().min(1), name: z.string() });

/** A shared session as read from a link, at the current session schema version. */
export interface SharedSession {
  name: string;
  doc: Session['doc'];
  compare?: Session['compare'];
  runs: Session['runs'];
  robustness?: Session['robustness'];
  alignment?: Session['alignment'];
  ledger?: Session['ledger'];
}

/** Whether a link carries the runs, and the human labels kept with the alignment report (default: yes). */
export interface ShareOptions {
  includeRuns: boolean;
  includeLabels?: boolean;
}

/** The alignment report without the human labels it keeps. */
function withoutLabels(alignment: NonNullable<Session['alignment']>): NonNullable<Session['alignment']> {
  const { labels: _labels, ...rest } = alignment;
  return rest;
}

/** The JSON a link carries for this session; runs (and the comparison's run ids) only when asked for. */
function sharePayload(
  session: Session,
  { includeRuns, includeLabels = true }: ShareOptions,
): Omit<Session, 'id' | 'createdAt' | 'updatedAt'> {
  const clean = scrubSecrets(session);
  const compare = clean.compare && !includeRuns ? { ...clean.compare, runIds: {} } : clean.compare;
  const alignment = clean.alignment && !includeLabels ? withoutLabels(clean.alignment) : clean.alignment;
  return {
    schemaVersion: SESSION_SCHEMA_VERSION,
    name: clean.name,
    doc: clean.doc,
    ...(compare ? { compare } : {}),
    runs: includeRuns ? clean.runs : [],
    // The robustness cards are a few hundred bytes of findings, not runs: they travel with every link.
    ...(clean.robustness ? { robustness: clean.robustness } : {}),
    ...(alignment ? { alignment } : {}),
    // The ledger travels with every link: a variant counted here must be counted where the link is opened.
    ...(clean.ledger ? { ledger: clean.ledger } : {}),
  };
}

function toBase64Url(bytes: Uint8Array): string {
  let binary = '';
  const CHUNK = 0x8000; // String.fromCharCode takes its arguments on the stack
  for (let i = 0; i < bytes.length; i += CHUNK)
    binary += String.fromCharCode(...bytes.subarray(i, i + CHUNK));
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64Url(text: string): Uint8Array {
  const base64 = text.replace(/-/g, '+').replace(/_/g, '/');
  const binary = atob(base64 + '='.repeat((4 - (base64.length % 4)) % 4));
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** The fragment (`#share=v1.…`) that carries this session. */
export function encodeShareFragment(session: Session, options: ShareOptions): string {
  const json = JSON.stringify(sharePayload(session, options));
  return `${SHARE_FRAGMENT_PREFIX}${SHARE_LINK_VERSION}.${toBase64Url(deflateSync(strToU8(json), { level: 9 }))}`;
}

/** Human labels a link leaves out to fit: how many labelled rows, and how long the link would be with them. */
export interface LabelsLeftOut {
  rows: number;
  length: number;
}

/** A share link, or why there is none (too long: the caller offers a file export instead). */
export type ShareLinkResult =
  | { ok: true; url: string; length: number; labelsLeftOut?: LabelsLeftOut }
  | { ok: false; reason: string; length: number };

/** The sentence that tells the sender a link goes without the report's human labels (the file keeps them). */
export function labelsLeftOutSentence(left: LabelsLeftOut): string {
  const rows = left.rows.toLocaleString('en-US');
  return `The human labels of ${rows} row${left.rows === 1 ? '' : 's'} are left out of this link: with them it would be ${left.length.toLocaleString('en-US')} characters, more than ${MAX_SHARE_URL_LENGTH.toLocaleString('en-US')}. Export the session as a file to send the labels too.`;
}

/**
 * The share link for a session on the page at `pageUrl` (its own fragment replaced). When it would be longer than
 * MAX_SHARE_URL_LENGTH only because of the alignment report's human labels, the link leaves them out and says so in
 * `labelsLeftOut`; otherwise a link too long is `ok: false` with a sentence.
 */
export function encodeShareLink(
  session: Session,
  options: { pageUrl: string; includeRuns: boolean },
): ShareLinkResult {
  const base = options.pageUrl.replace(/#.*$/, '');
  const url = `${base}${encodeShareFragment(session, options)}`;
  if (url.length <= MAX_SHARE_URL_LENGTH) return { ok: true, url, length: url.length };
  const labelled = session.alignment?.labels?.length ?? 0;
  if (labelled > 0) {
    const bare = `${base}${encodeShareFragment(session, { ...options, includeLabels: false })}`;
    if (bare.length <= MAX_SHARE_URL_LENGTH)
      return {
        ok: true,
        url: bare,
        length: bare.length,
        labelsLeftOut: { rows: labelled, length: url.length },
      };
  }
  const runsHint =
    options.includeRuns && session.runs.length > 0
      ? ' Sharing without the runs makes it shorter; or share the file.'
      : ' Share the file instead.';
  return {
    ok: false,
    length: url.length,
    reason: `This session makes a link of ${url.length.toLocaleString('en-US')} characters, longer than browsers and chat apps reliably keep (${MAX_SHARE_URL_LENGTH.toLocaleString('en-US')}).${runsHint}`,
  };
}

/** Inflates raw deflate data, refusing output beyond `limit` bytes. */
function inflateCapped(data: Uint8Array, limit: number): Uint8Array {
  const chunks: Uint8Array[] = [];
  let size = 0;
  const inflate = new Inflate((chunk) => {
    size += chunk.length;
    if (size > limit) throw new RangeError('too large');
    chunks.push(chunk);
  });
  inflate.push(data, true);
  const out = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return out;
}

/** Reading a link: nothing to read, the shared session, or one sentence why it cannot be read. */
export type ShareDecodeResult = { ok: true; shared: SharedSession } | { ok: false; message: string };

/** True when a location hash carries a share link. */
export const isShareFragment = (hash: string): boolean => hash.startsWith(SHARE_FRAGMENT_PREFIX);

/**
 * Reads a location hash (`#share=v1.…`). Returns null when the hash is not a share link at all. Never throws.
 */
export function decodeShareFragment(hash: string): ShareDecodeResult | null {
  if (!isShareFragment(hash)) return null;
  const value = hash.slice(SHARE_FRAGMENT_PREFIX.length).trim();
  const dot = value.indexOf('.');
  const version = dot < 0 ? '' : value.slice(0, dot);
  const data = dot < 0 ? '' : value.slice(dot + 1);
  if (version !== SHARE_LINK_VERSION) {
    return {
      ok: false,
      message: /^v\d+$/.test(version)
        ? `This share link was made by a newer version of Evaluate Workbench (${version}); update the workbench to open it.`
        : 'This share link is damaged: it does not start with a known version; ask for the link again.',
    };
  }
  if (!/^[A-Za-z0-9_-]+$/.test(data)) {
    return {
      ok: false,
      message:
        'This share link is damaged: it holds characters a share link never has; it may have been cut or edited.',
    };
  }
  let json: string;
  try {
    json = strFromU8(inflateCapped(fromBase64Url(data), MAX_SHARE_JSON_BYTES));
  } catch (error) {
    return {
      ok: false,
      message:
        error instanceof RangeError
          ? 'This share link expands to more data than a session may hold; it was not opened.'
          : 'This share link is damaged or incomplete: it may have been cut when it was copied; ask for the link again.',
    };
  }
  let raw: unknown;
  try {
    raw = JSON.parse(json);
  } catch {
    return { ok: false, message: 'This share link is damaged: its content is not readable.' };
  }
  const envelope = ShareEnvelopeSchema.safeParse(raw);
  if (!envelope.success)
    return { ok: false, message: 'This share link does not hold an Evaluate Workbench session.' };
  try {
    const session = migrateSession({
      ...envelope.data,
      id: 'shared',
      createdAt: '',
      updatedAt: '',
    });
    return {
      ok: true,
      shared: {
        name: session.name,
        doc: session.doc,
        ...(session.compare ? { compare: session.compare } : {}),
        runs: session.runs,
        ...(session.robustness ? { robustness: session.robustness } : {}),
        ...(session.alignment ? { alignment: session.alignment } : {}),
        ...(session.ledger ? { ledger: session.ledger } : {}),
      },
    };
  } catch (error) {
    return {
      ok: false,
      message: error instanceof Error ? error.message : 'This share link does not hold a readable session.',
    };
  }
}

/** The session to store for a shared one: a new id and times, and its runs marked as replayed (not sent from here). */
export function sessionFromShared(shared: SharedSession, id: string, now: Date = new Date()): Session {
  const at = now.toISOString();
  return {
    schemaVersion: SESSION_SCHEMA_VERSION,
    id,
    name: shared.name,
    createdAt: at,
    updatedAt: at,
    doc: shared.doc,
    runs: shared.runs.map((run) => ({ ...run, replayed: true })),
    ...(shared.compare ? { compare: shared.compare } : {}),
    ...(shared.robustness ? { robustness: shared.robustness } : {}),
    ...(shared.alignment ? { alignment: shared.alignment } : {}),
    ...(shared.ledger ? { ledger: shared.ledger } : {}),
  };
}
