// Large taxonomies, planning: more labels than one choice question takes (255) become nested groups of at most 255
// options, each group described within a budget, so a coarse-to-fine run can choose a group per request.
import { MAX_OPTIONS } from '../../contract';
import { parseTaxonomy } from './parse';
import type { TaxonomyFormat, TaxonomyNode } from './parse';

/** A label the run can end on. */
export interface PlanLeaf {
  kind: 'leaf';
  /** The option's key in the request: the label itself. */
  key: string;
  description: string | null;
  /** Labels from the root of the pasted tree down to this one (automatic groups are not part of it). */
  path: string[];
}

/** A group offered as one option: a group of the pasted tree, or an automatic one that splits a long level. */
export interface PlanGroup {
  kind: 'group';
  /** The option's key in the request: the group's name (unique among its siblings). */
  key: string;
  /** True for groups the plan made to keep a level within 255 options; false for the tree's own groups. */
  auto: boolean;
  /** The description sent with the option: the tree's own text, then the labels it holds (truncated). */
  description: string;
  /** Labels from the root of the pasted tree down to this group (an automatic group adds nothing). */
  path: string[];
  options: PlanOption[];
  /** Labels anywhere below. */
  leafCount: number;
}

export type PlanOption = PlanLeaf | PlanGroup;

/** The coarse-to-fine plan: the options of the first request, each group holding the options of a later one. */
export interface TaxonomyPlan {
  root: PlanGroup;
  leafCount: number;
  /** Requests on the longest route from the first choice to a label. */
  maxRequests: number;
}

export interface PlanOptions {
  /** Options per request; the service takes at most 255. */
  maxOptions?: number;
  /**
   * Characters of group descriptions one request may carry in all (about 4 characters a token). Each group lists the
   * labels it holds until its share runs out. The default keeps a request far below the 32k-token limit.
   */
  descriptionBudget?: number;
}

/** Characters of group descriptions per request: about 10k tokens, a third of the 32k state-plus-question limit. */
export const DEFAULT_DESCRIPTION_BUDGET = 40_000;
// However many groups share a request, each description keeps room for a few labels.
const MIN_GROUP_DESCRIPTION = 160;
// Automatic group names quote at most this many characters of their first and last labels.
const NAME_PART_CHARS = 28;

const sortKey = (o: PlanOption): string => o.key;
const collator = new Intl.Collator('en', { sensitivity: 'base', numeric: true });

/** The labels below an option, as paths relative to it ("Refunds > Card refund"), in order. */
function memberLines(option: PlanOption, prefix = ''): string[] {
  if (option.kind === 'leaf') return [`${prefix}${option.key}`];
  // An automatic group is invisible in paths: its members read as if they were the parent's.
  const inner = option.auto ? prefix : `${prefix}${option.key} > `;
  return option.options.flatMap((o) => memberLines(o, inner));
}

/** "a; b; c; … and 37 more", within `max` characters (at least the first label is shown whole). */
export function listWithin(items: readonly string[], max: number): string {
  let out = '';
  for (let i = 0; i < items.length; i++) {
    const next = out === '' ? items[i]! : `${out}; ${items[i]}`;
    const left = items.length - i - 1;
    const tail = left > 0 ? `; … and ${left} more` : '';
    if (out !== '' && next.length + tail.length > max) return `${out}; … and ${items.length - i} more`;
    out = next;
  }
  return out;
}

/** Fills each group's description within its share of the budget; groups' own groups get theirs when offered. */
function describeLevel(options: PlanOption[], budget: number, ownText: Map<PlanGroup, string | null>): void {
  const groups = options.filter((o): o is PlanGroup => o.kind === 'group');
  if (groups.length === 0) return;
  const share = Math.max(MIN_GROUP_DESCRIPTION, Math.floor(budget / groups.length));
  for (const group of groups) {
    const own = ownText.get(group) ?? null;
    const members = group.options.flatMap((o) => memberLines(o));
    const head = own ? `${own} ` : '';
    group.description = `${head}Holds ${group.leafCount} labels: ${listWithin(members, Math.max(40, share - head.length - 24))}`;
    describeLevel(group.options, budget, ownText);
  }
}

