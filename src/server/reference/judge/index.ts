// The local reference judge: deterministic, content-driven answers from lexical evidence. Not a language model.
import type { Answer, EvaluateRequest } from '../../../contract';
import { noulAnswer, choiceAnswer, scoreAnswer, softmax } from './answers';
import { scoreQuery } from './bm25';
import type { JudgeConfig, ModelVersion } from './config';
import { JUDGE_CONFIGS } from './config';
import type { Affect } from './lexicon';
import type { CompiledChoice, CompiledNoul, CompiledScore } from './questions';
import { compiledQuestion } from './questions';
import { cachedPerVersion, stateKeyOf } from '../contentKey';
import { Lru } from './lru';
import type { StateField } from './state';
import { readState, weightedState } from './state';
import type { TextProfile } from './text';
import { toneOf } from './text';

export type { JudgeConfig, ModelVersion } from './config';
export { JUDGE_CONFIGS, MODEL_VERSIONS } from './config';

/** A state with no tone cues reads as mildly calm and not pressing (one pseudo-cue at this point). */
export const NEUTRAL_TONE: Affect = Object.freeze({ distress: -0.15, urgency: -0.1 });
// How much a label's tone agreeing with the state's tone adds to a choice logit.
const CHOICE_TONE_GAIN = 3;

interface Query {
  profile: TextProfile;
  tone: Affect;
}

const dot = (a: Affect, b: Affect): number => a.distress * b.distress + a.urgency * b.urgency;
const logistic = (x: number): number => 1 / (1 + Math.exp(-x));

function judgeChoice(q: CompiledChoice, state: Query, cfg: JudgeConfig): Answer {
  const lexical = scoreQuery(q.collection, state.profile.terms, cfg);
  const logits = q.labels.map(
    (_, i) =>
      lexical[i]! +
      cfg.affectWeight * CHOICE_TONE_GAIN * dot(state.tone, q.tones[i]!) +
      (q.catchAll[i] ? cfg.catchAllPrior : 0),
  );
  return choiceAnswer(q.labels, softmax(logits, cfg.temperature));
}

function judgeScore(q: CompiledScore, state: Query, cfg: JudgeConfig): Answer {
  const lexical = scoreQuery(q.collection, state.profile.terms, cfg);
  // Where the state sits on the scale: by its tone when the levels are worded by tone, otherwise by how much it
  // reads like the question's quality (instructions and top level).
  let position: number;
  let bellWeight: number;
  if (q.axis) {
    position = (dot(state.tone, q.axis.direction) - q.axis.min) / q.axis.span;
    bellWeight = cfg.affectWeight;
  } else {
    const [quality = 0] = scoreQuery(q.quality, state.profile.terms, cfg);
    position = 1 - Math.exp(-Math.max(0, quality));
    bellWeight = 1;
  }
  const width2 = 2 * cfg.scaleWidth * cfg.scaleWidth;
  const logits = q.positions.map((p, i) => lexical[i]! - (bellWeight * (position - p) ** 2) / width2);
  return scoreAnswer(q.levels, softmax(logits, cfg.temperature));
}

function judgeNoul(q: CompiledNoul, state: Query, cfg: JudgeConfig): Answer {
  const [yes = 0, no = 0] = scoreQuery(q.collection, state.profile.terms, cfg);
  const toneAlignment = dot(state.tone, q.direction) * q.toneStrength;
  const logit =
    cfg.noulBias + cfg.noulLexicalGain * (yes - no) + cfg.affectWeight * cfg.noulAffectGain * toneAlignment;
  return noulAnswer(logistic(logit));
}

// A state sent again (to another model version, with reworded questions, or repeated by a robustness check) is read
// once per version. Bounded by bytes: a reading holds term maps a few times the size of the state's JSON.
const STATE_CACHE_LIMIT = 2_000;
const STATE_CACHE_BYTES = 32 * 1024 * 1024;
const READING_BYTES_PER_JSON_CHAR = 8;
const readings = new Lru<string, readonly StateField[]>(STATE_CACHE_LIMIT, STATE_CACHE_BYTES);

function stateFields(
  state: EvaluateRequest['state'],
  version: ModelVersion,
  cfg: JudgeConfig,
): readonly StateField[] {
  return cachedPerVersion(readings, version, stateKeyOf(state), READING_BYTES_PER_JSON_CHAR, () =>
    readState(state, cfg),
  );
}

/** Entries and estimated bytes of the state-reading cache, for measuring the service's memory. */
export const stateReadingCacheStats = (): { entries: number; bytes: number } => ({
  entries: readings.size,
  bytes: readings.bytes,
});

function queryFor(fields: readonly StateField[], named: readonly string[], cfg: JudgeConfig): Query {
  const profile = weightedState(fields, named, cfg);
  return { profile, tone: toneOf(profile, NEUTRAL_TONE) };
}

/**
 * Answers every question of a request under one model version: one answer per question, in question order.
 * Pure and deterministic: the same request and version always give the same answers.
 */
export function judge(request: EvaluateRequest, version: ModelVersion): Record<string, Answer> {
  const cfg = JUDGE_CONFIGS[version];
  const fields = stateFields(request.state, version, cfg);
  // Questions naming the same fields share one weighted reading of the state.
  const queries = new Map<string, Query>();
  const entries = Object.entries(request.questions).map(([name, question]): [string, Answer] => {
    const compiled = compiledQuestion(question, version, cfg);
    const key = compiled.named.join('\u0000');
    let query = queries.get(key);
    if (!query) {
      query = queryFor(fields, compiled.named, cfg);
      queries.set(key, query);
    }
    switch (compiled.type) {
      case 'choice':
        return [name, judgeChoice(compiled, query, cfg)];
      case 'score':
        return [name, judgeScore(compiled, query, cfg)];
      case 'noul':
        return [name, judgeNoul(compiled, query, cfg)];
    }
  });
  return Object.fromEntries(entries);
}
