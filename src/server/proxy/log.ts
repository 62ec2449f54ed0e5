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

/** Replaces every occurrence of every secret in `text` with [redacted]; longer secrets first, so overlaps go whole. */
export function redact(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of [...secrets].sort((a, b) => b.length - a.length)) {
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
