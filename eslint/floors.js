// The architecture's floors as one lint rule: each folder of src/ may import only the folders its row allows, so an
// upward import fails `npm run lint` with a sentence naming the rule it breaks. The table is the architecture; the rule
// only resolves relative import paths against it (every import of our own code is relative, so no resolver is needed).
import path from 'node:path';

/**
 * Layers by folder (the longest matching prefix wins), what each may import, and why. `features/*` rows are per
 * feature folder: a feature may import itself and the shared app folders, never another feature.
 */
export const FLOORS = [
  { layer: 'src/contract', may: ['src/contract'], why: 'the contract imports nothing of ours' },
  { layer: 'src/client', may: ['src/contract', 'src/client'], why: 'the client imports only the contract' },
  {
    layer: 'src/core',
    may: ['src/contract', 'src/core'],
    why: 'the core is pure: it declares what it needs (an evaluate function) and the client satisfies it',
  },
  {
    layer: 'src/server/http',
    may: ['src/contract', 'src/server/http'],
    why: 'server/http is the leaf the reference and the proxy share',
  },
  {
    layer: 'src/server/env',
    may: ['src/contract', 'src/server/env', 'src/server/targets', 'src/server/http'],
    why: 'the environment is read once, into descriptions the targets module turns into targets',
  },
  {
    layer: 'src/server/reference',
    may: ['src/contract', 'src/server/reference', 'src/server/http'],
    why: 'the reference imports only the contract and itself',
  },
  {
    layer: 'src/server/targets',
    may: [
      'src/contract',
      'src/core',
      'src/client',
      'src/server/targets',
      'src/server/env',
      'src/server/http',
    ],
    why: 'the targets module builds targets from their description; the proxy and the command line use it, not the reverse',
  },
  {
    layer: 'src/server/proxy',
    may: [
      'src/contract',
      'src/core',
      'src/client',
      'src/server/proxy',
      'src/server/targets',
      'src/server/env',
      'src/server/http',
    ],
    why: 'the proxy never builds the reference: the composition root hands it in',
  },
  {
    layer: 'src/server/workspace',
    may: [
      'src/contract',
      'src/core',
      'src/server/workspace',
      'src/server/proxy',
      'src/server/env',
      'src/server/http',
    ],
    why: "the team workspace uses the proxy's security and log, never the targets or the reference",
  },
  {
    layer: 'src/cli',
    may: [
      'src/contract',
      'src/core',
      'src/client',
      'src/cli',
      'src/server/targets',
      'src/server/env',
      'src/server/http',
    ],
    why: 'the command line builds targets through the targets module, never from the proxy or the reference',
  },
  {
    layer: 'src/app/screens',
    may: ['src/contract', 'src/core', 'src/client', 'src/app'],
    why: 'a screen composes feature areas; nothing below it imports a screen',
  },
  {
    layer: 'src/app/features/*',
    may: [
      'src/contract',
      'src/core',
      'src/client',
      'src/app/features/<self>',
      'src/app/stores',
      'src/app/queries',
      'src/app/components',
      'src/app/persistence',
      'src/app/platform',
      'src/app/editor',
      'src/app/workers',
      'src/app/styles',
      'src/app/queryClient',
    ],
    why: 'a feature folder never imports another one: what two share lives in components, stores or queries',
  },
  {
    layer: 'src/app/stores',
    may: [
      'src/contract',
      'src/core',
      'src/client',
      'src/app/stores',
      'src/app/persistence',
      'src/app/platform',
      'src/app/queries',
      'src/app/workers',
    ],
    why: 'stores never import features',
  },
  {
    layer: 'src/app/components',
    may: ['src/contract', 'src/core', 'src/app/components', 'src/app/editor', 'src/app/styles'],
    why: 'components take props: they never import features or stores',
  },
  {
    layer: 'src/app/persistence',
    may: ['src/contract', 'src/core', 'src/app/persistence', 'src/app/platform'],
    why: 'persistence never imports features',
  },
];

/** Files that wire server parts together: they may import any of them. */
export const COMPOSITION_ROOTS = [
  'src/server/start.ts',
  'src/server/vitePlugin.ts',
  'src/server/workbench.ts',
  'src/server/reference/main.ts',
  'src/server/checkTargetMain.ts',
  'src/cli/main.ts',
];

const posix = (p) => p.split(path.sep).join('/');
const within = (file, folder) =>
  file === folder || file.startsWith(`${folder}/`) || file.startsWith(`${folder}.`);

/** The row of a file (repo-relative, no extension needed), with `<self>` bound for a feature folder. */
export function floorOf(file) {
  const feature = /^src\/app\/features\/([^/]+)\//.exec(file);
  if (feature) {
    const row = FLOORS.find((f) => f.layer === 'src/app/features/*');
    return { ...row, may: row.may.map((m) => m.replace('<self>', feature[1])) };
  }
  const rows = FLOORS.filter((f) => !f.layer.includes('*') && within(file, f.layer));
  return rows.sort((a, b) => b.layer.length - a.layer.length)[0];
}

/** Why `importer` may not import `target` (both repo-relative), or null when the floors allow it. */
export function floorProblem(importer, target) {
  if (!target.startsWith('src/') || COMPOSITION_ROOTS.includes(importer)) return null;
  const row = floorOf(importer);
  if (!row) return null;
  if (row.may.some((m) => within(target, m))) return null;
  return `${importer.replace(/^src\//, '')} may not import ${target.replace(/^src\//, '')}: ${row.why} (ARCHITECTURE.md, "Floors").`;
}

const rule = {
  meta: {
    type: 'problem',
    docs: { description: 'Each folder imports only the floors ARCHITECTURE.md allows it.' },
    schema: [],
  },
  create(context) {
    const root = posix(context.cwd);
    const importer = posix(path.relative(root, context.filename));
    if (!importer.startsWith('src/')) return {};
    const check = (node) => {
      const source = node.source?.value;
      if (typeof source !== 'string' || !source.startsWith('.')) return;
      const target = posix(path.relative(root, path.resolve(path.dirname(context.filename), source)));
      const problem = floorProblem(importer, target);
      if (problem) context.report({ node: node.source, message: problem });
    };
    return {
      ImportDeclaration: check,
      ExportNamedDeclaration: check,
      ExportAllDeclaration: check,
      ImportExpression: check,
    };
  },
};

export default { rules: { floors: rule } };
