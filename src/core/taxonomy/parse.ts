// Large taxonomies, reading: a pasted list, tree or `a > b > c` paths become labels, with a note for what was merged or
// skipped.

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
