// The targets configuration: workbench.targets.json plus EVAL_*, resolved against presets, one sentence per bad
// entry (naming the entry and the field) while the rest still start.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { publicTarget } from '../../../../src/contract';
import { configuredSecrets, loadServerEnv, parseServerEnv } from '../../../../src/server/env';
import {
  basicValue,
  readTargetsFile,
  resolveTargets,
  TARGETS_FILE,
} from '../../../../src/server/targets/config';
import type { TargetsConfig } from '../../../../src/server/targets/config';

const file = (targets: unknown[] | unknown) => ({
  name: TARGETS_FILE,
  text: JSON.stringify(Array.isArray(targets) ? { targets } : targets),
});
const resolveFile = (targets: unknown, env: Record<string, string> = {}): TargetsConfig =>
  resolveTargets({ env, envTargets: {}, file: file(targets) });

describe('resolveTargets', () => {
  it("fills each preset's paths, auth, limits, rates and price, and derives a label from the host", () => {
    const { targets, problems } = resolveFile([
      { id: 'ts', preset: 'hosted' },
      { id: 'llama', preset: 'llamacpp', baseUrl: 'http://127.0.0.1:8081' },
      { id: 'olla', preset: 'ollama' },
      { id: 'lite', preset: 'litellm', baseUrl: 'http://litellm.internal:4000' },
      { id: 'or', preset: 'openrouter' },
    ]);
    expect(problems).toEqual([]);
    const [ts, llama, olla, lite, or] = targets;
    expect(ts).toMatchObject({
      baseUrl: 'https://api.typesafe.ai',
      evaluatePath: '/v1/systemone',
      modelsPath: '/v1/models',
      auth: 'bearer',
      keyVar: 'TS_API_KEY',
      requestsPerMinute: 1200,
      tokensPerSecond: 250_000,
      inputPrice: 0.042,
      label: 'Hosted service (api.typesafe.ai)',
    });
    expect(llama).toMatchObject({
      auth: 'none',
      keyVar: null,
      inputPrice: 0,
      label: 'llama.cpp server (127.0.0.1:8081)',
    });
    expect(olla).toMatchObject({
      baseUrl: 'http://127.0.0.1:11434',
      auth: 'none',
      limits: { questions: 64, levels: 26 },
    });
    expect(lite).toMatchObject({ keyVar: 'LITELLM_API_KEY', inputPrice: null, kind: 'gateway' });
    expect(or).toMatchObject({
      evaluatePath: '/api/v1/systemone',
      modelsPath: '/api/v1/models?output_modalities=decisions',
      keyVar: 'OPENROUTER_API_KEY',
    });
    expect(targets.at(-1)!.id).toBe('local');
  });

  it('lets an entry override its preset, down to the dialect fields the translation layer reads', () => {
    const { targets } = resolveFile([
      {
        id: 'cf',
        preset: 'custom',
        baseUrl: 'https://api.cloudflare.com/client/v4/accounts/abc',
        evaluatePath: '/ai/run/@cf/cloudflare/{model}',
        modelsPath: null,
        auth: 'bearer',
        keyVar: 'CF_TOKEN',
        envelope: 'cloudflare',
        modelInPath: true,
        inputPrice: 0.24,
        limits: { questions: 64, levels: 10 },
        dialect: 'systemone',
      },
    ]);
    expect(targets[0]).toMatchObject({
      modelsPath: null,
      envelope: 'cloudflare',
      modelInPath: true,
      inputPrice: 0.24,
      limits: { questions: 64, levels: 10 },
      dialect: 'systemone',
    });
  });

  it('reads each key from the variable it names; an unset one is "key missing" in the public list', () => {
    const config = resolveFile(
      [
        { id: 'a', preset: 'hosted', keyVar: 'A_KEY' },
        { id: 'b', preset: 'hosted', keyVar: 'B_KEY' },
      ],
      { A_KEY: 'secret-a', B_KEY: '   ' },
    );
    expect(config.keys).toEqual({ a: 'secret-a' });
    const [a, b] = config.targets.map((t) => publicTarget(t, config.keys[t.id] !== undefined));
    expect(a!.keyMissing).toBeNull();
    expect(b!.keyMissing).toBe('key missing: B_KEY');
    expect(JSON.stringify(a)).not.toContain('api.typesafe.ai/');
    expect(a).not.toHaveProperty('baseUrl');
  });

  it.each([
    [[{ id: 'x', preset: 'gateway' }], 'target "x": field "baseUrl" is required for the gateway preset'],
    [
      [{ id: 'x', preset: 'hosted', baseUrl: 'ftp://h' }],
      'target "x": field "baseUrl" must be an http:// or https:// URL',
    ],
    [
      [{ id: 'x', preset: 'hosted', requestsPerMinut: 5 }],
      'target "x": field "requestsPerMinut" is not a target field',
    ],
    [
      [{ id: 'x', preset: 'hosted', apiKey: 'sk-1' }],
      'target "x": field "apiKey" is not allowed (keys stay in the environment',
    ],
    [[{ id: 'x', preset: 'nope' }], 'target "x": field "preset" must be one of'],
    [[{ id: 'Bad Id' }], 'target "Bad Id": field "id" an id is 1 to 40'],
    [
      [{ id: 'x', preset: 'hosted', auth: 'header' }],
      'target "x": field "header" is required when auth is "header"',
    ],
    [
      [{ id: 'x', preset: 'hosted', auth: 'header', header: 'Cookie' }],
      'target "x": field "header" must not be Host, Cookie',
    ],
    [[{ id: 'local', preset: 'hosted' }], 'target "local": field "id" may not be "local"'],
    [[{ id: 'x', preset: 'hosted', limits: { options: -1 } }], 'target "x": field "limits.options"'],
    [['just a string'], 'target #1: field "(the entry)"'],
  ])('names the entry and field of %j in one sentence, and starts the rest', (entries, sentence) => {
    const { targets, problems } = resolveFile([...(entries as unknown[]), { id: 'fine', preset: 'ollama' }]);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain(`${TARGETS_FILE}, ${sentence}`);
    expect(problems[0]).toMatch(/skipped\.$/);
    expect(targets.map((t) => t.id)).toEqual(['fine', 'local']);
  });

  it('says so when the file is not JSON or has no targets array, and still starts the local reference', () => {
    const broken = resolveTargets({
      env: {},
      envTargets: {},
      file: { name: TARGETS_FILE, text: '{"targets": [' },
    });
    expect(broken.problems[0]).toMatch(
      /^workbench\.targets\.json is not valid JSON .*none of its targets were loaded\.$/,
    );
    expect(broken.targets.map((t) => t.id)).toEqual(['local']);
    expect(resolveFile({ servers: [] }).problems[0]).toMatch(/must be an object with a "targets" array/);
  });

  it('skips a repeated id with a sentence, keeping the first', () => {
    const { targets, problems } = resolveFile([
      { id: 'a', preset: 'ollama' },
      { id: 'a', preset: 'llamacpp' },
    ]);
    expect(targets.filter((t) => t.id === 'a')).toHaveLength(1);
    expect(targets[0]!.preset).toBe('ollama');
    expect(problems[0]).toMatch(/target "a": field "id" repeats an earlier target's id/);
  });

  it('encodes a user:password Basic key and sends an encoded one as it is', () => {
    expect(basicValue('user:pw')).toBe(`Basic ${Buffer.from('user:pw').toString('base64')}`);
    expect(basicValue('dXNlcjpwdw==')).toBe('Basic dXNlcjpwdw==');
  });
});

describe('the example file in the repository', () => {
  it('resolves every entry with no problem', () => {
    const text = readFileSync(join(process.cwd(), 'workbench.targets.example.json'), 'utf8');
    const config = resolveTargets({ env: {}, envTargets: {}, file: { name: 'example', text } });
    expect(config.problems).toEqual([]);
    expect(config.targets.map((t) => t.preset)).toEqual([
      'hosted',
      'llamacpp',
      'ollama',
      'litellm',
      'openrouter',
      'gateway',
      'local',
    ]);
  });
});

describe('the environment and the file together', () => {
  it('lists EVAL_* targets first, then the file, then local; redacts every key, a Basic key in both forms', () => {
    const env = parseServerEnv(
      {
        EVAL_BASE_URL: 'https://api.example.com',
        EVAL_API_KEY: 'direct-key',
        INWORLD_KEY: 'user:basic-secret',
      },
      file([
        {
          id: 'inworld',
          preset: 'gateway',
          baseUrl: 'https://api.inworld.ai',
          evaluatePath: '/alpha/decisions',
          auth: 'basic',
          keyVar: 'INWORLD_KEY',
        },
      ]),
    );
    expect(env.targets.targets.map((t) => t.id)).toEqual(['direct', 'inworld', 'local']);
    const secrets = configuredSecrets(env);
    expect(secrets).toContain('direct-key');
    expect(secrets).toContain('user:basic-secret');
    expect(secrets).toContain(Buffer.from('user:basic-secret').toString('base64'));
  });

  it('puts a file problem among the start-up warnings, never as a thrown error', () => {
    const env = parseServerEnv({}, file([{ id: 'x', preset: 'gateway' }]));
    expect(env.warnings).toEqual([expect.stringMatching(/target "x": field "baseUrl" is required/)]);
  });

  it('reads workbench.targets.json from the root, or the file WORKBENCH_TARGETS_FILE names, or none when it is empty', () => {
    const root = mkdtempSync(join(tmpdir(), 'targets-root-'));
    expect(readTargetsFile(root, {})).toBeNull();
    writeFileSync(join(root, TARGETS_FILE), JSON.stringify({ targets: [{ id: 'olla', preset: 'ollama' }] }));
    writeFileSync(
      join(root, 'other.json'),
      JSON.stringify({ targets: [{ id: 'llama', preset: 'llamacpp' }] }),
    );
    const env = loadServerEnv({ root, processEnv: { WORKBENCH_ENV_FILE: '' } });
    expect(env.targets.targets.map((t) => t.id)).toEqual(['olla', 'local']);
    expect(readTargetsFile(root, { WORKBENCH_TARGETS_FILE: 'other.json' })!.name).toBe('other.json');
    expect(readTargetsFile(root, { WORKBENCH_TARGETS_FILE: '' })).toBeNull();
    const missing = parseServerEnv({}, readTargetsFile(root, { WORKBENCH_TARGETS_FILE: 'nope.json' }));
    expect(missing.warnings).toEqual([
      'nope.json (named by WORKBENCH_TARGETS_FILE) does not exist; no targets were read from it.',
    ]);
  });
});
