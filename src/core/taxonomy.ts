// Large taxonomies: more labels than one choice question takes (255). A pasted list or tree of labels becomes a plan of
// nested groups of at most 255 options, and a coarse-to-fine run chooses a group per request until a label is left.
import { MAX_OPTIONS, estimateCost } from '../contract';
import type { ChoiceAnswer, ChoiceQuestion, EvaluateRequest, EvaluateResponse, State } from '../contract';

// ---------------------------------------------------------------------------------------------------------------
// Parsing
// ---------------------------------------------------------------------------------------------------------------

/** One label of a pasted taxonomy; a label with children is a group of the tree, not an option itself. */
export interface TaxonomyNode {
  label: string;
  /** Text after a tab on the label's line (spreadsheets paste "label<TAB>description"), else null. */
  description: string | null;
  children: TaxonomyNode[];
}

/** How the pasted text was read: one label a line, indentation, or `a > b > c` paths. */
export type TaxonomyFormat = 'list' | 'indent' | 'paths';

/** Something the parser changed or ignored, on a 1-based line of the pasted text. */
export interface TaxonomyNote {
  line: number;
  message: string;
}

/** A parsed taxonomy: its top-level labels, how it was read, and what was merged or skipped. */
export interface ParsedTaxonomy {
  format: TaxonomyFormat;
  roots: TaxonomyNode[];
  /** Labels that are options (nodes without children). */
  leafCount: number;
  /** Groups written in the text (nodes with children). */
  groupCount: number;
  notes: TaxonomyNote[];
}

// A tab counts as this many columns of indentation (editors and spreadsheets disagree; 4 is the common choice).
const TAB_WIDTH = 4;
// Bullets people paste from documents: "- a", "* a", "• a", "+ a".
const BULLET = /^(?:[-*•+‣◦▪]\s+)/;
const PATH_SEPARATOR = /\s*>\s*/;
// At most this many notes are kept: a 10,000-line paste with every line doubled needs a count, not a list.
const MAX_NOTES = 50;

interface Line {
  number: number;
  indent: number;
  label: string;
  description: string | null;
}

const collapse = (s: string): string => s.replace(/\s+/g, ' ').trim();

function indentWidth(prefix: string): number {
  let width = 0;
  for (const ch of prefix) width = ch === '\t' ? (Math.floor(width / TAB_WIDTH) + 1) * TAB_WIDTH : width + 1;
  return width;
}

function readLines(text: string): Line[] {
  const lines: Line[] = [];
  text.split(/\r\n|\r|\n/).forEach((raw, i) => {
    const indentText = /^[ \t]*/.exec(raw)![0];
    let rest = raw.slice(indentText.length).replace(/\s+$/, '');
    rest = rest.replace(BULLET, '');
    // "label<TAB>description": the first tab after the label splits them.
    const tab = rest.indexOf('\t');
    const label = collapse(tab < 0 ? rest : rest.slice(0, tab));
    const description = tab < 0 ? null : collapse(rest.slice(tab + 1)) || null;
    if (label === '') return;
    lines.push({ number: i + 1, indent: indentWidth(indentText), label, description });
  });
  return lines;
}

/** The format the text reads as: paths when a line splits on ">", a tree when indentation varies, else a list. */
export function detectTaxonomyFormat(text: string): TaxonomyFormat {
  const lines = readLines(text);
  if (lines.some((l) => l.label.split(PATH_SEPARATOR).filter((p) => p !== '').length >= 2)) return 'paths';
  const indents = new Set(lines.map((l) => l.indent));
  return indents.size > 1 ? 'indent' : 'list';
}

/** Builds nodes, merging a label written twice under the same parent (its children join the first one's). */
class TreeBuilder {
  readonly roots: TaxonomyNode[] = [];
  readonly notes: TaxonomyNote[] = [];
  private noteCount = 0;
  private readonly index = new WeakMap<TaxonomyNode[], Map<string, { node: TaxonomyNode; line: number }>>();

  note(line: number, message: string): void {
    this.noteCount += 1;
    if (this.notes.length < MAX_NOTES) this.notes.push({ line, message });
  }

  get droppedNotes(): number {
    return this.noteCount - this.notes.length;
  }

