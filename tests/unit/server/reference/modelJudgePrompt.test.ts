// The pure half of the model judge: contract questions into node-llama-cpp's, its answers back into the contract's
// numbers; and the test model writer checked by node-llama-cpp's own GGUF reader.
import { readGgufFileInfo } from 'node-llama-cpp';
import { describe, expect, it } from 'vitest';
import {
  choiceConfidence,
  localFileModelIds,
  localFileOfModel,
  round2,
  scoreConfidence,
} from '../../../../src/contract';
import {
  contractAnswer,
  decisionQuestion,
  documentOf,
  normalised,
} from '../../../../src/server/reference/modelJudge/prompt';
import { modelJudgeSettingsFromEnv } from '../../../../src/server/reference/modelJudge/settings';
import { writeTinyGguf } from '../../../helpers/tinyGguf';

describe('contract questions as the engine reads them', () => {
  it('keeps text as sent and shows objects as JSON, in the state, instructions and descriptions', () => {
    expect(documentOf('plain text')).toBe('plain text');
    expect(documentOf({ ticket: 'Refund', n: 2 })).toBe('{\n  "ticket": "Refund",\n  "n": 2\n}');
    expect(
      decisionQuestion({
        type: 'choice',
        instructions: { task: 'Which team?', see: '`ticket`' },
        criteria: { billing: 'Payments', tech: null, other: ['anything', 'else'] },
      }),
    ).toEqual({
      type: 'choice',
      instruction: '{\n  "task": "Which team?",\n  "see": "`ticket`"\n}',
      criteria: { billing: 'Payments', tech: null, other: '[\n  "anything",\n  "else"\n]' },
    });
  });

  it('puts a question to the model when the instructions are missing or blank', () => {
    expect(decisionQuestion({ type: 'noul' })).toEqual({
      type: 'noul',
      instruction: 'Is the answer to this yes?',
    });
    expect(decisionQuestion({ type: 'score', instructions: '  ', criteria: ['low', 'high'] })).toEqual({
      type: 'score',
      instruction: 'Which level describes the text best?',
      criteria: ['low', 'high'],
    });
    expect(decisionQuestion({ type: 'noul', instructions: 'Urgent?', criteria: { true: 'Now' } })).toEqual({
      type: 'noul',
      instruction: 'Urgent?',
      criteria: { true: 'Now', false: '' },
    });
  });
});

describe('engine answers as contract answers', () => {
  it("recomputes the choice confidence from the probabilities, not the engine's tanh of the logit gap", () => {
    const a = contractAnswer(
      { type: 'choice', criteria: { a: null, b: null, c: null } },
      { type: 'choice', choice: 'b', confidence: 0.99, probabilities: { a: 0.2, b: 0.5, c: 0.3 } },
    );
    expect(a).toEqual({
      type: 'choice',
      choice: 'b',
      confidence: round2(choiceConfidence([0.2, 0.5, 0.3])),
      probabilities: { a: 0.2, b: 0.5, c: 0.3 },
    });
    expect(a.type === 'choice' && a.confidence).toBe(0.25);
  });

  it('recomputes score, confidence and legend from the level probabilities', () => {
    const a = contractAnswer(
      { type: 'score', criteria: ['calm', 'cross', 'furious'] },
      { type: 'score', score: 9, confidence: 0.98, probabilities: [0.1, 0.7, 0.2] },
    );
    expect(a).toEqual({
      type: 'score',
      score: 1.1,
      confidence: round2(scoreConfidence([0.1, 0.7, 0.2])),
      legend: { 0: 'calm', 1: 'cross', 2: 'furious' },
      probabilities: { 0: 0.1, 1: 0.7, 2: 0.2 },
    });
  });

  it('rounds noul to hundredths and survives numbers the engine should never send', () => {
    expect(contractAnswer({ type: 'noul' }, { type: 'noul', value: 0.12345 })).toEqual({
      type: 'noul',
      noul: 0.12,
    });
    expect(contractAnswer({ type: 'noul' }, { type: 'noul', value: Number.NaN })).toEqual({
      type: 'noul',
      noul: 0.5,
    });
    expect(normalised([Number.NaN, -1, 2, 2])).toEqual([0, 0, 0.5, 0.5]);
    expect(normalised([0, 0])).toEqual([0.5, 0.5]);
  });

  it('refuses an answer of another type than its question', () => {
    expect(() =>
      contractAnswer({ type: 'noul' }, { type: 'score', score: 0, confidence: 0, probabilities: [1] }),
    ).toThrow('The engine answered a noul question with a score answer.');
  });
});

describe('model ids and settings', () => {
  it('derives the alias from the file name and the version from its hash', () => {
    expect(localFileModelIds('Qwen2.5 0.5B (q4)', 'abcdef0123456789')).toEqual({
      alias: 'local-Qwen2.5-0.5B-q4',
      versioned: 'local-Qwen2.5-0.5B-q4@abcdef012345',
    });
    expect(localFileOfModel('local-qwen2.5-0.5b-instruct-q4_k_m@abcdef012345')).toBe(
      'qwen2.5-0.5b-instruct-q4_k_m.gguf',
    );
    expect(localFileOfModel('model-1.13.0')).toBeNull();
  });

  it('reads REFERENCE_MODEL_* with the command line winning, and names a bad variable', () => {
    expect(modelJudgeSettingsFromEnv({})).toBeNull();
    expect(
      modelJudgeSettingsFromEnv({ REFERENCE_MODEL_FILE: 'a.gguf', REFERENCE_MODEL_PARALLEL: '2' }, 'b.gguf'),
    ).toEqual({
      file: 'b.gguf',
      contextSize: 8192,
      parallelQuestions: 2,
      threads: 0,
    });
    expect(() =>
      modelJudgeSettingsFromEnv({ REFERENCE_MODEL_FILE: 'a.gguf', REFERENCE_MODEL_CONTEXT: 'big' }),
    ).toThrow('REFERENCE_MODEL_CONTEXT must be a number.');
  });
});

describe('the tiny test model', () => {
  it('is a llama GGUF that node-llama-cpp reads: byte-level vocabulary, one layer, a few hundred kB', async () => {
    const info = await readGgufFileInfo(writeTinyGguf());
    expect(info.version).toBe(3);
    expect(info.metadata.general.architecture).toBe('llama');
    const tokenizer = info.metadata.tokenizer.ggml;
    expect(tokenizer.model).toBe('llama');
    expect(tokenizer.tokens).toHaveLength(3 + 256 + 1 + 94);
    expect(tokenizer.tokens.slice(3, 5)).toEqual(['<0x00>', '<0x01>']);
    expect(info.tensorInfo?.map((t) => t.name)).toContain('blk.0.ffn_down.weight');
    expect(info.tensorInfo?.length).toBe(12);
  });
});
