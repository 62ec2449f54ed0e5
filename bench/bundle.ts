// Bench section "bundle": builds the app with Vite and weighs, gzipped, the JavaScript a browser loads before the
// editor is needed (the entry chunk and everything it imports statically) and, apart, Monaco's chunks and workers.
// Target: at most 250 kB gzip before the editor, and no Monaco module in it.
import { gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import type { Rollup } from 'vite';
import type { SectionResult } from './lib/section';
import { printTable } from './lib/table';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const TARGET_KB = 250;

const gz = (code: string | Uint8Array): number => gzipSync(code).length;
const kb = (bytes: number): number => Math.round((bytes / 1024) * 10) / 10;

/** The chunks a page loads before any dynamic import: the entry and its static imports, transitively. */
function initialChunks(chunks: Map<string, Rollup.OutputChunk>): Rollup.OutputChunk[] {
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

const isMonaco = (chunk: Rollup.OutputChunk): boolean =>
  chunk.moduleIds.some((id) => id.includes('/monaco-editor/'));

/** Builds the app in memory; `withoutFeatures` swaps the editors' feature list for an empty module (the floor). */
async function buildFiles(withoutFeatures = false): Promise<(Rollup.OutputChunk | Rollup.OutputAsset)[]> {
  const result = await build({
    root: ROOT,
    logLevel: 'warn',
    build: { write: false, outDir: 'dist-bench', emptyOutDir: false },
    ...(withoutFeatures && {
      plugins: [
        {
          name: 'bench-json-only-floor',
          enforce: 'pre' as const,
          load: (id: string) => (/\/src\/app\/editor\/monacoFeatures\.ts$/.test(id) ? 'export {};' : null),
        },
      ],
    }),
  });
  const outputs = (Array.isArray(result) ? result : [result]) as Rollup.RollupOutput[];
  return outputs.flatMap((o) => o.output);
}

/** Monaco's lazy chunks and its two workers, gzipped, one row each. */
function monacoRowsOf(
  files: (Rollup.OutputChunk | Rollup.OutputAsset)[],
): { file: string; 'gzip kB': number }[] {
  const chunks = new Map(
    files.filter((f): f is Rollup.OutputChunk => f.type === 'chunk').map((c) => [c.fileName, c] as const),
  );
  const initial = initialChunks(chunks);
  const monaco = [...chunks.values()].filter((c) => !initial.includes(c) && isMonaco(c));
  // Monaco's two workers; other workers (the rows parser) belong to other screens.
  const workers = files.filter(
    (f): f is Rollup.OutputAsset =>
      f.type === 'asset' && /\/(editor|json)\.worker-[\w-]+\.js$/.test(f.fileName),
  );
  return [
    ...monaco.map((c) => ({ file: c.fileName, 'gzip kB': kb(gz(c.code)) })),
    ...workers.map((w) => ({ file: `${w.fileName} (worker)`, 'gzip kB': kb(gz(w.source)) })),
  ];
}

const sumKb = (rows: { 'gzip kB': number }[]): number =>
  Math.round(rows.reduce((s, r) => s + r['gzip kB'], 0) * 10) / 10;

export async function run(): Promise<SectionResult> {
  const files = await buildFiles();
  const chunks = new Map(
    files.filter((f): f is Rollup.OutputChunk => f.type === 'chunk').map((c) => [c.fileName, c] as const),
  );
  const initial = initialChunks(chunks);
  const initialGzip = initial.reduce((sum, c) => sum + gz(c.code), 0);
  const monacoInInitial = initial.some(isMonaco);
  printTable(`bundle: JavaScript loaded before the editor is needed (target <= ${TARGET_KB} kB gzip)`, [
    ...initial.map((c) => ({ chunk: c.fileName, 'raw kB': kb(c.code.length), 'gzip kB': kb(gz(c.code)) })),
    {
      chunk: 'total',
      'raw kB': kb(initial.reduce((s, c) => s + c.code.length, 0)),
      'gzip kB': kb(initialGzip),
    },
  ]);

  const monacoRows = monacoRowsOf(files);
  const monacoGzip = sumKb(monacoRows);
  printTable('bundle: Monaco, loaded lazily in its own chunks', [
    ...monacoRows,
    { file: 'total', 'gzip kB': monacoGzip },
  ]);
  // The floor: the same build with no editor feature registered (editor API, JSON language, workers only).
  const floorGzip = sumKb(monacoRowsOf(await buildFiles(true)));
  printTable("bundle: Monaco with the editors' features beside the JSON-only floor", [
    { build: 'as shipped (features in monacoFeatures.ts)', 'gzip kB': monacoGzip },
    { build: 'JSON-only floor (no feature registered)', 'gzip kB': floorGzip },
    { build: 'features cost', 'gzip kB': Math.round((monacoGzip - floorGzip) * 10) / 10 },
  ]);

  const ok = kb(initialGzip) <= TARGET_KB && !monacoInInitial && monacoRows.length > 0;
  if (monacoInInitial)
    console.log('bundle: a Monaco module is in the initial JavaScript; it must load lazily.\n');
  return {
    section: 'bundle',
    ok,
    figures: {
      'initial JS kB gzip': kb(initialGzip),
      'Monaco kB gzip': monacoGzip,
      'JSON-only floor kB gzip': floorGzip,
    },
  };
}
