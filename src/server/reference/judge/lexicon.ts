// The judge's small built-in lexicon: stopwords, negators, a few concept groups and sentiment/urgency cues.
// Words are written plainly and stemmed once at load, so the lists stay readable.
import { stemmer } from 'stemmer';

/** Words that carry no topic (common English function words). Negators are not here: they are read first. */
export const STOPWORDS: ReadonlySet<string> = new Set(
  `a about above after again against all am an and any are as at be because been before being below between both but by
  can could did do does doing down during each few for from further had has have having he her here hers herself him
  himself his how i if in into is it its itself just me more most my myself of off on once only or other our ours
  ourselves out over own same she should so some such than that the their theirs them themselves then there these they
  this those through to too under until up very was we were what when where which while who whom why will with would you
  your yours yourself yourselves also may might must shall us let get got`
    .split(/\s+/)
    .filter(Boolean),
);

/** Words that negate the next few content terms. Contractions ending in n't are negators as well. */
export const NEGATORS: ReadonlySet<string> = new Set([
  'not',
  'no',
  'never',
  'none',
  'nobody',
  'nothing',
  'neither',
  'nor',
  'without',
  'cannot',
  'cant',
  'dont',
  'doesnt',
  'didnt',
  'isnt',
  'wasnt',
  'wont',
  'hasnt',
  'havent',
]);

/** Words that end a negation's scope. */
export const SCOPE_BREAKERS: ReadonlySet<string> = new Set(['but', 'however', 'although', 'though', 'yet']);

const stems = (words: readonly string[]): string[] => [
  ...new Set(words.map((w) => stemmer(w.toLowerCase()))),
];

/**
 * Concept groups: words of one group count as weak matches of each other, so "charged" supports "Payments and refunds"
 * and "failing" supports "Bugs and integrations". Kept to a handful of support-desk topics on purpose.
 */
const CONCEPT_WORDS: Record<string, readonly string[]> = {
  money: [
    'refund',
    'refunds',
    'charge',
    'charged',
    'payment',
    'payout',
    'paid',
    'pay',
    'invoice',
    'billing',
    'bill',
    'price',
    'fee',
    'cost',
    'money',
    'card',
    'subscription',
    'receipt',
    'overcharged',
    'credit',
    'bank',
    'transaction',
    'plan',
    'renewal',
    'discount',
    'tax',
    'chargeback',
  ],
  fault: [
    'bug',
    'error',
    'crash',
    'crashes',
    'crashed',
    'fail',
    'failing',
    'failed',
    'failure',
    'broken',
    'break',
    'glitch',
    'outage',
    'timeout',
    'exception',
    'integration',
    'api',
    'sdk',
    'webhook',
    'deploy',
    'server',
    'code',
    'technical',
    'slow',
    'freeze',
    'frozen',
    'buggy',
    'malfunction',
    'unresponsive',
  ],
  access: [
    'login',
    'log',
    'password',
    'account',
    'signin',
    'locked',
    'lockout',
    'authentication',
    'verification',
    'access',
    'username',
    'email',
    'reset',
    'permission',
  ],
  delivery: [
    'shipping',
    'ship',
    'delivery',
    'delivered',
    'package',
    'parcel',
    'tracking',
    'courier',
    'arrive',
    'arrived',
    'order',
    'dispatch',
    'shipment',
    'return',
    'warehouse',
  ],
  praise: [
    'thanks',
    'thank',
    'great',
    'love',
    'excellent',
    'awesome',
    'happy',
    'pleased',
    'appreciate',
    'wonderful',
    'perfect',
  ],
  complaint: [
    'complaint',
    'complain',
    'unacceptable',
    'terrible',
    'awful',
    'worst',
    'angry',
    'furious',
    'disappointed',
    'frustrated',
    'annoyed',
    'ridiculous',
    'useless',
  ],
};

/** Stem -> concept names it belongs to. */
export const CONCEPTS: ReadonlyMap<string, readonly string[]> = (() => {
  const map = new Map<string, string[]>();
  for (const [concept, words] of Object.entries(CONCEPT_WORDS)) {
    for (const s of stems(words)) map.set(s, [...(map.get(s) ?? []), concept]);
  }
  return map;
})();

/**
 * Malfunction words: they say what state a thing is in (failing, broken, down), where a topic word ("payouts",
 * "card") only names what is affected. In the state they are the stronger evidence for labels about faults, so the
 * state reader weighs them by the version's `malfunctionWeight`. All of them also carry the `fault` concept.
 */
export const MALFUNCTION: ReadonlySet<string> = new Set(
  stems([
    'bug',
    'buggy',
    'error',
    'crash',
    'crashes',
    'crashed',
    'crashing',
    'fail',
    'fails',
    'failing',
    'failed',
    'failure',
    'broken',
    'glitch',
    'outage',
    'timeout',
    'exception',
    'freeze',
    'frozen',
    'unresponsive',
    'malfunction',
  ]),
);

/** Words that state a malfunction when negated right away: "not working", "won't load", "can't connect". */
export const MALFUNCTION_WHEN_NEGATED: ReadonlySet<string> = new Set(
  stems(['work', 'load', 'respond', 'connect', 'sync']),
);

