// The `local` target of `npm start` with REFERENCE_MODEL_FILE: the model file answers through the proxy beside the
// lexical judge, the browser learns the file's name (never its path), and a file that cannot load stops the start.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { evaluate, listModels } from '../../../../src/client';
import { listTargets, proxyClientTarget } from '../../../../src/client/workbenchApi';
import { localJudgeLabel } from '../../../../src/contract';
import { describeTargets } from '../../../../src/server/proxy';
import { exampleRequest } from '../../../helpers/fixtures';
import { writeTinyGguf } from '../../../helpers/tinyGguf';
import { startWorkbench } from './helpers';
import type { TestWorkbench } from './helpers';

const MODEL_ENV = { REFERENCE_MODEL_THREADS: '1', REFERENCE_MODEL_PARALLEL: '2' };

describe('with REFERENCE_MODEL_FILE', () => {
  let wb: TestWorkbench;
  let path = '';
  beforeAll(async () => {
    path = writeTinyGguf({ seed: 3 }, 'proxy-tiny.gguf');
    wb = await startWorkbench({ ...MODEL_ENV, REFERENCE_MODEL_FILE: path });
  }, 120_000);
  afterAll(() => wb?.close());

  it('names the file on the local target, never its folder', async () => {
    const targets = await listTargets({ origin: wb.url });
    expect(targets).toEqual([
      expect.objectContaining({
        id: 'local',
        label: 'Local reference (proxy-tiny.gguf, and the lexical judge)',
        kind: 'local',
        host: 'in-process',
        evaluatePath: '/v1/evaluate',
        modelFile: { fileName: 'proxy-tiny.gguf', alias: 'local-proxy-tiny' },
      }),
    ]);
    expect(JSON.stringify(targets)).not.toContain(path.slice(0, path.lastIndexOf('/')));
    expect(describeTargets(wb.targets)[0]).toMatch(
      /^ {2}local {2}Local reference \(proxy-tiny\.gguf, and the lexical judge\)/,
    );
  });

  it('answers from the model file and from the lexical judge, each saying which it was', async () => {
    const local = proxyClientTarget('local', wb.url);
    const models = await listModels(local);
    expect(models.models.map((m) => m.name)).toEqual(['local-proxy-tiny', 'model-latest', 'model-preview']);
    const fromModel = await evaluate(local, { ...exampleRequest(), model: 'local-proxy-tiny' });
    expect(fromModel.response.model).toMatch(/^local-proxy-tiny@[0-9a-f]{12}$/);
    expect(localJudgeLabel(fromModel.response.model)).toBe('local: proxy-tiny.gguf');
    const fromLexical = await evaluate(local, exampleRequest());
    expect(localJudgeLabel(fromLexical.response.model)).toBe('local: lexical, not a language model');
    expect(fromModel.response.usage).toEqual(fromLexical.response.usage);
  });
});

describe('with a REFERENCE_MODEL_FILE that cannot be loaded', () => {
  it('refuses to start, with a sentence that names the file', async () => {
    await expect(
      startWorkbench({ ...MODEL_ENV, REFERENCE_MODEL_FILE: '/nowhere/missing.gguf' }),
    ).rejects.toThrow('The model file /nowhere/missing.gguf does not exist or is not a file.');
  });
});
