// The JavaScript a browser loads before any dynamic import (the entry chunk and its static imports, transitively),
// weighed gzipped: one definition for the bundle bench and the size budget in `npm test`. Builds the app in memory.
import { gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import type { Plugin, Rollup } from 'vite';

/** The first-paint budget: at most this much gzipped JavaScript before any screen's own code (issue 39). */
export const FIRST_PAINT_BUDGET_KB = 200;

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export type BuiltFile = Rollup.OutputChunk | Rollup.OutputAsset;

export const gzipBytes = (code: string | Uint8Array): number => gzipSync(code).length;
/** Bytes as kB with one decimal, as the tables print them. */
export const kb = (bytes: number): number => Math.round((bytes / 1024) * 10) / 10;

/** Builds the app as `vite build` does, without writing; `plugins` are added in front (the bench's floor build). */
export async function buildApp(plugins: Plugin[] = []): Promise<BuiltFile[]> {
  // Vite and the React plugin read NODE_ENV for a production build; vitest sets it to "test" (React's dev build).
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  let result: Awaited<ReturnType<typeof build>>;
  try {
    result = await build({
      root: ROOT,
      mode: 'production',
      logLevel: 'warn',
      build: { write: false, outDir: 'dist-bench', emptyOutDir: false },
      ...(plugins.length > 0 && { plugins }),
    });
  } finally {
    if (nodeEnv === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = nodeEnv;
  }
  const outputs = (Array.isArray(result) ? result : [result]) as Rollup.RollupOutput[];
  return outputs.flatMap((o) => o.output);
}

/** The chunks of a build by file name. */
export const chunksOf = (files: readonly BuiltFile[]): Map<string, Rollup.OutputChunk> =>
  new Map(
    files.filter((f): f is Rollup.OutputChunk => f.type === 'chunk').map((c) => [c.fileName, c] as const),
  );

/** The chunks a page loads before any dynamic import: the entry and its static imports, transitively. */
export function initialChunks(chunks: Map<string, Rollup.OutputChunk>): Rollup.OutputChunk[] {
  const entry = [...chunks.values()].find((c) => c.isEntry);
  if (!entry) throw new Error('The build has no entry chunk.');
  const seen = new Map<string, Rollup.OutputChunk>();
  const visit = (chunk: Rollup.OutputChunk): void => {
    if (seen.has(chunk.fileName)) return;
    seen.set(chunk.fileName, chunk);
    for (const name of chunk.imports) {
      const next = chunks.get(name);
      if (next) visit(next);
    }
  };
  visit(entry);
  return [...seen.values()];
}

/** One initial chunk's weight. `name` is the chunk's name without its content hash, stable across builds. */
export interface ChunkWeight {
  name: string;
  file: string;
  rawBytes: number;
  gzipBytes: number;
}

/** The initial chunks' weights, heaviest first, and their gzipped total. */
export function firstPaintWeights(files: readonly BuiltFile[]): { chunks: ChunkWeight[]; totalGzip: number } {
  const chunks = initialChunks(chunksOf(files))
    .map((c) => ({ name: c.name, file: c.fileName, rawBytes: c.code.length, gzipBytes: gzipBytes(c.code) }))
    .sort((a, b) => b.gzipBytes - a.gzipBytes);
  return { chunks, totalGzip: chunks.reduce((sum, c) => sum + c.gzipBytes, 0) };
}

/** The initial chunks' gzip kB by chunk name (what the budget's baseline records). */
export function weightsByName(chunks: readonly ChunkWeight[]): Record<string, number> {
  const bytes: Record<string, number> = {};
  for (const c of chunks) bytes[c.name] = (bytes[c.name] ?? 0) + c.gzipBytes;
  return Object.fromEntries(Object.entries(bytes).map(([name, b]) => [name, kb(b)]));
}

/** The budget's verdict, and a table of the initial chunks beside a baseline naming the chunk that grew most. */
export function checkFirstPaintBudget(
  chunks: readonly ChunkWeight[],
  baseline: Readonly<Record<string, number>>,
  budgetKb: number = FIRST_PAINT_BUDGET_KB,
): { ok: boolean; totalKb: number; report: string } {
  const now = weightsByName(chunks);
  const totalKb = kb(chunks.reduce((sum, c) => sum + c.gzipBytes, 0));
  const names = [...new Set([...Object.keys(now), ...Object.keys(baseline)])];
  const rows = names
    .map((name) => ({ name, now: now[name] ?? 0, before: baseline[name] ?? 0 }))
    .map((r) => ({ ...r, delta: Math.round((r.now - r.before) * 10) / 10 }))
    .sort((a, b) => b.delta - a.delta || b.now - a.now);
  const grew = rows.find((r) => r.delta > 0);
  const lines = [
    `First-paint JavaScript: ${totalKb} kB gzip (budget ${budgetKb} kB).`,
    `  ${'chunk'.padEnd(28)} ${'gzip kB'.padStart(8)} ${'baseline'.padStart(9)} ${'change'.padStart(7)}`,
    ...rows.map(
      (r) =>
        `  ${r.name.padEnd(28)} ${r.now.toFixed(1).padStart(8)} ${(r.name in baseline ? r.before.toFixed(1) : 'new').padStart(9)} ${`${r.delta > 0 ? '+' : ''}${r.delta.toFixed(1)}`.padStart(7)}`,
    ),
    grew
      ? `Grew most: ${grew.name} (${grew.name in baseline ? `+${grew.delta.toFixed(1)} kB` : `new, ${grew.now.toFixed(1)} kB`}).`
      : 'No chunk grew against the baseline.',
  ];
  return { ok: totalKb <= budgetKb, totalKb, report: lines.join('\n') };
}
