// The server's environment: defaults, targets from variable pairs, .env.local under the process's own variables.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  configuredSecrets,
  EnvError,
  loadRawEnv,
  loadServerEnv,
  parseServerEnv,
} from '../../../src/server/env';
import { targetsFromEnv } from '../../../src/server/workbench';

describe('parseServerEnv', () => {
  it('defaults to 127.0.0.1:5173 and the local target alone', () => {
    const env = parseServerEnv({});
    expect(env).toMatchObject({
      port: 5173,
      host: '127.0.0.1',
      direct: undefined,
      gateway: undefined,
      warnings: [],
    });
    expect(targetsFromEnv(env).map((t) => t.id)).toEqual(['local']);
  });

  it('adds direct and gateway when both variables of a pair are set', () => {
    const env = parseServerEnv({
      EVAL_BASE_URL: 'https://api.example.com',
      EVAL_API_KEY: 'k1',
      EVAL_EVALUATE_PATH: '/v1/systemone',
      EVAL_GATEWAY_URL: 'https://gw.example.com/eval',
      EVAL_GATEWAY_KEY: 'k2',
      EVAL_GATEWAY_AUTH_HEADER: 'x-api-key',
    });
    expect(env.direct).toEqual({
      baseUrl: 'https://api.example.com',
      apiKey: 'k1',
      evaluatePath: '/v1/systemone',
    });
    expect(env.gateway).toEqual({
      baseUrl: 'https://gw.example.com/eval',
      apiKey: 'k2',
      evaluatePath: '/v1/evaluate',
      authHeader: 'x-api-key',
    });
    const targets = targetsFromEnv(env);
    expect(targets.map((t) => [t.id, t.kind, t.host])).toEqual([
      ['direct', 'direct', 'api.example.com'],
      ['gateway', 'gateway', 'gw.example.com'],
      ['local', 'local', 'in-process'],
    ]);
    expect(targets.find((t) => t.id === 'gateway')?.credential).toEqual({ header: 'x-api-key', value: 'k2' });
  });

  it('shows the host of a URL that carries credentials, never the credentials', () => {
    const env = parseServerEnv({
      EVAL_BASE_URL: 'https://user:pw@api.example.com:8443/x',
      EVAL_API_KEY: 'k',
    });
    const direct = targetsFromEnv(env)[0]!;
    expect(direct.host).toBe('api.example.com:8443');
    expect(direct.label).not.toContain('pw');
  });

  it('treats empty variables as unset, as .env.example writes them', () => {
    const env = parseServerEnv({ EVAL_BASE_URL: 'https://api.example.com', EVAL_API_KEY: '', PORT: '' });
    expect(env.direct).toBeUndefined();
    expect(env.port).toBe(5173);
    expect(env.warnings).toEqual([
      'EVAL_BASE_URL is set but EVAL_API_KEY is not: the direct target is listed as "key missing" and does not send.',
    ]);
    const direct = targetsFromEnv(env)[0]!;
    expect(direct.keyMissing).toBe('key missing: EVAL_API_KEY');
    expect(direct.credential).toBeNull();
  });

  it('warns when HOST exposes the workbench beyond this machine', () => {
    expect(parseServerEnv({ HOST: '0.0.0.0' }).warnings[0]).toMatch(/reachable from other machines/);
    expect(parseServerEnv({ HOST: 'localhost' }).warnings).toEqual([]);
  });

  it('names every bad variable and never echoes a value', () => {
    let error: unknown;
    try {
      parseServerEnv({ EVAL_BASE_URL: 'ftp://secret-host', EVAL_API_KEY: 'sk-live-123', PORT: '99999' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(EnvError);
    const message = (error as Error).message;
    expect(message).toContain('EVAL_BASE_URL must be an http:// or https:// URL.');
    expect(message).toContain('PORT must be at most 65535.');
    expect(message).not.toContain('secret-host');
    expect(message).not.toContain('sk-live-123');
  });

  it('refuses a gateway auth header that every hop reads', () => {
    expect(() => parseServerEnv({ EVAL_GATEWAY_AUTH_HEADER: 'Cookie' })).toThrow(/must not be Host, Cookie/);
    expect(() => parseServerEnv({ EVAL_GATEWAY_AUTH_HEADER: 'x api key' })).toThrow(/must be a header name/);
  });

  it('lists every configured key for redaction, the reference keys included', () => {
    const env = parseServerEnv({
      EVAL_BASE_URL: 'https://a.example',
      EVAL_API_KEY: 'k1',
      EVAL_GATEWAY_URL: 'https://b.example',
      EVAL_GATEWAY_KEY: 'k2',
      REFERENCE_API_KEY: 'r1, r2',
    });
    expect(configuredSecrets(env)).toEqual(['k1', 'k2', 'r1', 'r2']);
  });
});

describe('loadRawEnv', () => {
  const dirWith = (file: string, text: string): string => {
    const dir = mkdtempSync(join(tmpdir(), 'workbench-env-'));
    writeFileSync(join(dir, file), text);
    return dir;
  };

  it('reads .env.local, and the process variables win over it', () => {
    const root = dirWith(
      '.env.local',
      'EVAL_BASE_URL=https://from-file.example\nEVAL_API_KEY="quoted key"\nPORT=6000\n',
    );
    const env = loadServerEnv({ root, processEnv: { PORT: '7000' } });
    expect(env.port).toBe(7000);
    expect(env.direct).toMatchObject({ baseUrl: 'https://from-file.example', apiKey: 'quoted key' });
  });

  it('reads the file WORKBENCH_ENV_FILE names, or none when it is empty', () => {
    const root = dirWith('other.env', 'PORT=6001\n');
    writeFileSync(join(root, '.env.local'), 'PORT=6002\n');
    expect(loadRawEnv({ root, processEnv: { WORKBENCH_ENV_FILE: 'other.env' } }).PORT).toBe('6001');
    expect(loadRawEnv({ root, processEnv: { WORKBENCH_ENV_FILE: '' } }).PORT).toBeUndefined();
    expect(loadRawEnv({ root, processEnv: {} }).PORT).toBe('6002');
  });

  it('starts with no file at all', () => {
    const root = mkdtempSync(join(tmpdir(), 'workbench-env-'));
    expect(loadServerEnv({ root, processEnv: {} }).port).toBe(5173);
  });
});

describe('a target of another dialect (until issue 11 names targets)', () => {
  it('reads the dialect, envelope, model-in-path and limits of direct and gateway', () => {
    const env = parseServerEnv({
      EVAL_BASE_URL: 'https://api.example.com',
      EVAL_API_KEY: 'k',
      EVAL_DIALECT: 'decisions',
      EVAL_LIMITS: 'questions=400, options=255',
      EVAL_GATEWAY_URL: 'https://api.cloudflare.com',
      EVAL_GATEWAY_KEY: 'g',
      EVAL_GATEWAY_ENVELOPE: 'cloudflare',
      EVAL_GATEWAY_MODEL_IN_PATH: 'true',
    });
    expect(env.direct).toMatchObject({
      wire: { dialect: 'decisions', envelope: 'none', modelInPath: false },
      limits: { questions: 400, options: 255 },
    });
    expect(env.gateway).toMatchObject({
      wire: { dialect: 'systemone', envelope: 'cloudflare', modelInPath: true },
    });
    expect(env.gateway?.limits).toBeUndefined();
    expect(
      parseServerEnv({ EVAL_BASE_URL: 'https://a.example', EVAL_API_KEY: 'k' }).direct?.wire,
    ).toBeUndefined();
  });

  it('names a bad setting in one sentence', () => {
    expect(() => parseServerEnv({ EVAL_DIALECT: 'openai' })).toThrow(
      'EVAL_DIALECT must be systemone or decisions.',
    );
    expect(() => parseServerEnv({ EVAL_LIMITS: 'questions=many' })).toThrow(
      'EVAL_LIMITS takes questions, options, levels, contextTokens as key=number pairs, such as questions=64; "questions=many" is not one.',
    );
  });
});
