// The app's floors (eslint/floors.js) fire on a planted wrong import and stay quiet on an allowed one, through the
// repository's own ESLint config, as `npm run lint` runs them.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const eslint = new ESLint({ cwd: root, overrideConfig: { rules: { 'layers/floors': 'error' } } });

/** The floors' messages for `code` linted as if it were the repository file `file`. */
async function floorMessages(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
  return result!.messages.filter((m) => m.ruleId === 'layers/floors').map((m) => m.message);
}

describe('the app floors', () => {
  it('refuses a feature folder importing another feature folder', async () => {
    const messages = await floorMessages(
      'src/app/features/compare/Planted.tsx',
      "import { Toolbar } from '../workbench/Toolbar';\nexport const planted = Toolbar;\n",
    );
    expect(messages).toEqual([
      'app/features/compare/Planted.tsx may not import app/features/workbench/Toolbar: a feature folder never imports another one: what two share lives in components, stores or queries (ARCHITECTURE.md, "Floors").',
    ]);
  });

  it('refuses a store importing a feature, by a static or a dynamic import', async () => {
    const messages = await floorMessages(
      'src/app/stores/planted.ts',
      "import { RowsLint } from '../features/rows/RowsLint';\nexport const planted = [RowsLint, import('../features/cost/costCounter')];\n",
    );
    expect(messages).toHaveLength(2);
    expect(messages[0]).toContain('app/stores/planted.ts may not import app/features/rows/RowsLint');
    expect(messages[1]).toContain('app/stores/planted.ts may not import app/features/cost/costCounter');
    for (const m of messages) expect(m).toContain('stores never import features');
  });

  it('refuses a component importing a store, a feature or a query', async () => {
    const messages = await floorMessages(
      'src/app/components/Planted.tsx',
      [
        "import { useWorkbench } from '../stores/workbench';",
        "import { CostMeter } from '../features/cost/CostMeter';",
        "import { modelsQueryOptions } from '../queries/models';",
        'export const planted = [useWorkbench, CostMeter, modelsQueryOptions];',
        '',
      ].join('\n'),
    );
    expect(messages).toHaveLength(3);
    for (const m of messages)
      expect(m).toContain('components take props: they never import features or stores');
  });

  it('refuses persistence importing a feature', async () => {
    const messages = await floorMessages(
      'src/app/persistence/planted.ts',
      "export { useLiveCost } from '../features/cost/useLiveCost';\n",
    );
    expect(messages).toHaveLength(1);
    expect(messages[0]).toContain('persistence never imports features');
  });

  it('allows what the floors allow: a feature its own folder and the shared ones, a store the platform, a screen any feature', async () => {
    expect(
      await floorMessages(
        'src/app/features/compare/Planted.tsx',
        [
          "import { CompareView } from './CompareView';",
          "import { Dialog } from '../../components/Dialog';",
          "import { useCompare } from '../../stores/compare';",
          "import { ModelPicker } from '../../queries/ModelPicker';",
          "import { createRowsParser } from '../../workers/rowsParser';",
          'export const planted = [CompareView, Dialog, useCompare, ModelPicker, createRowsParser];',
          '',
        ].join('\n'),
      ),
    ).toEqual([]);
    expect(
      await floorMessages(
        'src/app/stores/planted.ts',
        "import { createBrowserClock } from '../platform/clock';\nimport { useWorkbench } from './workbench';\nexport const planted = [createBrowserClock, useWorkbench];\n",
      ),
    ).toEqual([]);
    expect(
      await floorMessages(
        'src/app/screens/Planted.tsx',
        "import { CostMeter } from '../features/cost/CostMeter';\nimport { Toolbar } from '../features/workbench/Toolbar';\nexport const planted = [CostMeter, Toolbar];\n",
      ),
    ).toEqual([]);
    expect(
      await floorMessages(
        'src/app/components/Planted.tsx',
        "import { Dialog } from './Dialog';\nimport { formatLoc } from '../../contract';\nexport const planted = [Dialog, formatLoc];\n",
      ),
    ).toEqual([]);
  });
});
