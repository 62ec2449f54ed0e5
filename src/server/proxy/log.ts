// The server's one logger: every line goes through redaction, so no configured key can reach a terminal or a log file.

/** Where a log line goes. */
export type LogLevel = 'info' | 'warn' | 'error';
export type LogWrite = (level: LogLevel, line: string) => void;

/** A logger whose lines never contain a configured secret. */
export interface Logger {
  info(line: string): void;
  warn(line: string): void;
  error(line: string): void;
}

export const REDACTED = '[redacted]';

/**
 * Each secret as it may appear in text: raw, and as written inside a JSON string (escaped quotes, backslashes,
 * control characters, and `/` as `\/`), so an echo in a JSON body is caught too. Longest first, so overlaps go whole.
 */
export function secretForms(secrets: readonly string[]): string[] {
  const forms = new Set<string>();
  for (const secret of secrets) {
    if (secret === '') continue;
    const json = JSON.stringify(secret).slice(1, -1);
    forms.add(secret).add(json).add(json.replaceAll('/', '\\/'));
  }
  return [...forms].sort((a, b) => b.length - a.length);
}

/** Replaces every occurrence of every secret in `text` with [redacted]; longer secrets first, so overlaps go whole. */
export function redact(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secretForms(secrets)) {
    if (secret !== '' && out.includes(secret)) out = out.split(secret).join(REDACTED);
  }
  return out;
}

const consoleWrite: LogWrite = (level, line) => {
  if (level === 'info') console.log(line);
  else console.error(line);
};

/** A logger that redacts `secrets` from every line before `write` (default: the console) sees it. */
export function createLogger({
  secrets,
  write = consoleWrite,
}: {
  secrets: readonly string[];
  write?: LogWrite;
}): Logger {
  const kept = secrets.filter((s) => s !== '');
  const emit = (level: LogLevel) => (line: string) => write(level, redact(line, kept));
  return { info: emit('info'), warn: emit('warn'), error: emit('error') };
}