/** "down" states a malfunction after these ("the site is down", "payments went down"), not in "down payment". */
export const DOWN_AFTER: ReadonlySet<string> = new Set(
  stems(['is', 'are', 'was', 'were', 'be', 'been', 'being', 'went', 'go', 'goes', 'gone']),
);

/** The concept malfunction words carry, and that labels about bugs, errors and integrations carry. */
export const FAULT_CONCEPT = 'fault';

/** A cue's push on the two axes the judge reads from tone: distress (upset, hostile) and urgency (time pressure). */
export interface Affect {
  distress: number;
  urgency: number;
}

/**
 * Sentiment/intensity cues, each [words, distress, urgency] in -1..1. Multi-word cues are phrases
 * ("third time"); a phrase wins over its single words. "!" is a cue too.
 */
const CUES: ReadonlyArray<readonly [string, number, number]> = [
  // Upset, hostile, about to leave.
  ['angry', 1, 0.2],
  ['furious', 1, 0.3],
  ['outraged', 1, 0.3],
  ['livid', 1, 0.3],
  ['unacceptable', 0.9, 0.3],
  ['ridiculous', 0.8, 0.1],
  ['terrible', 0.8, 0],
  ['awful', 0.8, 0],
  ['worst', 0.9, 0],
  ['useless', 0.8, 0],
  ['frustrated', 0.7, 0.1],
  ['frustrating', 0.7, 0.1],
  ['annoyed', 0.6, 0],
  ['disappointed', 0.6, 0],
  ['upset', 0.6, 0],
  ['unhappy', 0.7, 0],
  ['fed up', 0.8, 0.1],
  ['sick of', 0.8, 0.1],
  ['cancel', 0.8, 0.3],
  ['threatening', 0.9, 0.2],
  ['threaten', 0.9, 0.2],
  ['leave', 0.5, 0],
  ['switch', 0.4, 0],
  ['lawyer', 1, 0.4],
  ['complaint', 0.6, 0.1],
  ['third time', 0.8, 0.3],
  ['again', 0.4, 0.1],
  ['still', 0.3, 0.1],
  ['waste', 0.6, 0],
  ['failing', 0.5, 0.4],
  ['broken', 0.5, 0.3],
  ['help', 0.3, 0.5],
  ['stuck', 0.4, 0.4],
  ['blocked', 0.4, 0.6],
  ['!', 0.2, 0.3],
  // Time pressure.
  ['urgent', 0.3, 1],
  ['urgency', 0.2, 1],
  ['urgently', 0.3, 1],
  ['asap', 0.3, 1],
  ['as soon as possible', 0.2, 1],
  ['immediately', 0.3, 0.9],
  ['right away', 0.2, 0.9],
  ['now', 0.1, 0.6],
  ['today', 0.2, 0.7],
  ['tonight', 0.1, 0.7],
  ['deadline', 0.2, 0.8],
  ['critical', 0.3, 0.8],
  ['emergency', 0.5, 1],
  ['time sensitive', 0.1, 1],
  ['quickly', 0.1, 0.5],
  ['soon', 0, 0.4],
  ['rush', 0.1, 0.7],
  ['hurry', 0.2, 0.8],
  // Calm, content, patient.
  ['thanks', -0.8, -0.3],
  ['thank', -0.8, -0.3],
  ['sorted', -0.5, -0.3],
  ['all sorted', -0.8, -0.4],
  ['resolved', -0.7, -0.4],
  ['great', -0.6, -0.1],
  ['happy', -0.7, 0],
  ['appreciate', -0.7, -0.1],
  ['love', -0.8, 0],
  ['fine', -0.4, -0.3],
  ['calm', -0.3, -0.3],
  ['civil', -0.3, 0],
  ['polite', -0.4, 0],
  ['facts', -0.1, -0.1],
  ['neutral', 0, 0],
  ['satisfied', -0.6, 0],
  ['delighted', -0.9, 0],
  ['patient', -0.5, -0.5],
  ['whenever', 0, -0.8],
  ['curious', -0.3, -0.3],
  ['wondering', -0.3, -0.3],
];

/** A cue after stemming: the stems in order and its push. */
export interface Cue extends Affect {
  stems: readonly string[];
}

/** Cues by their first stem, longest phrase first, so the reader tries phrases before single words. */
export const CUES_BY_FIRST_STEM: ReadonlyMap<string, readonly Cue[]> = (() => {
  const map = new Map<string, Cue[]>();
  for (const [words, distress, urgency] of CUES) {
    const cueStems = words === '!' ? ['!'] : words.split(' ').map((w) => stemmer(w));
    const first = cueStems[0]!;
    const list = map.get(first) ?? [];
    // Two surface words may stem alike ("threaten", "threatening"): keep the first entry.
    if (!list.some((c) => c.stems.join(' ') === cueStems.join(' ')))
      list.push({ stems: cueStems, distress, urgency });
    map.set(first, list);
  }
  for (const list of map.values()) list.sort((a, b) => b.stems.length - a.stems.length);
  return map;
})();

/** Labels that mean "none of the others": they get a prior so they win when nothing else matches. */
export const CATCH_ALL_LABELS: ReadonlySet<string> = new Set([
  'other',
  'others',
  'none',
  'unknown',
  'misc',
  'miscellaneous',
  'general',
  'n/a',
  'na',
  'neither',
  'unclear',
  'not applicable',
  'irrelevant',
]);
