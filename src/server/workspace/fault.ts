// A refusal or error the workspace answers with: a status, a type and a sentence for a person, never a token.
export class WorkspaceFault extends Error {
  override readonly name = 'WorkspaceFault';
  constructor(
    readonly status: 400 | 401 | 403 | 404 | 409 | 413 | 429,
    readonly type: string,
    message: string,
  ) {
    super(message);
  }
}
