// No file of src imports itself back through others: a cycle makes load order matter and floors meaningless. Checked
// over every import (type imports too), with a planted cycle to show the finder finds one.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const IMPORT = /^(?:import|export)\s[^;]*?from\s+['"](\.[^'"]+)['"]/gms;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? sourceFiles(p) : /\.tsx?$/.test(e.name) ? [p] : [];
  });
}

/** The import cycles among the files under `dir`, each as the files it passes through (Tarjan's components). */
function cyclesUnder(dir: string): string[][] {
  const files = sourceFiles(dir);
  const known = new Set(files);
  const resolve = (from: string, spec: string): string | undefined => {
    const base = path.join(path.dirname(from), spec);
    return [
      `${base}.ts`,
      `${base}.tsx`,
      path.join(base, 'index.ts'),
      path.join(base, 'index.tsx'),
      base,
    ].find((c) => known.has(c));
  };
  const edges = new Map(
    files.map((f) => [
      f,
      [...readFileSync(f, 'utf8').matchAll(IMPORT)].flatMap((m) => resolve(f, m[1]!) ?? []),
    ]),
  );
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of edges.get(v)!) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      component.push(path.relative(dir, w));
    } while (w !== v);
    if (component.length > 1) cycles.push(component.sort());
  };
  for (const f of files) if (!index.has(f)) visit(f);
  return cycles;
}

describe('import cycles', () => {
  it('finds a planted cycle of three files', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'cycles-'));
    try {
      writeFileSync(path.join(dir, 'a.ts'), "import { b } from './b';\nexport const a = b;\n");
      writeFileSync(path.join(dir, 'b.ts'), "import type { C } from './c';\nexport const b: C = 1;\n");
      writeFileSync(path.join(dir, 'c.ts'), "import { a } from './a';\nexport type C = typeof a;\n");
      writeFileSync(path.join(dir, 'd.ts'), "import { a } from './a';\nexport const d = a;\n");
      expect(cyclesUnder(dir)).toEqual([['a.ts', 'b.ts', 'c.ts']]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('finds none in src', () => {
    expect(cyclesUnder(path.join(ROOT, 'src'))).toEqual([]);
  });
});
