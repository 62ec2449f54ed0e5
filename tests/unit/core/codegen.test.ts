// The generated code really works: curl and the TypeScript and Python programs run against the local reference.
import { execFile, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONVERSATION_FIELD, PLAIN_WIRE } from '../../../src/contract';
import { EvaluateResponseSchema } from '../../../src/contract';
import type { EvaluateResponse } from '../../../src/contract';
import {
  bodyAsSent,
  evaluateUrl,
  requestToCurl,
  requestToPython,
  requestToTypeScript,
  shellQuote,
} from '../../../src/core/codegen';
import { serveReference } from '../../../src/server/reference/serve';
import type { RunningReference } from '../../../src/server/reference/serve';
import { DEFAULT_API_KEY } from '../../../src/server/reference/options';
import { exampleRequest } from '../../helpers/fixtures';

const run = promisify(execFile);
const repo = resolve(__dirname, '../../..');
const keyEnv = { ...process.env, EVAL_API_KEY: DEFAULT_API_KEY };

// Content that breaks naive quoting: quotes of every kind, shell expansions, backslashes, the heredoc delimiter,
// newlines, non-ASCII and U+2028 (a line separator to JavaScript before ES2019).
const NASTY = `It's "$HOME" \`whoami\` $(echo pwned) \\ '''\nEOF\nEVAL_REQUEST_JSON\nnaïve 日本 🚀 \u2028 end`;
const trickyRequest = () => ({
  state: { quote: NASTY, note: 'second field' },
  model: 'model-latest',
  questions: {
    ...exampleRequest().questions,
    "it's": {
      type: 'score' as const,
      instructions: 'Does `quote` hold? $(rm -rf /tmp/nothing)',
      criteria: [`Low: ${NASTY}`, 'Middle with "double" quotes and \\ a backslash', 'EVAL_REQUEST_JSON'],
    },
  },
});

/** Parses a program's output as an evaluation response and checks it answers the tricky request exactly. */
function expectAnswered(stdout: string): EvaluateResponse {
  const response = EvaluateResponseSchema.parse(JSON.parse(stdout));
  const request = trickyRequest();
  expect(Object.keys(response.answers).sort()).toEqual(Object.keys(request.questions).sort());
  expect(response.model).toBe('model-1.13.0');
  // The legend echoes each level as received: the body survived the trip byte for byte.
  const score = response.answers["it's"];
  expect(score?.type === 'score' && Object.values(score.legend)).toEqual(request.questions["it's"].criteria);
  return response;
}

