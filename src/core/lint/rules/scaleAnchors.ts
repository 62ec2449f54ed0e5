// Generic low-to-high level descriptions, used by fixes that replace bare-number levels.

// Hand-picked so each scale reads as an ordered ladder of plain words; the user then tailors them to the question.
const SCALES: Record<number, readonly string[]> = {
  2: ['Low', 'High'],
  3: ['Low', 'Moderate', 'High'],
  4: ['Very low', 'Low', 'High', 'Very high'],
  5: ['Very low', 'Low', 'Moderate', 'High', 'Very high'],
  6: ['None', 'Very low', 'Low', 'High', 'Very high', 'Extreme'],
  7: ['None', 'Very low', 'Low', 'Moderate', 'High', 'Very high', 'Extreme'],
  8: ['None', 'Very low', 'Low', 'Somewhat low', 'Somewhat high', 'High', 'Very high', 'Extreme'],
  9: ['None', 'Very low', 'Low', 'Somewhat low', 'Moderate', 'Somewhat high', 'High', 'Very high', 'Extreme'],
  10: [
    'None',
    'Minimal',
    'Very low',
    'Low',
    'Somewhat low',
    'Somewhat high',
    'High',
    'Very high',
    'Extreme',
    'Maximal',
  ],
};

/** The generic description of level `index` on a scale of `count` levels, or null outside 2..10 levels. */
export const scaleAnchor = (count: number, index: number): string | null => SCALES[count]?.[index] ?? null;
