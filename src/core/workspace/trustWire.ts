// The workspace's figures as src/core/trust reads them: the server sends each question's ratings as plain arrays
// (TrustDataWire) and the page computes the ceiling, the alt-test and the threshold with the same code as the
// alignment screen, so a queue's figures and a file's figures are one computation.
import type { FiguresBasis, TrustDataWire } from '../../contract/workspace';
import { MISSING } from '../trust/ratings';
import type { TrustData } from '../trust/ratings';

/** The wire's arrays as TrustData's typed arrays (-1 and null read as missing). */
export function trustDataFromWire(wire: TrustDataWire): TrustData {
  const n = wire.judge.length;
  if (wire.ratings.length !== n * wire.annotators.length)
    throw new Error(
      `The workspace sent ${wire.ratings.length} ratings for ${n} rows and ${wire.annotators.length} people.`,
    );
  const K = wire.classes.length;
  const valid = (v: number): number => (v >= 0 && v < K ? v : MISSING);
  return {
    type: wire.type,
    classes: [...wire.classes],
    annotators: [...wire.annotators],
    ratings: Int32Array.from(wire.ratings, valid),
    judge: Int32Array.from(wire.judge, valid),
    confidence: Float64Array.from(wire.confidence, (c) => (c === null ? Number.NaN : c)),
  };
}

/** What a figure used, in the words every figure of the workspace carries. */
export const BASIS_WORDS: Record<FiguresBasis, string> = {
  each: 'each person apart',
  majority: 'the majority of each row’s labels',
  settled: 'the settled label where the owner set one, else the majority',
};