const firstWord = (s: string): string => (/^[\p{L}\p{N}]+/u.exec(s)?.[0] ?? s.slice(0, 1)).toLowerCase();

/** The longest prefix of every key that ends at a word boundary, or ''. */
function commonWordPrefix(keys: readonly string[]): string {
  if (keys.length < 2) return '';
  let prefix = keys[0]!;
  for (const k of keys) {
    let i = 0;
    while (i < prefix.length && i < k.length && prefix[i]!.toLowerCase() === k[i]!.toLowerCase()) i++;
    prefix = prefix.slice(0, i);
  }
  // Cut back to a word boundary: "Billing disp" -> "Billing" unless every key continues the same word.
  const whole = keys.every((k) => k.length === prefix.length || !/[\p{L}\p{N}]/u.test(k[prefix.length]!));
  const cut = whole ? prefix : prefix.replace(/[\p{L}\p{N}]+$/u, '');
  return cut.replace(/[\s\-_:/>.,;]+$/, '').trim();
}

const clip = (s: string, n: number): string => (s.length <= n ? s : `${s.slice(0, n - 1).trimEnd()}…`);

/** The range from an automatic group's first to its last label: "Abacus – Azure". */
function rangeName(members: readonly PlanOption[]): string {
  const first = clip(sortKey(members[0]!), NAME_PART_CHARS);
  const last = clip(sortKey(members[members.length - 1]!), NAME_PART_CHARS);
  return first === last ? first : `${first} – ${last}`;
}

/**
 * Names for automatic groups: the words a group's labels share ("Billing") when no sibling shares them too, else the
 * range from its first to its last label.
 */
function autoNames(chunks: readonly PlanOption[][]): string[] {
  const prefixes = chunks.map((members) => commonWordPrefix(members.map(sortKey)));
  const seen = new Map<string, number>();
  for (const p of prefixes) seen.set(p.toLowerCase(), (seen.get(p.toLowerCase()) ?? 0) + 1);
  return chunks.map((members, i) => {
    const prefix = prefixes[i]!;
    return prefix.length >= 3 && seen.get(prefix.toLowerCase()) === 1 ? prefix : rangeName(members);
  });
}

/**
 * Splits sorted options into about `groups` runs of similar size, cutting where the first word changes when such a
 * place is near (so "Billing …" labels stay together), never above `max` per run.
 */
function chunk(sorted: PlanOption[], groups: number, max: number): PlanOption[][] {
  const n = sorted.length;
  const target = Math.ceil(n / groups);
  const low = Math.max(1, Math.ceil(target / 2));
  // Up to twice the target, so a run of labels sharing a first word can stay whole.
  const high = Math.min(max, target * 2);
  const chunks: PlanOption[][] = [];
  let start = 0;
  while (start < n) {
    const left = n - start;
    if (left <= high) {
      // The rest fits one group; it still splits where a first word changes, if both parts are big enough.
      let cut = -1;
      for (let end = start + low; end <= n - low; end++) {
        const better = cut < 0 || Math.abs(end - (start + target)) < Math.abs(cut - (start + target));
        if (firstWord(sortKey(sorted[end - 1]!)) !== firstWord(sortKey(sorted[end]!)) && better) cut = end;
      }
      if (cut < 0) {
        chunks.push(sorted.slice(start));
        break;
      }
      chunks.push(sorted.slice(start, cut));
      start = cut;
      continue;
    }
    let best = start + target;
    let bestScore = Infinity;
    for (let end = start + low; end <= Math.min(start + high, n - 1); end++) {
      const a = sortKey(sorted[end - 1]!);
      const b = sortKey(sorted[end]!);
      // A new first word is the best cut, a new first letter the next best; any cut costs its distance from target.
      const boundary =
        firstWord(a) !== firstWord(b) ? 0 : a[0]?.toLowerCase() !== b[0]?.toLowerCase() ? 1 : 3;
      const score = boundary * target + Math.abs(end - (start + target));
      if (score < bestScore) {
        bestScore = score;
        best = end;
      }
    }
    // Leave no remainder too small to be a group of its own.
    if (n - best < low) best = n - low;
    chunks.push(sorted.slice(start, best));
    start = best;
  }
  if (chunks.length <= max) return chunks;
  // Cuts that favour word boundaries can make too many runs; even runs of `max` always fit.
  const even: PlanOption[][] = [];
  for (let i = 0; i < n; i += max) even.push(sorted.slice(i, i + max));
  return even;
}

