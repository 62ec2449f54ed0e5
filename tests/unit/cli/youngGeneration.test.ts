// The command's processes keep V8's young generation small: once capYoungGeneration is called, the space stops
// growing at the cap (one doubling past it at most, between two looks), where an uncapped process under the same
// allocation grows it to V8's default ceiling. Each in its own process, so the test runner's heap is left alone.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { YOUNG_CAP_BYTES } from '../../../src/cli/memory';

const dir = mkdtempSync(join(tmpdir(), 'ew-young-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The young generation's size after a churn of short-lived rows with some kept, as a file read makes. */
function youngAfterChurn(cap: boolean): number {
  const memory = pathToFileURL(join(process.cwd(), 'src/cli/memory.ts')).href;
  const script = join(dir, `churn-${cap}.mts`);
  writeFileSync(
    script,
    `import { getHeapSpaceStatistics } from 'node:v8';
import { capYoungGeneration, collectWhenGrown } from ${JSON.stringify(memory)};
${cap ? 'capYoungGeneration();' : ''}
const kept: unknown[] = [];
for (let round = 0; round < 400; round++) {
  for (let i = 0; i < 5000; i++) {
    const row = JSON.parse(JSON.stringify({ row: i, text: 'a row of text ' + i, answers: { p: [0.1, 0.2, 0.7] } }));
    if (i % 50 === 0) kept.push(row);
  }
  if (kept.length > 20000) kept.splice(0, 10000);
  collectWhenGrown();
}
const young = getHeapSpaceStatistics().find((s) => s.space_name === 'new_space')!;
process.stdout.write(String(young.space_size));
`,
  );
  const run = spawnSync(process.execPath, ['--import', 'tsx', script], { encoding: 'utf8' });
  expect(run.status, run.stderr).toBe(0);
  return Number(run.stdout);
}

describe('capYoungGeneration', () => {
  it('holds the young generation at its cap where an uncapped process grows it past', () => {
    const capped = youngAfterChurn(true);
    const uncapped = youngAfterChurn(false);
    expect(capped).toBeLessThanOrEqual(2 * YOUNG_CAP_BYTES);
    expect(uncapped).toBeGreaterThan(2 * YOUNG_CAP_BYTES);
  });
});
