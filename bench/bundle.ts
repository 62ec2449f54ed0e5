// Bench section "bundle": builds the app with Vite and weighs, gzipped, the JavaScript a browser loads before the
// editor is needed (the entry chunk and everything it imports statically) and, apart, Monaco's chunks and workers.
// Target: at most 200 kB gzip at first paint (the budget `npm test` also holds), and no Monaco module in it.
import type { Rollup } from 'vite';
import {
  FIRST_PAINT_BUDGET_KB,
  buildApp,
  chunksOf,
  firstPaintWeights,
  gzipBytes as gz,
  initialChunks,
  kb,
} from './lib/firstPaint';
import type { BuiltFile } from './lib/firstPaint';
import type { SectionResult } from './lib/section';
import { printTable } from './lib/table';

const isMonaco = (chunk: Rollup.OutputChunk): boolean =>
  chunk.moduleIds.some((id) => id.includes('/monaco-editor/'));

/** The floor: the editors' feature list swapped for an empty module. */
const jsonOnlyFloor = {
  name: 'bench-json-only-floor',
  enforce: 'pre' as const,
  load: (id: string) => (/\/src\/app\/editor\/monacoFeatures\.ts$/.test(id) ? 'export {};' : null),
};

/** Monaco's lazy chunks and its two workers, gzipped, one row each. */
function monacoRowsOf(files: BuiltFile[]): { file: string; 'gzip kB': number }[] {
  const chunks = chunksOf(files);
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
  const files = await buildApp();
  const { chunks: initial, totalGzip } = firstPaintWeights(files);
  const monacoInInitial = initialChunks(chunksOf(files)).some(isMonaco);
  printTable(
    `bundle: JavaScript loaded before the editor is needed (target <= ${FIRST_PAINT_BUDGET_KB} kB gzip)`,
    [
      ...initial.map((c) => ({ chunk: c.file, 'raw kB': kb(c.rawBytes), 'gzip kB': kb(c.gzipBytes) })),
      {
        chunk: 'total',
        'raw kB': kb(initial.reduce((s, c) => s + c.rawBytes, 0)),
        'gzip kB': kb(totalGzip),
      },
    ],
  );

  const monacoRows = monacoRowsOf(files);
  const monacoGzip = sumKb(monacoRows);
  printTable('bundle: Monaco, loaded lazily in its own chunks', [
    ...monacoRows,
    { file: 'total', 'gzip kB': monacoGzip },
  ]);
  // The floor: the same build with no editor feature registered (editor API, JSON language, workers only).
  const floorGzip = sumKb(monacoRowsOf(await buildApp([jsonOnlyFloor])));
  printTable("bundle: Monaco with the editors' features beside the JSON-only floor", [
    { build: 'as shipped (features in monacoFeatures.ts)', 'gzip kB': monacoGzip },
    { build: 'JSON-only floor (no feature registered)', 'gzip kB': floorGzip },
    { build: 'features cost', 'gzip kB': Math.round((monacoGzip - floorGzip) * 10) / 10 },
  ]);

  const ok = kb(totalGzip) <= FIRST_PAINT_BUDGET_KB && !monacoInInitial && monacoRows.length > 0;
  if (monacoInInitial)
    console.log('bundle: a Monaco module is in the initial JavaScript; it must load lazily.\n');
  return {
    section: 'bundle',
    ok,
    figures: {
      'initial JS kB gzip': kb(totalGzip),
      'Monaco kB gzip': monacoGzip,
      'JSON-only floor kB gzip': floorGzip,
    },
  };
}
