// The run bar's status line during retries: it names the attempt in flight and counts the retry wait down.
import { expect, it } from 'vitest';
import { progress } from '../../../src/app/features/workbench/Toolbar';
import type { AttemptRecord } from '../../../src/core/session';

const rateLimited: AttemptRecord = { attempt: 0, outcome: 429, durationMs: 30, retryInMs: 1000 };

it('names the first attempt before anything settles', () => {
  expect(progress([], 0)).toBe('Attempt 1 · waiting for the service…');
});

it('counts the retry wait down, then names the attempt in flight', () => {
  expect(progress([rateLimited], 0)).toBe('Attempt 1 · 429, retry in 1.00 s');
  expect(progress([rateLimited], 600)).toBe('Attempt 1 · 429, retry in 400 ms');
  expect(progress([rateLimited], 1000)).toBe('Attempt 2 · waiting for the service…');
  expect(progress([rateLimited, { ...rateLimited, attempt: 1 }], 1500)).toBe(
    'Attempt 3 · waiting for the service…',
  );
});
