// The server side's floors, through ESLint itself with the repository's own config: a planted wrong import (the proxy
// building the reference, the reference reaching into the proxy, the command line into either, the core into the
// client) is a `layers/floors` error naming its rule, and an allowed import of the same file is not.
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
let eslint: ESLint;

beforeAll(() => {
  eslint = new ESLint({ cwd: ROOT, overrideConfig: { rules: { 'layers/floors': 'error' } } });
});

/** The floors messages for `code` linted as if it were the file at `file` (repository-relative). */
async function floors(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: `${ROOT}/${file}` });
  return result!.messages.filter((m) => m.ruleId === 'layers/floors').map((m) => m.message);
}

describe('the floors rule on the server side', () => {
  it('fires when the proxy imports the reference, whatever the form of the import', async () => {
    const file = 'src/server/proxy/planted.ts';
    expect(
      await floors(
        file,
        "import { createReferenceApp } from '../reference/app';\nexport const a = createReferenceApp;\n",
      ),
    ).toEqual([
      'server/proxy/planted.ts may not import server/reference/app: the proxy never builds the reference: the composition root hands it in (ARCHITECTURE.md, "Floors").',
    ]);
    expect(
      await floors(
        file,
        "import type { ReferenceOptions } from '../reference/options';\nexport type O = ReferenceOptions;\n",
      ),
    ).toHaveLength(1);
    expect(
      await floors(file, "export { createInProcessReference } from '../reference/local';\n"),
    ).toHaveLength(1);
    expect(
      await floors(file, "export const load = () => import('../reference/modelJudge/engine');\n"),
    ).toHaveLength(1);
  });

  it('fires when the reference imports the proxy or the targets module', async () => {
    const file = 'src/server/reference/planted.ts';
    const proxy = await floors(
      file,
      "import { createLogger } from '../proxy/log';\nexport const l = createLogger;\n",
    );
    expect(proxy).toHaveLength(1);
    expect(proxy[0]).toMatch(
      /^server\/reference\/planted\.ts may not import server\/proxy\/log: the reference imports only the contract and itself/,
    );
    expect(
      await floors(
        file,
        "import { Cancellation } from '../targets/transport';\nexport const c = Cancellation;\n",
      ),
    ).toHaveLength(1);
    expect(
      await floors(file, "import { countTokens } from '../../core/cost';\nexport const t = countTokens;\n"),
    ).toHaveLength(1);
  });

  it('fires when the command line imports the proxy or the reference', async () => {
    const file = 'src/cli/planted.ts';
    const proxy = await floors(
      file,
      "import { createProxyApp } from '../server/proxy/app';\nexport const p = createProxyApp;\n",
    );
    expect(proxy).toHaveLength(1);
    expect(proxy[0]).toMatch(
      /^cli\/planted\.ts may not import server\/proxy\/app: the command line builds targets through the targets module/,
    );
    expect(
      await floors(
        file,
        "import { createReferenceApp } from '../server/reference/app';\nexport const r = createReferenceApp;\n",
      ),
    ).toHaveLength(1);
  });

  it('fires when the targets module imports the proxy, and when the core imports the client', async () => {
    const targets = await floors(
      'src/server/targets/planted.ts',
      "import { proxyError } from '../proxy/app';\nexport const e = proxyError;\n",
    );
    expect(targets).toHaveLength(1);
    expect(targets[0]).toMatch(/the proxy and the command line use it, not the reverse/);
    const core = await floors(
      'src/core/planted.ts',
      "import { evaluate } from '../client';\nexport const e = evaluate;\n",
    );
    expect(core).toHaveLength(1);
    expect(core[0]).toMatch(/^core\/planted\.ts may not import client: the core is pure/);
  });

  it('stays quiet on the imports the floors allow', async () => {
    // The proxy and the command line build targets through the targets module; both server parts share server/http.
    expect(
      await floors(
        'src/server/proxy/planted.ts',
        "import { buildTargets } from '../targets/target';\nimport { limitSlowClients } from '../http/limits';\nexport const b = [buildTargets, limitSlowClients];\n",
      ),
    ).toEqual([]);
    expect(
      await floors(
        'src/cli/planted.ts',
        "import { buildTargets } from '../server/targets/target';\nimport { loadServerEnv } from '../server/env';\nexport const b = [buildTargets, loadServerEnv];\n",
      ),
    ).toEqual([]);
    expect(
      await floors(
        'src/server/reference/planted.ts',
        "import { limitSlowClients } from '../http/limits';\nimport { countTokens } from '../../contract/tokens';\nexport const l = [limitSlowClients, countTokens];\n",
      ),
    ).toEqual([]);
    expect(
      await floors(
        'src/core/planted.ts',
        "import { countTokens } from '../contract/tokens';\nexport const t = countTokens;\n",
      ),
    ).toEqual([]);
    // A composition root wires the parts together: it may create the reference and hand it to the targets module.
    expect(
      await floors(
        'src/server/workbench.ts',
        "import { createInProcessReference } from './reference/local';\nimport { createProxyApp } from './proxy/app';\nexport const w = [createInProcessReference, createProxyApp];\n",
      ),
    ).toEqual([]);
    expect(
      await floors(
        'src/cli/main.ts',
        "import { createInProcessReference } from '../server/reference/local';\nexport const r = createInProcessReference;\n",
      ),
    ).toEqual([]);
  });
});
