// The command line's local target is the reference its composition root (cli/main.ts) hands in, answering with the
// lexical judge: REFERENCE_MODEL_* are the workbench server's, so a headless run neither loads nor even reads them.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../../src/cli/main';
import { readResults } from '../../../src/core/rows/resultsFile';
import { cliTargets } from '../../../src/cli/targets';
import { parseServerEnv } from '../../../src/server/env';
import { createInProcessReference } from '../../../src/server/reference/local';

// A model file that is not there, and a model setting that does not parse: reading either would fail.
const MODEL_ENV = {
  REFERENCE_MODEL_FILE: '/no/such/model.gguf',
  REFERENCE_MODEL_CONTEXT: 'lots',
  WORKBENCH_ENV_FILE: '',
  WORKBENCH_TARGETS_FILE: '',
};
let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'cli-local-'));
  writeFileSync(
    join(dir, 'questions.json'),
    JSON.stringify({ urgent: { type: 'noul', instructions: 'Does the customer say this is urgent?' } }),
  );
  writeFileSync(
    join(dir, 'rows.csv'),
    'message\nPlease help this is urgent\nWhere are your opening hours?\n',
  );
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the command line and the local reference', () => {
  it('runs on the local target with REFERENCE_MODEL_* set, loading no model', async () => {
    const out = join(dir, 'results.jsonl');
    const code = await main(
      [
        'run',
        '--questions',
        join(dir, 'questions.json'),
        '--model',
        'model-1.13.0',
        '--rows',
        join(dir, 'rows.csv'),
      ].concat(['--map', 'text=message', '--target', 'local', '--out', out, '--quiet']),
      MODEL_ENV,
    );
    expect(code).toBe(0);
    const read = readResults(readFileSync(out, 'utf8'));
    if (!read.ok) throw new Error(read.message);
    expect(read.results.rows.map((r) => [r.outcome.status, Object.keys(r.response!.answers)])).toEqual([
      ['done', ['urgent']],
      ['done', ['urgent']],
    ]);
  });

  it('sends local calls to the reference it was handed, with its key', async () => {
    const seen: string[] = [];
    const reference = createInProcessReference({ REFERENCE_API_KEY: 'handed-key' }, { modelFile: false });
    const [local] = cliTargets(parseServerEnv(MODEL_ENV), (raw) => {
      expect(raw.REFERENCE_MODEL_FILE).toBe(MODEL_ENV.REFERENCE_MODEL_FILE);
      return {
        ...reference,
        fetch: (request) => {
          seen.push(
            `${request.method} ${new URL(request.url).pathname} ${request.headers.get('authorization')}`,
          );
          return reference.fetch(request);
        },
      };
    });
    expect(local!.id).toBe('local');
    const answer = await local!.client.fetch!(`${local!.client.baseUrl}/v1/models`, {
      headers: local!.client.headers,
    });
    expect(answer.status).toBe(200);
    expect(seen).toEqual(['GET /v1/models Bearer handed-key']);
  });

  it('the workbench server loads the model file: its settings are read, and a bad one is said', () => {
    expect(() => createInProcessReference(MODEL_ENV, { modelFile: true })).toThrow(
      /REFERENCE_MODEL_CONTEXT must be a number/,
    );
  });
});
