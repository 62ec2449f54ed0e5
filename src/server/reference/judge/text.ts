// Reads a text into what the judge compares: stemmed content terms (negated ones marked), concept tags and tone cues.
import { stemmer } from 'stemmer';
import type { Affect } from './lexicon';
import {
  CONCEPTS,
  CUES_BY_FIRST_STEM,
  DOWN_AFTER,
  FAULT_CONCEPT,
  MALFUNCTION,
  MALFUNCTION_WHEN_NEGATED,
  NEGATORS,
  SCOPE_BREAKERS,
  STOPWORDS,
} from './lexicon';

/** Marks a negated feature ("not refund" -> "¬refund"). */
export const NEG = '¬';
/** Marks a concept feature ("charged" -> "#money"). */
export const CONCEPT = '#';

/** What the judge knows about one text: feature counts and the sum of its tone cues. */
export interface TextProfile {
  /** Feature -> count: stems, "¬stem" for negated stems, "#concept" / "¬#concept" for concept tags. */
  terms: Map<string, number>;
  /** Sum of the cues' pushes, and how many cues were read (weighted). */
  affect: Affect;
  cues: number;
  /** Number of content terms, the BM25 document length. */
  length: number;
}

/** How the reader treats negation and phrases; the judge version decides. */
export interface ReadSettings {
  negationWindow: number;
  phraseCues: boolean;
}

