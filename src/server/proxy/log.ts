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

const SIMPLE_ESCAPES: Record<string, string> = {
  '"': '"',
  '\\': '\\',
  '/': '/',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
};
const HEX4 = /^[0-9a-fA-F]{4}$/;

/**
 * The text with JSON string escapes decoded (`\u002B` -> `+`, `\/` -> `/`...), and for each decoded character the
 * offset in `text` where it starts (plus the end): a secret escaped in any mix of forms is found in the decoded text
 * and its span in the original replaced.
 */
function decodeEscapes(text: string): { decoded: string; starts: number[] } {
  const out: string[] = [];
  const starts: number[] = [];
  for (let i = 0; i < text.length;) {
    if (text[i] === '\\') {
      const next = text[i + 1] ?? '';
      if (next === 'u' && HEX4.test(text.slice(i + 2, i + 6))) {
        out.push(String.fromCharCode(parseInt(text.slice(i + 2, i + 6), 16)));
        starts.push(i);
        i += 6;
        continue;
      }
      const simple = SIMPLE_ESCAPES[next];
      if (simple !== undefined) {
        out.push(simple);
        starts.push(i);
        i += 2;
        continue;
      }
    }
    out.push(text[i]!);
    starts.push(i);
    i++;
  }
  starts.push(text.length);
  return { decoded: out.join(''), starts };
}

/** Replaces every secret written with JSON escapes (any mix: `\u0041`, `\u002b`, `\/`...) with [redacted]. */
function redactEscaped(text: string, secrets: readonly string[]): string {
  const { decoded, starts } = decodeEscapes(text);
  const spans: Array<[number, number]> = [];
  for (const secret of secrets) {
    if (secret === '') continue;
    for (let at = decoded.indexOf(secret); at !== -1; at = decoded.indexOf(secret, at + secret.length)) {
      spans.push([starts[at]!, starts[at + secret.length]!]);
    }
  }
  if (spans.length === 0) return text;
  spans.sort((a, b) => a[0] - b[0]);
  let out = '';
  let from = 0;
  for (const [start, end] of spans) {
    if (end <= from) continue;
    out += text.slice(from, Math.max(from, start)) + REDACTED;
    from = end;
  }
  return out + text.slice(from);
}

/**
 * Replaces every occurrence of every secret in `text` with [redacted]: raw, as written in a JSON string, and with
 * any of its characters `\u`-escaped. Longer secrets first, so overlaps go whole.
 */
export function redact(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secretForms(secrets)) {
    if (secret !== '' && out.includes(secret)) out = out.split(secret).join(REDACTED);
  }
  // Escapes are rare in what the proxy sees; decoding is only needed when a backslash is there at all.
  return out.includes('\\') ? redactEscaped(out, secrets) : out;
}

/** The body with every secret form replaced (see redact), or the same buffer when none occurs (no copy). */
export function redactBytes(body: Buffer<ArrayBuffer>, secrets: readonly string[]): Buffer<ArrayBuffer> {
  const kept = secrets.filter((s) => s !== '');
  const found = secretForms(kept).some((s) => body.includes(s));
  if (!found && !body.includes('\\u')) return body;
  const text = body.toString('utf8');
  const redacted = redact(text, kept);
  return redacted === text ? body : Buffer.from(redacted, 'utf8');
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
