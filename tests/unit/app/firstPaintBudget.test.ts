// The first-paint budget (issue 39): the JavaScript loaded before any screen's own code stays at or under 200 kB gzip.
// Builds the app in memory as `npm run bench bundle` does (one module weighs both); bytes, unlike times, are the same on
// every machine. On failure it prints each initial chunk beside the baseline below and names the one that grew.
import { expect, test } from 'vitest';
import {
  FIRST_PAINT_BUDGET_KB,
  buildApp,
  checkFirstPaintBudget,
  firstPaintWeights,
} from '../../../bench/lib/firstPaint';
import type { ChunkWeight } from '../../../bench/lib/firstPaint';
import baseline from './firstPaintBaseline.json';

// A build on a loaded 2-core machine can take a minute; the ceiling is not a speed assertion.
const BUILD_TIMEOUT_MS = 300_000;

test(
  `the JavaScript loaded at first paint is at most ${FIRST_PAINT_BUDGET_KB} kB gzip`,
  async () => {
    const { chunks } = firstPaintWeights(await buildApp());
    const verdict = checkFirstPaintBudget(chunks, baseline);
    if (!verdict.ok) console.error(verdict.report);
    expect(verdict.ok, verdict.report).toBe(true);
  },
  BUILD_TIMEOUT_MS,
);

const chunk = (name: string, kB: number): ChunkWeight => ({
  name,
  file: `assets/${name}-hash.js`,
  rawBytes: kB * 3 * 1024,
  gzipBytes: kB * 1024,
});

test('a build over the budget fails and the report names the chunk that grew', () => {
  const verdict = checkFirstPaintBudget([chunk('index', 150), chunk('schemas', 60)], {
    index: 150,
    schemas: 27,
  });
  expect(verdict.ok).toBe(false);
  expect(verdict.totalKb).toBe(210);
  expect(verdict.report).toContain('Grew most: schemas (+33.0 kB).');
  expect(verdict.report).toMatch(/index\s+150\.0\s+150\.0\s+0\.0/);
});

test('a chunk that was not in the baseline is named as new', () => {
  const verdict = checkFirstPaintBudget([chunk('index', 120), chunk('trust', 34)], { index: 120 });
  expect(verdict.ok).toBe(true);
  expect(verdict.report).toContain('Grew most: trust (new, 34.0 kB).');
});
