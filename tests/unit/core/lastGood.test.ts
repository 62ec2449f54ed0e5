import { describe, expect, it } from 'vitest';
import { lastGoodRun } from '../../../src/core/lastGood';
import type { RunIdentity } from '../../../src/core/lastGood';

const run = (id: string, at: string, targetId: string, model: string, answered = true): RunIdentity => ({
  id,
  at,
  targetId,
  model,
  answered,
});

describe('lastGoodRun (issue 29 item 2: a failed run never shows another target as its own)', () => {
  const failing = run('now', '2026-11-26T10:05:00Z', 'cloudflare', 'clef', false);

  it("ignores another target's answer, even with the same model id", () => {
    expect(lastGoodRun(failing, [run('a', '2026-11-26T10:00:00Z', 'local', 'clef')])).toBeUndefined();
  });

  it("prefers the same model's answer on the same target, and falls back to another model's there only", () => {
    const sameTarget = [
      run('same-model', '2026-11-26T09:00:00Z', 'cloudflare', 'clef'),
      run('other-model', '2026-11-26T10:00:00Z', 'cloudflare', 'other'),
    ];
    expect(lastGoodRun(failing, sameTarget)?.id).toBe('same-model');
    expect(lastGoodRun(failing, sameTarget.slice(1))?.id).toBe('other-model');
  });

  it('takes the latest earlier answer of the same target and model, never a later or unanswered one', () => {
    const runs = [
      run('old', '2026-11-26T09:00:00Z', 'cloudflare', 'clef'),
      run('good', '2026-11-26T10:00:00Z', 'cloudflare', ' clef '),
      run('failed', '2026-11-26T10:01:00Z', 'cloudflare', 'clef', false),
      run('later', '2026-11-26T11:00:00Z', 'cloudflare', 'clef'),
    ];
    expect(lastGoodRun(failing, runs)?.id).toBe('good');
  });
});