  /** The child `label` of `siblings`, created if new. Repeats are merged, and noted unless expected (a path repeats its ancestors). */
  child(
    siblings: TaxonomyNode[],
    label: string,
    description: string | null,
    line: number,
    expectRepeat: boolean,
  ): TaxonomyNode {
    let map = this.index.get(siblings);
    if (!map) this.index.set(siblings, (map = new Map()));
    const existing = map.get(label);
    if (existing) {
      if (!expectRepeat)
        this.note(line, `"${label}" is listed again (first on line ${existing.line}); kept once.`);
      if (description && !existing.node.description) existing.node.description = description;
      return existing.node;
    }
    const node: TaxonomyNode = { label, description, children: [] };
    siblings.push(node);
    map.set(label, { node, line });
    return node;
  }
}

/**
 * Reads a pasted taxonomy: one label a line (blank lines and bullets ignored, "label<TAB>description" accepted), a tree
 * by indentation, or `a > b > c` paths. `format` forces a reading; 'auto' detects it. A label repeated under the same
 * parent is kept once, with a note.
 */
export function parseTaxonomy(text: string, format: TaxonomyFormat | 'auto' = 'auto'): ParsedTaxonomy {
  const read = format === 'auto' ? detectTaxonomyFormat(text) : format;
  const lines = readLines(text);
  const tree = new TreeBuilder();

  if (read === 'paths') {
    for (const line of lines) {
      const parts = line.label.split(PATH_SEPARATOR).filter((p) => p !== '');
      let siblings = tree.roots;
      parts.forEach((part, i) => {
        const last = i === parts.length - 1;
        // Every path repeats its ancestors: only the last part of a path can be a real repeat.
        const node = tree.child(siblings, part, last ? line.description : null, line.number, !last);
        siblings = node.children;
      });
    }
  } else if (read === 'indent') {
    const stack: { indent: number; node: TaxonomyNode }[] = [];
    for (const line of lines) {
      while (stack.length > 0 && stack[stack.length - 1]!.indent >= line.indent) stack.pop();
      const parent = stack[stack.length - 1];
      const node = tree.child(
        parent ? parent.node.children : tree.roots,
        line.label,
        line.description,
        line.number,
        false,
      );
      stack.push({ indent: line.indent, node });
    }
  } else {
    for (const line of lines) tree.child(tree.roots, line.label, line.description, line.number, false);
  }
  if (tree.droppedNotes > 0)
    tree.notes.push({ line: 0, message: `${tree.droppedNotes} more repeated labels were kept once.` });

  let leafCount = 0;
  let groupCount = 0;
  const count = (nodes: TaxonomyNode[]): void => {
    for (const n of nodes) {
      if (n.children.length === 0) leafCount += 1;
      else {
        groupCount += 1;
        count(n.children);
      }
    }
  };
  count(tree.roots);
  return { format: read, roots: tree.roots, leafCount, groupCount, notes: tree.notes };
}

// ---------------------------------------------------------------------------------------------------------------
// Plan
// ---------------------------------------------------------------------------------------------------------------

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

// ---------------------------------------------------------------------------------------------------------------
// Run
// ---------------------------------------------------------------------------------------------------------------

/** The question name every request of a run uses. */
export const TAXONOMY_QUESTION = 'taxonomy';
const DEFAULT_INSTRUCTIONS = 'Which label fits best?';

/** What a run needs: where it starts, what it judges, and the evaluate call (the real client in the app). */
export interface TaxonomyRunInput {
  plan: TaxonomyPlan;
  state: State;
  /** The question, as for one choice question; each request adds a line saying which step it is. */
  instructions: string;
  model: string;
  evaluate: (request: EvaluateRequest, signal?: AbortSignal) => Promise<EvaluateResponse>;
  signal?: AbortSignal;
  /** Called as each step ends, so the path can be drawn while the next request is under way. */
  onStep?: (step: TaxonomyStep) => void;
}

/** One request of a run: what was offered, what came back, and which option it leads to. */
export interface TaxonomyStep {
  /** 0-based. */
  index: number;
  /** The group whose options were offered ('' for the first request). */
  group: string;
  /** Where the request chose: the group's tree path, then its name when it is an automatic group ([] first). */
  trail: string[];
  request: EvaluateRequest;
  question: ChoiceQuestion;
  answer: ChoiceAnswer;
  chosen: PlanOption;
  /** Probability of the chosen option, as the service rounded it. */
  probability: number;
  confidence: number;
  inputTokens: number;
  /** The versioned id the service resolved the model to. */
  resolvedModel: string;
}

