// The robustness report in the session record: optional (older sessions still parse), carried by export files and
// share links, refused when damaged rather than half-read.
import { describe, expect, it } from 'vitest';
import type { RobustnessReport } from '../../../../src/core/robustness/card';
import { SessionSchema } from '../../../../src/core/session';
import { exportFile, parseImportFile } from '../../../../src/core/sessionFile';
import { decodeShareFragment, encodeShareFragment, sessionFromShared } from '../../../../src/core/shareLink';
import { sampleSession } from '../../../helpers/sessions';

const report: RobustnessReport = {
  id: 'check-1',
  at: '2026-03-01T10:10:00.000Z',
  targetId: 'local',
  model: 'model-1.13.0',
  source: { kind: 'state' },
  settings: { orders: 3, repeats: 5, variants: ['whitespace', 'casing'], threshold: 0.05, seed: 1 },
  requests: 9,
  reused: 1,
  sent: 8,
  failed: 0,
  estimatedCost: 0.000022,
  billedTokens: 520,
  identicalAnswers: true,
  cards: [
    {
      question: 'department',
      type: 'choice',
      verdict: 'moves_with_order',
      summary: 'Position bias: the option sent first gains 21 percentage points on average.',
      order: {
        comparisons: 2,
        topChanges: 1,
        maxTvd: 0.31,
        spread: { billing: 0.3, technical: 0.25, other: 0.1 },
        firstGain: 0.21,
        lastGain: -0.08,
        positionBias: 'first',
      },
      repetition: {
        requests: 5,
        maxTvd: 0,
        spread: { billing: 0 },
        noiseSd: 0,
        topChanges: 0,
        identical: true,
      },
      variants: [{ kind: 'casing', states: 1, maxTvd: 0, topChanges: 0, flagged: false }],
    },
  ],
};

describe('the robustness report in a session', () => {
  it('is optional: a session saved before it parses unchanged', () => {
    const old = sampleSession();
    expect(SessionSchema.parse(old)).toEqual(old);
    expect(SessionSchema.parse({ ...old, robustness: report }).robustness).toEqual(report);
  });

  it('travels in a share link, with or without the runs, and lands in the imported session', () => {
    const session = { ...sampleSession(), robustness: report };
    for (const includeRuns of [false, true]) {
      const decoded = decodeShareFragment(encodeShareFragment(session, { includeRuns }));
      expect(decoded?.ok).toBe(true);
      if (!decoded?.ok) return;
      expect(decoded.shared.robustness).toEqual(report);
      expect(sessionFromShared(decoded.shared, 'new-id').robustness).toEqual(report);
    }
    const plain = decodeShareFragment(encodeShareFragment(sampleSession(), { includeRuns: true }));
    expect(plain?.ok && 'robustness' in plain.shared).toBe(false);
  });

  it('travels in an export file', () => {
    const parsed = parseImportFile(exportFile([{ ...sampleSession(), robustness: report }]));
    expect(parsed.ok && parsed.sessions[0]!.robustness).toEqual(report);
  });

  it('refuses a damaged report instead of reading half of it', () => {
    const damaged = {
      ...sampleSession(),
      robustness: { ...report, cards: [{ question: 'x', verdict: 'wobbly' }] },
    };
    expect(SessionSchema.safeParse(damaged).success).toBe(false);
  });
});
