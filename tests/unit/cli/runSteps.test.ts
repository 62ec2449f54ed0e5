// The steps of `evaluate-workbench run`, each alone: reading the inputs, choosing the target, the opening sentence, the
// progress of the whole run, settling it, its last sentence and its exit code. The command end to end is command.test.ts.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { InputError } from '../../../src/cli/inputs';
import type { RunOptions } from '../../../src/cli/run';
import {
  EXIT,
  chooseRunTarget,
  endingOf,
  exitCodeOf,
  openingLine,
  readInputs,
  settleProgress,
} from '../../../src/cli/run';
import type { Base } from '../../../src/cli/runPlan';
import { progressOf } from '../../../src/cli/runSend';
import type { RunProgress } from '../../../src/core/rows/runTypes';
import { parseServerEnv } from '../../../src/server/env';

const dir = mkdtempSync(join(tmpdir(), 'ew-run-steps-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const QUESTIONS = { urgent: { type: 'noul', instructions: 'Urgent?' } };
const questionsFile = join(dir, 'questions.json');
writeFileSync(questionsFile, JSON.stringify(QUESTIONS));

const options = (extra: Partial<RunOptions> = {}): RunOptions => ({
  questions: questionsFile,
  model: 'model-1.13.0',
  rows: join(dir, 'rows.csv'),
  map: { labels: {}, meta: [] },
  out: join(dir, 'out.jsonl'),
  pacing: {},
  budget: null,
  retryUnknown: false,
  gates: [],
  strict: false,
  ...extra,
});

const env = parseServerEnv(
  { HOSTED_KEY: 'sk-hosted' },
  {
    name: 'workbench.targets.json',
    text: JSON.stringify({
      targets: [
        { id: 'ts', preset: 'hosted', keyVar: 'HOSTED_KEY' },
        { id: 'kev', preset: 'llamacpp' },
        { id: 'lite', preset: 'litellm', keyVar: 'HOSTED_KEY' },
      ],
    }),
  },
);

const progress = (extra: Partial<RunProgress> = {}): RunProgress => ({
  phase: 'finished',
  halt: null,
  total: 10,
  done: 10,
  reused: 0,
  reusedEarlier: 0,
  partlyReused: 0,
  invalid: 0,
  failed: 0,
  unknown: 0,
  pending: 0,
  inFlight: 0,
  billedTokens: 100,
  possiblyBilledTokens: 0,
  cost: 0,
  possiblyBilledCost: 0,
  ratePerMinute: 60,
  etaMs: null,
  serviceWaitMs: null,
  ...extra,
});

describe('read the inputs', () => {
  it('reads the questions and the model, and refuses a label map naming no question', () => {
    expect(readInputs(options())).toEqual({ session: null, questions: QUESTIONS, model: 'model-1.13.0' });
    expect(() => readInputs(options({ map: { labels: { dept: ['human'] }, meta: [] } }))).toThrow(
      '--map label.dept=… names no question; the questions are urgent.',
    );
  });

  it('asks for the questions and the model when neither is given', () => {
    const { questions: _q, ...none } = options();
    expect(() => readInputs(none)).toThrow(InputError);
    expect(() => readInputs(none)).toThrow('Give the questions: --session session.json or --questions');
    expect(() => readInputs(options({ model: ' ' }))).toThrow('Give the model: --model <id>');
  });
});

describe('choose the target', () => {
  it('takes --target, and refuses a budget on a target without a price', () => {
    expect(chooseRunTarget({ target: 'ts', budget: null }, null, { env }).id).toBe('ts');
    expect(chooseRunTarget({ target: 'kev', budget: 5 }, null, { env }).inputPrice).toBe(0);
    expect(() => chooseRunTarget({ target: 'lite', budget: 5 }, null, { env })).toThrow(
      'The target "lite" has no price (inputPrice in workbench.targets.json), so --budget cannot be held',
    );
    expect(() => chooseRunTarget({ target: 'nosuch', budget: null }, null, { env })).toThrow(
      /There is no target "nosuch"/,
    );
  });
});

describe('the opening sentence', () => {
  it('names the rows, the shard, the target, a resume and the lines left out', () => {
    const target = chooseRunTarget({ target: 'lite', budget: null }, null, { env });
    const line = openingLine({ out: 'out.jsonl', shard: { index: 2, count: 4 } }, 'model-1.13.0', target, {
      planned: {
        flags: new Uint8Array(0),
        tokens: new Uint32Array(0),
        rows: 1200,
        totalTokens: 5000,
        skipped: 3,
        records: 4800,
      },
      header: { rowsFile: 'tickets.csv' } as never,
      start: { settled: 200 } as never,
    });
    expect(line).toBe(
      `1,200 rows of tickets.csv (shard 2/4) go to ${target.label} with model-1.13.0; resuming out.jsonl, where 200 are already settled; about 5,000 input tokens, price unknown. 3 lines are left out (listed in the summary).`,
    );
  });
});

describe('the progress of the whole run', () => {
  const base: Base = {
    counts: { done: 4, reused: 1, invalid: 0, failed: 0, unknown: 0 },
    billedTokens: 40,
    possiblyBilledTokens: 0,
  };
  const run = { total: 10, price: null, ratePerMinute: 0, configuredPerMinute: 60 };

  it('adds the window running now to the rows kept, and counts the rest as pending', () => {
    const p = progressOf(
      base,
      progress({ phase: 'running', done: 2, inFlight: 1, billedTokens: 20 }),
      null,
      run,
    );
    expect([p.done, p.reused, p.inFlight, p.pending, p.billedTokens]).toEqual([6, 1, 1, 2, 60]);
    // At the configured pace while no rate is measured: 3 rows left at 60 a minute.
    expect(p.etaMs).toBe(3_000);
  });

  it('settles a paused run as halted with the sentence to resume, and a budget stop with the cap', () => {
    const paused = settleProgress(
      { progress: progress({ phase: 'running', etaMs: 5 }), last: null, interrupted: true },
      null,
    );
    expect(paused.phase).toBe('halted');
    expect(paused.halt).toEqual({ reason: 'paused', message: 'Paused: resume to send the remaining rows.' });
    expect(paused.etaMs).toBeNull();
    const capped = settleProgress(
      {
        progress: progress(),
        last: progress({ halt: { reason: 'budget', message: 'x' } }),
        interrupted: false,
      },
      2.5,
    );
    expect(endingOf(capped)).toBe(
      'Stopped: Stopped before the budget cap of 2.5 would be passed; raise the cap to send the remaining rows.',
    );
    expect(exitCodeOf(capped, false, [])).toBe(EXIT.incomplete);
  });

  it('ends on every row settled, or on the rows without an answer, with the exit code each calls for', () => {
    const done = settleProgress({ progress: progress(), last: progress(), interrupted: false }, null);
    expect(endingOf(done)).toBe('Finished: every row settled (10 answered, 0 reused, 0 refused).');
    expect(exitCodeOf(done, false, [])).toBe(EXIT.ok);
    const failedGate = { key: 'k', passed: false, message: 'm' } as never;
    expect(exitCodeOf(done, false, [failedGate])).toBe(EXIT.gateFailed);
    expect(exitCodeOf(done, true, [])).toBe(EXIT.interrupted);
    const unknown = progress({ done: 9, unknown: 1 });
    expect(endingOf(unknown)).toMatch(/^Not finished: 1 row of 10 have no answer, 1 unknown/);
    expect(exitCodeOf(unknown, false, [])).toBe(EXIT.incomplete);
    expect(exitCodeOf(progress({ halt: { reason: 'auth', message: 'no' } }), false, [])).toBe(EXIT.auth);
  });
});