/** The outcome of a run: the label, how it was reached, and what it cost. */
export interface TaxonomyResult {
  label: string;
  /** The label's path in the pasted tree, ending with the label. */
  path: string[];
  /** The option chosen at each step, automatic groups included. */
  route: string[];
  steps: TaxonomyStep[];
  /** The last request's question and answer: the distribution over the chosen group's labels. */
  final: { question: ChoiceQuestion; answer: ChoiceAnswer };
  /** Product of the chosen options' probabilities: the chance of this label under the whole route. */
  pathProbability: number;
  inputTokens: number;
  /** Estimated, at the published price. */
  cost: number;
}

/** Why a run stopped before a label; carries the steps that did finish. */
export class TaxonomyRunError extends Error {
  override readonly name = 'TaxonomyRunError';
  constructor(
    message: string,
    readonly steps: TaxonomyStep[],
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** The instructions one step sends: the user's question, then what this step chooses among. */
export function stepInstructions(instructions: string, group: PlanGroup): string {
  const base = instructions.trim() || DEFAULT_INSTRUCTIONS;
  const groups = group.options.filter((o) => o.kind === 'group').length;
  const where = group.path.length > 0 ? ` under "${group.path.join(' > ')}"` : '';
  const what =
    groups === group.options.length
      ? `The labels${where} are grouped: choose the group that holds the best label (each group lists its labels).`
      : groups > 0
        ? `Choose the best label${where}, or the group that holds it (each group lists its labels).`
        : group.path.length > 0
          ? `Choose among the labels${where}.`
          : '';
  return what ? `${base}\n\n${what}` : base;
}

/** The choice question offered for a group's options. */
export function stepQuestion(instructions: string, group: PlanGroup): ChoiceQuestion {
  return {
    type: 'choice',
    instructions: stepInstructions(instructions, group),
    criteria: Object.fromEntries(group.options.map((o) => [o.key, o.description])),
  };
}

/**
 * Runs a plan coarse to fine: one request per level, each offering the options of the group chosen before, until a
 * label is chosen. A group with a single option is entered without a request. Rejects with a TaxonomyRunError (its
 * `cause` is the evaluate error) holding the finished steps.
 */
export async function runTaxonomy(input: TaxonomyRunInput): Promise<TaxonomyResult> {
  const { plan, state, instructions, model, evaluate, signal, onStep } = input;
  if (plan.leafCount < 2)
    throw new TaxonomyRunError('A taxonomy needs at least two labels to choose from.', []);
  const steps: TaxonomyStep[] = [];
  const route: string[] = [];
  let group: PlanGroup = plan.root;
  let pathProbability = 1;
  for (;;) {
    let chosen: PlanOption;
    if (group.options.length === 1) {
      chosen = group.options[0]!;
    } else {
      const question = stepQuestion(instructions, group);
      const request: EvaluateRequest = { state, model, questions: { [TAXONOMY_QUESTION]: question } };
      let response: EvaluateResponse;
      try {
        response = await evaluate(request, signal);
      } catch (error) {
        const why = error instanceof Error ? error.message : String(error);
        throw new TaxonomyRunError(
          steps.length === 0 ? why : `Step ${steps.length + 1} failed: ${why}`,
          [...steps],
          { cause: error },
        );
      }
      const answer = response.answers[TAXONOMY_QUESTION];
      if (answer?.type !== 'choice') {
        throw new TaxonomyRunError('The service did not answer the choice that was asked.', [...steps]);
      }
      const found = group.options.find((o) => o.key === answer.choice);
      if (!found) {
        throw new TaxonomyRunError(`The service chose "${answer.choice}", which was not offered.`, [
          ...steps,
        ]);
      }
      chosen = found;
      const probability = answer.probabilities[chosen.key] ?? 0;
      pathProbability *= probability;
      const step: TaxonomyStep = {
        index: steps.length,
        group: group.key,
        trail: group.auto ? [...group.path, group.key] : group.path,
        request,
        question,
        answer,
        chosen,
        probability,
        confidence: answer.confidence,
        inputTokens: response.usage.input_tokens,
        resolvedModel: response.model,
      };
      steps.push(step);
      onStep?.(step);
    }
    route.push(chosen.key);
    if (chosen.kind === 'leaf') {
      const last = steps[steps.length - 1]!;
      const inputTokens = steps.reduce((sum, s) => sum + s.inputTokens, 0);
      return {
        label: chosen.key,
        path: chosen.path,
        route,
        steps,
        final: { question: last.question, answer: last.answer },
        pathProbability,
        inputTokens,
        cost: estimateCost(inputTokens),
      };
    }
    group = chosen;
  }
}
