// The redacting logger: no configured key reaches a log line, whatever the line is made of.
import { expect, it } from 'vitest';
import { redactBody } from '../../../../src/server/proxy/app';
import { createLogger, redact } from '../../../../src/server/proxy/log';
import type { LogLevel } from '../../../../src/server/proxy/log';

it('replaces every occurrence of every secret', () => {
  expect(redact('a sk-1 b sk-1 c sk-2', ['sk-1', 'sk-2'])).toBe('a [redacted] b [redacted] c [redacted]');
});

it('redacts the longer of two overlapping secrets whole', () => {
  expect(redact('key=abc-def', ['abc', 'abc-def'])).toBe('key=[redacted]');
});

// A service may echo the key inside a JSON string, where quotes, backslashes and slashes come escaped.
it('redacts a key echoed JSON-escaped, in a log line and in a body', () => {
  const key = 'ab/c"d\\e';
  const echoed = JSON.stringify({ error: `bad key ${key}` });
  const slashed = echoed.replaceAll('/', '\\/');
  expect(echoed).not.toContain(key);
  expect(redact(echoed, [key])).toBe('{"error":"bad key [redacted]"}');
  expect(redactBody(Buffer.from(slashed), [key]).toString()).toBe('{"error":"bad key [redacted]"}');
});

it('ignores empty secrets instead of redacting everything', () => {
  expect(redact('nothing to hide', [''])).toBe('nothing to hide');
});

it('writes each level through redaction', () => {
  const lines: [LogLevel, string][] = [];
  const logger = createLogger({ secrets: ['s3cr3t'], write: (level, line) => lines.push([level, line]) });
  logger.info('info s3cr3t');
  logger.warn('warn s3cr3t');
  logger.error('error s3cr3t');
  expect(lines).toEqual([
    ['info', 'info [redacted]'],
    ['warn', 'warn [redacted]'],
    ['error', 'error [redacted]'],
  ]);
});