// Words (letters/digits, with inner apostrophes) and the punctuation that ends a negation's scope.
const TOKEN = /[\p{L}\p{N}]+(?:['’][\p{L}\p{N}]+)*|[.,;:!?]/gu;
const APOSTROPHES = /['’]/g;

interface WordInfo {
  stem: string;
  stop: boolean;
  negator: boolean;
  concepts: readonly string[] | undefined;
  malfunction: boolean;
}

// Stemming is the costly part of reading; words repeat across requests, so remember them (bounded). Only words up to
// MAX_CACHED_WORD characters are kept, so the cache holds at most about 50,000 x 64 characters whatever is sent.
const WORD_CACHE_LIMIT = 50_000;
const MAX_CACHED_WORD = 64;
const wordCache = new Map<string, WordInfo>();

function wordInfo(word: string): WordInfo {
  const cached = wordCache.get(word);
  if (cached) return cached;
  const negator = word.endsWith("n't") || word.endsWith('n’t') || NEGATORS.has(word.replace(APOSTROPHES, ''));
  const plain = word.replace(APOSTROPHES, '');
  const stem = stemmer(plain);
  const info: WordInfo = {
    stem,
    stop: STOPWORDS.has(plain) || STOPWORDS.has(word),
    negator,
    concepts: CONCEPTS.get(stem),
    malfunction: MALFUNCTION.has(stem),
  };
  if (word.length > MAX_CACHED_WORD) return info;
  if (wordCache.size >= WORD_CACHE_LIMIT) wordCache.clear();
  wordCache.set(word, info);
  return info;
}

/** A token as the reader sees it: a word or a punctuation mark. */
interface Token {
  stem: string;
  punct: boolean;
  info: WordInfo | null;
}

/** Entries of the word cache, for measuring the service's memory. */
export const wordCacheSize = (): number => wordCache.size;

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  // match() with a global regex yields plain strings: cheaper than matchAll's match objects on long states.
  for (const raw of text.toLowerCase().match(TOKEN) ?? []) {
    if (raw.length === 1 && '.,;:!?'.includes(raw)) tokens.push({ stem: raw, punct: true, info: null });
    else {
      const info = wordInfo(raw);
      tokens.push({ stem: info.stem, punct: false, info });
    }
  }
  return tokens;
}

const add = (map: Map<string, number>, key: string, n: number): void => {
  map.set(key, (map.get(key) ?? 0) + n);
};

/** An empty profile, to which texts are added. */
export const emptyProfile = (): TextProfile => ({
  terms: new Map(),
  affect: { distress: 0, urgency: 0 },
  cues: 0,
  length: 0,
});

const FAULT = CONCEPT + FAULT_CONCEPT;

/**
 * Reads `text` into `into` with weight `weight` (a field's weight). A negated word is "¬stem" for the next
 * `negationWindow` content terms after a negator, until punctuation or "but"; a negated cue pushes half the other way.
 * A text that states a malfunction ("failing", "is down", "not working") gets `malfunctionWeight - 1` extra mentions of
 * the fault concept, once however many such words it has: the state is read with the version's weight, criteria with 1.
 */
export function readText(
  text: string,
  settings: ReadSettings,
  into: TextProfile = emptyProfile(),
  weight = 1,
  malfunctionWeight = 1,
): TextProfile {
  if (text === '' || weight === 0) return into;
  const tokens = tokenize(text);
  let negLeft = 0;
  let cueSkip = 0;
  // Whether the text states (or denies) a malfunction: the boost is given once, not per word.
  let statedFault = false;
  let deniedFault = false;
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    const negated = negLeft > 0;
    // Cues first: phrases may span stopwords ("all sorted", "as soon as possible").
    if (cueSkip > 0) cueSkip--;
    else {
      const candidates = CUES_BY_FIRST_STEM.get(token.stem);
      if (candidates) {
        for (const cue of candidates) {
          if (cue.stems.length > 1 && !settings.phraseCues) continue;
          if (!matchesPhrase(tokens, i, cue.stems)) continue;
          const sign = negated ? -0.5 : 1;
          into.affect.distress += sign * cue.distress * weight;
          into.affect.urgency += sign * cue.urgency * weight;
          into.cues += weight;
          cueSkip = cue.stems.length - 1;
          break;
        }
      }
    }
    if (token.punct) {
      negLeft = 0;
      continue;
    }
    const info = token.info!;
    if (info.negator) {
      negLeft = settings.negationWindow;
      continue;
    }
    if (SCOPE_BREAKERS.has(token.stem)) {
      negLeft = 0;
      continue;
    }
    // "down" is a stop word except where it says something is out of service ("the site is down").
    const down = token.stem === 'down' && i > 0 && DOWN_AFTER.has(tokens[i - 1]!.stem);
    if (info.stop && !down) continue;
    const prefix = negated ? NEG : '';
    add(into.terms, prefix + info.stem, weight);
    if (info.concepts) for (const c of info.concepts) add(into.terms, prefix + CONCEPT + c, weight);
    if (down) add(into.terms, prefix + FAULT, weight);
    if (info.malfunction || down) {
      if (negated) deniedFault = true;
      else statedFault = true;
    }
    // Right after a negator, "work", "load", "connect"... state a fault ("not working"), read besides "¬work".
    if (negated && negLeft === settings.negationWindow && MALFUNCTION_WHEN_NEGATED.has(info.stem)) {
      add(into.terms, FAULT, weight);
      statedFault = true;
    }
    into.length += weight;
    if (negLeft > 0) negLeft--;
  }
  if (malfunctionWeight !== 1) {
    if (statedFault) add(into.terms, FAULT, weight * (malfunctionWeight - 1));
    if (deniedFault) add(into.terms, NEG + FAULT, weight * (malfunctionWeight - 1));
  }
  return into;
}

function matchesPhrase(tokens: readonly Token[], at: number, stems: readonly string[]): boolean {
  for (let k = 1; k < stems.length; k++) {
    const t = tokens[at + k];
    if (!t || t.punct || t.stem !== stems[k]) return false;
  }
  return true;
}

/**
 * The tone of a profile as a point on (distress, urgency): the mean of its cues, shrunk towards `prior` by
 * `priorWeight` pseudo-cues, so one cue says less than three.
 */
export function toneOf(
  profile: TextProfile,
  prior: Affect = { distress: 0, urgency: 0 },
  priorWeight = 1,
): Affect {
  const n = profile.cues + priorWeight;
  if (n === 0) return { distress: 0, urgency: 0 };
  return {
    distress: (profile.affect.distress + prior.distress * priorWeight) / n,
    urgency: (profile.affect.urgency + prior.urgency * priorWeight) / n,
  };
}
