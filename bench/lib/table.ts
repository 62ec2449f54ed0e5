// Plain-text tables for bench output: aligned columns, numbers right-aligned.

export type Cell = string | number;

const show = (cell: Cell): string =>
  typeof cell === 'number' ? (Number.isInteger(cell) ? cell.toLocaleString('en-US') : cell.toFixed(2)) : cell;

/** Formats rows (objects with the same keys) as an aligned table under a title. */
export function formatTable(title: string, rows: ReadonlyArray<Record<string, Cell>>): string {
  if (rows.length === 0) return `${title}\n  (no rows)`;
  const columns = Object.keys(rows[0]!);
  const cells = rows.map((row) => columns.map((c) => show(row[c] ?? '')));
  const widths = columns.map((c, i) => Math.max(c.length, ...cells.map((r) => r[i]!.length)));
  const numeric = columns.map((c) => rows.every((row) => typeof row[c] === 'number'));
  const pad = (text: string, i: number): string =>
    numeric[i] ? text.padStart(widths[i]!) : text.padEnd(widths[i]!);
  const line = (parts: string[]): string => `  ${parts.map(pad).join('  ')}`.trimEnd();
  return [title, line(columns), line(widths.map((w) => '-'.repeat(w))), ...cells.map(line)].join('\n');
}

/** Prints a table to stdout with a blank line after it. */
export function printTable(title: string, rows: ReadonlyArray<Record<string, Cell>>): void {
  console.log(`${formatTable(title, rows)}\n`);
}
