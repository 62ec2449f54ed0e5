// `npm run bench [-- section ...]`: runs the named bench sections (all when none is named) and prints a summary.
import type { SectionResult } from './lib/section';
import { printTable } from './lib/table';

/** Sections by name; each module exports `run(): Promise<SectionResult>`. Loaded lazily, so one section runs alone. */
const SECTIONS: Record<string, () => Promise<{ run(): Promise<SectionResult> }>> = {
  reference: () => import('./reference'),
  hostile: () => import('./hostile'),
  rows: () => import('./rows'),
  reuse: () => import('./reuse'),
  proxy: () => import('./proxy'),
  bundle: () => import('./bundle'),
  cardRender: () => import('./cardRender'),
  cli: () => import('./cli'),
  shards: () => import('./shards'),
  alignment: () => import('./alignment'),
  modelJudge: () => import('./modelJudge'),
  honest: () => import('./honest'),
};

async function main(): Promise<void> {
  const asked = process.argv.slice(2).filter((a) => !a.startsWith('-'));
  const unknown = asked.filter((name) => !(name in SECTIONS));
  if (unknown.length) {
    console.error(
      `Unknown bench section(s): ${unknown.join(', ')}. Sections: ${Object.keys(SECTIONS).join(', ')}.`,
    );
    process.exit(2);
  }
  const names = asked.length ? asked : Object.keys(SECTIONS);
  const results: SectionResult[] = [];
  for (const name of names) {
    const section = await SECTIONS[name]!();
    results.push(await section.run());
  }
  printTable(
    'summary',
    results.map((r) => ({
      section: r.section,
      targets: r.ok ? 'met' : 'MISSED',
      figures: Object.entries(r.figures)
        .map(([k, v]) => `${k} ${v}`)
        .join(', '),
    })),
  );
  process.exitCode = results.every((r) => r.ok) ? 0 : 1;
}

await main();