/** Gives each name a suffix when a sibling already has it: option keys must be unique in one request. */
function uniqueNames(names: string[], taken: Set<string>): string[] {
  return names.map((name) => {
    let candidate = name;
    for (let i = 2; taken.has(candidate); i++) candidate = `${name} (${i})`;
    taken.add(candidate);
    return candidate;
  });
}

/**
 * Keeps a level within `max` options by grouping it: about √n groups of about √n (two short requests instead of one
 * huge and one small), in sorted order, recursively when even `max` groups of `max` do not hold the level.
 */
function autoGroup(options: PlanOption[], path: string[], max: number): PlanOption[] {
  if (options.length <= max) return options;
  const n = options.length;
  const groups = n <= max * max ? Math.max(Math.ceil(n / max), Math.round(Math.sqrt(n))) : Math.ceil(n / max);
  const sorted = [...options].sort(
    (a, b) => collator.compare(sortKey(a), sortKey(b)) || (a.key < b.key ? -1 : 1),
  );
  const chunks = chunk(sorted, groups, max);
  const names = uniqueNames(autoNames(chunks), new Set());
  const level: PlanOption[] = chunks.map((members, i) => ({
    kind: 'group',
    key: names[i]!,
    auto: true,
    description: '',
    path,
    options: members,
    leafCount: members.reduce((sum, m) => sum + (m.kind === 'leaf' ? 1 : m.leafCount), 0),
  }));
  return autoGroup(level, path, max);
}

/**
 * Builds the coarse-to-fine plan of a parsed taxonomy: the tree's own groups, and automatic groups wherever a level
 * holds more than `maxOptions` options. Every group's description lists the labels it holds, truncated to fit.
 */
export function buildPlan(roots: readonly TaxonomyNode[], options: PlanOptions = {}): TaxonomyPlan {
  const max = Math.max(2, Math.min(MAX_OPTIONS, options.maxOptions ?? MAX_OPTIONS));
  const budget = options.descriptionBudget ?? DEFAULT_DESCRIPTION_BUDGET;
  const ownText = new Map<PlanGroup, string | null>();

  const level = (nodes: readonly TaxonomyNode[], path: string[]): PlanOption[] => {
    const out = nodes.map((node): PlanOption => {
      const here = [...path, node.label];
      if (node.children.length === 0)
        return { kind: 'leaf', key: node.label, description: node.description, path: here };
      const inner = level(node.children, here);
      const group: PlanGroup = {
        kind: 'group',
        key: node.label,
        auto: false,
        description: '',
        path: here,
        options: inner,
        leafCount: inner.reduce((sum, m) => sum + (m.kind === 'leaf' ? 1 : m.leafCount), 0),
      };
      ownText.set(group, node.description);
      return group;
    });
    return autoGroup(out, path, max);
  };

  const top = level(roots, []);
  describeLevel(top, budget, ownText);
  const root: PlanGroup = {
    kind: 'group',
    key: '',
    auto: false,
    description: '',
    path: [],
    options: top,
    leafCount: top.reduce((sum, m) => sum + (m.kind === 'leaf' ? 1 : m.leafCount), 0),
  };
  const depth = (g: PlanGroup): number => {
    // A group with one option is passed through without a request.
    const own = g.options.length > 1 ? 1 : 0;
    return own + Math.max(0, ...g.options.map((o) => (o.kind === 'group' ? depth(o) : 0)));
  };
  return { root, leafCount: root.leafCount, maxRequests: depth(root) };
}

/** Parses and plans in one step. */
export const planTaxonomy = (
  text: string,
  format: TaxonomyFormat | 'auto' = 'auto',
  options?: PlanOptions,
) => {
  const parsed = parseTaxonomy(text, format);
  return { parsed, plan: buildPlan(parsed.roots, options) };
};