let reference: RunningReference;
let dir: string;
beforeAll(async () => {
  reference = await serveReference({ port: 0 });
  dir = mkdtempSync(join(tmpdir(), 'codegen-'));
});
afterAll(async () => {
  await reference.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('evaluateUrl and shellQuote', () => {
  it('joins a base URL and a configurable path with exactly one slash', () => {
    expect(evaluateUrl({ baseUrl: 'http://h:1/' })).toBe('http://h:1/v1/evaluate');
    expect(evaluateUrl({ baseUrl: 'https://api.example.com/base', evaluatePath: 'v1/systemone' })).toBe(
      'https://api.example.com/base/v1/systemone',
    );
  });
  it('quotes any text so the shell reads it back unchanged', async () => {
    const { stdout } = await run('bash', ['-c', `printf %s ${shellQuote(NASTY)}`]);
    expect(stdout).toBe(NASTY);
  });
});

describe('requestToCurl', () => {
  it('runs against the local reference and gets a 200 answering the exact request', async () => {
    const command = requestToCurl(trickyRequest(), { baseUrl: reference.url });
    expect(command).toContain('$(rm -rf /tmp/nothing)'); // in the quoted heredoc, so never expanded
    const { stdout } = await run('bash', ['-c', command], { env: keyEnv });
    const response = expectAnswered(stdout);
    expect(response.usage.input_tokens).toBeGreaterThan(0);
  });

  it('stops before sending when the key is not set, and never contains a key', async () => {
    const command = requestToCurl(exampleRequest(), { baseUrl: reference.url });
    expect(command).not.toContain(DEFAULT_API_KEY);
    const env = { ...process.env };
    delete env.EVAL_API_KEY;
    await expect(run('bash', ['-c', command], { env })).rejects.toMatchObject({
      stderr: expect.stringContaining('set EVAL_API_KEY'),
    });
  });

  it('notes the retry policy and sends to a configured evaluate path', () => {
    const command = requestToCurl(exampleRequest(), { baseUrl: 'http://x', evaluatePath: '/v1/systemone' });
    expect(command).toContain("'http://x/v1/systemone'");
    expect(command).toMatch(/--retry 2/);
    expect(command).toMatch(/529/);
    expect(command).toMatch(/Never retry 401 or 422/);
  });
});

describe('requestToTypeScript', () => {
  it('type-checks under strict settings with the DOM and Node types', { timeout: 30_000 }, () => {
    const file = join(dir, 'evaluate.ts');
    writeFileSync(file, requestToTypeScript(trickyRequest(), { baseUrl: reference.url }));
    const program = ts.createProgram([file], {
      strict: true,
      noEmit: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
      types: ['node'],
      typeRoots: [join(repo, 'node_modules/@types')],
    });
    const problems = ts
      .getPreEmitDiagnostics(program)
      .map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    expect(problems).toEqual([]);
  });

  it('runs against the local reference and prints the answers', { timeout: 30_000 }, async () => {
    const file = join(dir, 'run.ts');
    writeFileSync(file, requestToTypeScript(trickyRequest(), { baseUrl: reference.url }));
    const { stdout } = await run(join(repo, 'node_modules/.bin/tsx'), [file], { env: keyEnv });
    expectAnswered(stdout);
  });

  it('keeps a "__proto__" question name, which an object literal would turn into a prototype', () => {
    const request = JSON.parse(
      '{"state":"s","model":"model-latest","questions":{"__proto__":{"type":"noul"}}}',
    );
    const code = requestToTypeScript(request, { baseUrl: 'http://x' });
    const literal = /const requestBody = (JSON\.parse\(.*\)) as unknown;/.exec(code)?.[1];
    expect(literal).toBeDefined();
    const body = new Function(`return ${literal}`)() as Record<string, Record<string, unknown>>;
    expect(Object.keys(body.questions!)).toEqual(['__proto__']);
  });
});

describe('requestToPython', () => {
  const python = (code: string, args: string[] = []) =>
    spawnSync('python3', ['-c', 'import ast,sys; ast.parse(sys.stdin.read())', ...args], {
      input: code,
      encoding: 'utf8',
    });

  it('parses as Python and reads the key from the environment', () => {
    const code = requestToPython(trickyRequest(), { baseUrl: reference.url });
    const result = python(code);
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(code).toContain('os.environ["EVAL_API_KEY"]');
    expect(code).toMatch(/# Retry policy of the service: at most 2 retries/);
  });
});

describe('bodyAsSent', () => {
  const conversation = [
    { role: 'user' as const, content: 'Where is my refund?' },
    { type: 'function_call' as const, call_id: 'c1', name: 'issue_refund', arguments: '{"order": 7}' },
    { type: 'function_call_output' as const, call_id: 'c1', output: 'refunded' },
    { role: 'assistant' as const, content: 'Your refund is on its way.' },
  ];
  const body = {
    state: 'User: Where is my refund?',
    model: 'gpt-6-luna',
    questions: {
      promised: { type: 'noul', instructions: 'Was a refund promised after the refund tool ran?' },
    },
    [CONVERSATION_FIELD]: conversation,
  };

  it('gives a Decisions target the body its SDK takes: input is the conversation, questions an ordered list', () => {
    const sent = bodyAsSent(body, { dialect: 'decisions', envelope: 'none', modelInPath: false });
    expect(sent.problem).toBeNull();
    expect(sent.body).toEqual({
      model: 'gpt-6-luna',
      input: conversation,
      questions: [
        {
          type: 'predicate',
          name: 'promised',
          instructions: 'Was a refund promised after the refund tool ran?',
        },
      ],
    });
  });

  it("gives a target of the interface's form the rendered state, without the workbench's field", () => {
    const { [CONVERSATION_FIELD]: _dropped, ...plain } = body;
    expect(bodyAsSent(body, PLAIN_WIRE)).toEqual({ body: plain, problem: null });
  });
});
