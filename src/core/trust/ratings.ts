// Several annotators' labels of one question as one typed-array matrix (rows by annotators), with the judge's
// prediction and confidence per row: 100,000 rows by 3 annotators are 1.2 MB of ratings, cloned to a worker as one
// block, and every figure of trust is a pass over numbers. The majority label of each row is read from it here.

/** A rating (or prediction) that is not there: the annotator did not rate the row, or the judge did not answer it. */
export const MISSING = -1;

export type TrustType = 'choice' | 'score' | 'noul';

/** One question's rows: every annotator's rating and the judge's answer. */
export interface TrustData {
  type: TrustType;
  /** The classes in index order: choice labels, score levels ('0'..'K-1'), noul ['no', 'yes']. */
  classes: string[];
  /** The annotators, named by their label column, in the order the majority's tie rule reads them. */
  annotators: string[];
  /** Row-major: ratings[i * A + a] is annotator a's class index (a score's level) on row i, or MISSING. */
  ratings: Int32Array;
  /** The judge's prediction per row as a class index (noul: 1 for yes at its threshold), or MISSING. */
  judge: Int32Array;
  /** The judge's top probability per row (noul: max(P(yes), P(no))), NaN where it did not answer. */
  confidence: Float64Array;
  /**
   * The judge's probabilities, `width` a row in class order (noul: P(yes) alone), read where `judge` has an answer:
   * the answer table's own array, never a copy. Absent when only hard labels are known.
   */
  probabilities?: { p: ArrayLike<number>; width: number };
}

export const rowCount = (data: TrustData): number => data.judge.length;

/**
 * Builds the matrix from one column per annotator (any array of class indices, with MISSING, NaN, null or any
 * negative value for a missing rating), checking every value is a class of the question.
 */
export function trustDataOf(input: {
  type: TrustType;
  classes: readonly string[];
  columns: Record<string, ArrayLike<number | null>>;
  judge: ArrayLike<number | null>;
  confidence?: ArrayLike<number>;
  probabilities?: { p: ArrayLike<number>; width: number };
}): TrustData {
  const annotators = Object.keys(input.columns);
  const n = input.judge.length;
  const A = annotators.length;
  const K = input.classes.length;
  const read = (v: number | null | undefined, where: string): number => {
    if (v === null || v === undefined || Number.isNaN(v) || v < 0) return MISSING;
    if (!Number.isInteger(v) || v >= K) throw new Error(`${where}: ${v} is not a class index below ${K}.`);
    return v;
  };
  const ratings = new Int32Array(n * A);
  annotators.forEach((name, a) => {
    const column = input.columns[name]!;
    if (column.length !== n) throw new Error(`Annotator ${name} has ${column.length} rows, the judge ${n}.`);
    for (let i = 0; i < n; i++) ratings[i * A + a] = read(column[i], `Annotator ${name}, row ${i + 1}`);
  });
  const judge = new Int32Array(n);
  const confidence = new Float64Array(n).fill(Number.NaN);
  for (let i = 0; i < n; i++) {
    judge[i] = read(input.judge[i], `The judge, row ${i + 1}`);
    if (judge[i] !== MISSING) confidence[i] = input.confidence ? input.confidence[i]! : Number.NaN;
  }
  const { probabilities } = input;
  const width = input.type === 'noul' ? 1 : K;
  if (probabilities && (probabilities.width !== width || probabilities.p.length !== n * width))
    throw new Error(
      `The judge's probabilities are ${probabilities.width} a row, ${probabilities.p.length} in all: a ${input.type} question of ${n} rows needs ${width} a row.`,
    );
  return {
    type: input.type,
    classes: [...input.classes],
    annotators,
    ratings,
    judge,
    confidence,
    ...(probabilities && { probabilities }),
  };
}

/**
 * The majority label of every row (MISSING where nobody rated it), for every type alike (agreement-metrics.md): the
 * most frequent label, a tie going to the first-listed annotator that gave one of the tied labels, as the row's own
 * label is set (core/labels majorityOf). A row with one rating has that label.
 */
export function majorityOf(data: TrustData): Int32Array {
  const A = data.annotators.length;
  const n = rowCount(data);
  const out = new Int32Array(n).fill(MISSING);
  const counts = new Int32Array(data.classes.length);
  const given = new Int32Array(A);
  for (let i = 0; i < n; i++) {
    let m = 0;
    for (let a = 0; a < A; a++) {
      const r = data.ratings[i * A + a]!;
      if (r !== MISSING) given[m++] = r;
    }
    if (m === 0) continue;
    let top = 0;
    for (let j = 0; j < m; j++) top = Math.max(top, ++counts[given[j]!]!);
    // The first-listed rating whose label reaches the top count wins: the stated tie rule.
    for (let j = 0; j < m; j++)
      if (counts[given[j]!] === top) {
        out[i] = given[j]!;
        break;
      }
    for (let j = 0; j < m; j++) counts[given[j]!] = 0;
  }
  return out;
}

/** How many annotators rated each row. */
export function ratingsPerRow(data: TrustData): Uint16Array {
  const A = data.annotators.length;
  const n = rowCount(data);
  const out = new Uint16Array(n);
  for (let i = 0; i < n; i++) {
    let m = 0;
    for (let a = 0; a < A; a++) if (data.ratings[i * A + a] !== MISSING) m++;
    out[i] = m;
  }
  return out;
}
