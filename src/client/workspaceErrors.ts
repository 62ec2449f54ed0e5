// Why a call to the team workspace failed, as a kind the page can act on and one sentence for a person. The server's
// own sentence (never a token) is kept and quoted; the kind decides what the page offers next (sign in again, retry).
import { WorkspaceErrorSchema } from '../contract/workspace';
import { plural } from '../contract/text';

/** What went wrong, in one word. */
export type WorkspaceFailureKind =
  | 'network'
  | 'timeout'
  | 'cancelled'
  | 'signed_out'
  | 'forbidden'
  | 'not_found'
  | 'conflict'
  | 'refused'
  | 'too_many'
  | 'server'
  | 'bad_response';

export interface WorkspaceCallErrorInit {
  kind: WorkspaceFailureKind;
  message: string;
  status?: number;
  /** The server's error type and sentence, when it sent one. */
  serverType?: string;
  serverMessage?: string;
  attempts: number;
  cause?: unknown;
}

/** A failed workspace call after the retry policy ran its course. `message` is one sentence for a person. */
export class WorkspaceCallError extends Error {
  override readonly name = 'WorkspaceCallError';
  readonly kind: WorkspaceFailureKind;
  readonly status?: number;
  readonly serverType?: string;
  readonly serverMessage?: string;
  readonly attempts: number;

  constructor(init: WorkspaceCallErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.kind = init.kind;
    this.status = init.status;
    this.serverType = init.serverType;
    this.serverMessage = init.serverMessage;
    this.attempts = init.attempts;
  }

  /** True when the same call may succeed later: the connection or the server, not the request. */
  get retryable(): boolean {
    return (
      this.kind === 'network' || this.kind === 'timeout' || this.kind === 'server' || this.kind === 'too_many'
    );
  }
}

export const isWorkspaceCallError = (error: unknown): error is WorkspaceCallError =>
  error instanceof WorkspaceCallError;

const clause = (s: string): string => s.trim().replace(/[.!?]+$/, '');

/** The server's type and sentence from an error body, or a plain sentence for the status when it sent none. */
export function readWorkspaceError(status: number, text: string): { type?: string; message: string } {
  try {
    const parsed = WorkspaceErrorSchema.safeParse(JSON.parse(text));
    if (parsed.success) return { type: parsed.data.error.type, message: parsed.data.error.message };
  } catch {
    // Not JSON: a short plain body is the sentence, anything else (an HTML page) is not shown.
  }
  const plain = text.trim();
  return { message: plain && plain.length <= 300 && !plain.startsWith('<') ? plain : `HTTP ${status}` };
}

/** The kind of a refused status. */
export function statusFailureKind(status: number): WorkspaceFailureKind {
  if (status === 401) return 'signed_out';
  if (status === 403) return 'forbidden';
  if (status === 404) return 'not_found';
  if (status === 409 || status === 410) return 'conflict';
  if (status === 429) return 'too_many';
  if (status === 408 || status >= 500) return 'server';
  return 'refused';
}

/** The sentence for a refused status: what the server said, and what to do. */
export function statusSentence(status: number, serverMessage: string, attempts: number): string {
  const said = `${clause(serverMessage)} (${status})`;
  switch (statusFailureKind(status)) {
    case 'signed_out':
      return `${said}: the workspace does not know this browser; open your invite link or owner link again.`;
    case 'forbidden':
      return `${said}: this person may not do that in the workspace.`;
    case 'too_many':
      return `${said}: too many tries; wait a minute, then try again.`;
    case 'server':
      return `${said}: the workspace failed after ${plural(attempts, 'attempt')}; try again in a moment.`;
    default:
      return `${said}.`;
  }
}

/** The sentence when nothing came back. */
export function unreachableSentence(url: string, detail: string, attempts: number): string {
  return `Could not reach the workspace at ${url} (${clause(detail)}) after ${plural(attempts, 'attempt')}; check the connection and that the workbench is running.`;
}

/** The sentence when the answer did not match the contract. */
export function badResponseSentence(status: number, what: string, problem: string): string {
  return `The workspace answered ${status} but not with a valid ${what} (${clause(problem)}); the page and the server may be of different versions: reload the page.`;
}
