// Mapping rows to states, dedup keys, and the plan before a run (with the project's real tokenizer).
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { estimateCost, MAX_STATE_PLUS_QUESTION_TOKENS } from '../../../../src/contract';
import { questionTokens, requestTokens, stateTokens } from '../../../../src/contract/tokens';
import {
  canonicalJson,
  dedupKey,
  dedupText,
  pinnedModel,
  sha256HexSync,
  dedupKeySync,
} from '../../../../src/core/rows/dedup';
import {
  describeMapping,
  labelsNamedLikeQuestions,
  mapRow,
  rowId,
  suggestMapping,
} from '../../../../src/core/rows/mapping';
import { parseCsvText } from '../../../../src/core/rows/parse';
import { budgetFit, planDurationMs, planRun, sortIssues } from '../../../../src/core/rows/runPlan';
import { exampleRequest } from '../../../helpers/fixtures';

/** SHA-256 by Node's own crypto: the oracle the JS digest is checked against. */
const sha256Hex = async (text: string): Promise<string> =>
  createHash('sha256').update(text, 'utf8').digest('hex');

const counter = { stateTokens, questionTokens };

describe('mapping a row to the state', () => {
  const data = { id: '7', text: 'Refund please', locale: 'en', empty: '' };

  it('takes the whole row as named fields, leaving the id column out', () => {
    expect(mapRow(data, { mode: 'fields', idColumn: 'id' })).toEqual({
      ok: true,
      state: { text: 'Refund please', locale: 'en', empty: '' },
    });
    expect(mapRow(data, { mode: 'fields', idColumn: null })).toEqual({ ok: true, state: data });
  });

  it('takes one column as text, and says why when it cannot', () => {
    expect(mapRow(data, { mode: 'text', column: 'text', idColumn: null })).toEqual({
      ok: true,
      state: 'Refund please',
    });
    expect(mapRow(data, { mode: 'text', column: 'empty', idColumn: null })).toEqual({
      ok: false,
      reason: 'The field `empty` is empty.',
    });
    expect(mapRow(data, { mode: 'text', column: 'nope', idColumn: null })).toEqual({
      ok: false,
      reason: 'The row has no field `nope`.',
    });
    expect(mapRow('just text', { mode: 'text', column: 'x', idColumn: null })).toMatchObject({ ok: false });
  });

  it('takes chosen columns, in the chosen order', () => {
    expect(mapRow(data, { mode: 'columns', columns: ['locale', 'text'], idColumn: 'id' })).toEqual({
      ok: true,
      state: { locale: 'en', text: 'Refund please' },
    });
    expect(mapRow(data, { mode: 'columns', columns: ['empty'], idColumn: null })).toMatchObject({
      ok: false,
    });
  });

  it('maps rows that are not objects (JSON Lines of strings) as they are', () => {
    expect(mapRow('hello', { mode: 'fields', idColumn: null })).toEqual({ ok: true, state: 'hello' });
    expect(mapRow(['a', 1], { mode: 'fields', idColumn: null })).toEqual({ ok: true, state: ['a', 1] });
    expect(mapRow(42, { mode: 'fields', idColumn: null })).toEqual({ ok: true, state: '42' });
  });

  it('names rows by the id column when it has a value, else by the record number', () => {
    const row = { number: 3, line: 4, data };
    expect(rowId(row, { mode: 'fields', idColumn: 'id' })).toBe('7');
    expect(rowId({ ...row, data: { ...data, id: ' ' } }, { mode: 'fields', idColumn: 'id' })).toBe('3');
    expect(rowId(row, { mode: 'fields', idColumn: null })).toBe('3');
  });

  it('suggests a mapping from column names', () => {
    expect(suggestMapping(['id', 'text'])).toEqual({ mode: 'text', column: 'text', idColumn: 'id' });
    expect(suggestMapping(['ticket_id', 'message', 'locale'])).toEqual({
      mode: 'text',
      column: 'message',
      idColumn: 'ticket_id',
    });
    expect(suggestMapping(['claim', 'quote', 'source'])).toEqual({ mode: 'fields', idColumn: null });
    expect(suggestMapping([], false)).toEqual({ mode: 'fields', idColumn: null });
    expect(describeMapping({ mode: 'text', column: 'text', idColumn: 'id' })).toMatch(/`text` as text.*`id`/);
  });

  it('maps a column named like a question as its label by default, so the label never reaches the state', () => {
    const columns = ['id', 'text', 'department', 'Is-Urgent', 'frustration'];
    const mapping = suggestMapping(columns, true, ['department', 'is_urgent', 'frustration']);
    expect(mapping).toEqual({
      mode: 'text',
      column: 'text',
      idColumn: 'id',
      labels: [
        { column: 'department', question: 'department', levelBase: 0, values: {} },
        { column: 'Is-Urgent', question: 'is_urgent', levelBase: 0, values: {} },
        { column: 'frustration', question: 'frustration', levelBase: 0, values: {} },
      ],
    });
    // With two other columns the whole row is the state, and still without the labels.
    const whole = suggestMapping(['subject', 'sender', 'department'], true, ['department']);
    expect(whole.mode).toBe('fields');
    const mapped = mapRow({ subject: 'Refund', sender: 'ann', department: 'billing' }, whole);
    expect(mapped).toEqual({ ok: true, state: { subject: 'Refund', sender: 'ann' } });
    // An exact name wins over one that differs in case only; a column is one question's label at most.
    expect(labelsNamedLikeQuestions(['Department', 'department'], ['department'])).toEqual([
      { column: 'department', question: 'department' },
    ]);
    expect(labelsNamedLikeQuestions(['department'], ['department'], new Set(['department']))).toEqual([]);
  });
});

describe('dedup keys', () => {
  it('are the same whatever the key order, and differ when anything that matters differs', async () => {
    expect(canonicalJson({ b: 1, a: [{ d: 2, c: null }], e: undefined })).toBe(
      '{"a":[{"c":null,"d":2}],"b":1}',
    );
    const { questions } = exampleRequest();
    const base = { targetId: 'local', model: 'model-1.13.0', state: { a: '1', b: '2' }, questions };
    const reordered = {
      ...base,
      state: { b: '2', a: '1' },
      questions: Object.fromEntries(Object.entries(questions).reverse()),
    };
    expect(await dedupKey(base)).toBe(await dedupKey(reordered));
    expect(await dedupKey(base)).toMatch(/^[0-9a-f]{64}$/);
    for (const change of [{ model: 'model-1.12.0' }, { targetId: 'prod' }, { state: { a: '1', b: '3' } }]) {
      expect(await dedupKey({ ...base, ...change })).not.toBe(await dedupKey(base));
    }
    expect(await dedupKey(base)).toBe(await sha256Hex(dedupText(base)));
  });

  it('the row keys hashed from a shared beginning equal SHA-256 of the whole canonical text, for any identity', async () => {
    const { questions } = exampleRequest();
    const long = { ...questions, extra: { type: 'noul' as const, instructions: 'é ünïcödé '.repeat(37) } };
    let checked = 0;
    // Texts of every length around the 64-byte blocks, multi-byte characters, tags, other models and targets, and
    // the same questions object again and again (its hashed beginning is reused).
    for (const qs of [questions, long]) {
      for (const model of ['model-1.13.0', 'model-1.12.0']) {
        for (const targetId of ['local', 'prod"quoted']) {
          for (let n = 0; n < 70; n++) {
            const state = n % 3 === 0 ? { text: 'ü'.repeat(n), n } : 'x'.repeat(n) + '€';
            const id = {
              targetId,
              model,
              state,
              questions: qs,
              ...(n % 5 === 0 ? { tag: `repeat ${n}` } : {}),
            };
            expect(dedupKeySync(id)).toBe(await sha256Hex(dedupText(id)));
            checked++;
          }
        }
      }
    }
    expect(checked).toBe(560);
  });

  it('computes SHA-256 exactly (known vector)', async () => {
    expect(sha256HexSync(new TextEncoder().encode('abc'))).toBe(
      'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
    );
  });

  it('computes the same digest as Node’s crypto, in plain JS (pages served over plain http from a LAN address)', async () => {
    const enc = (t: string) => new TextEncoder().encode(t);
    for (const text of [
      '',
      'abc',
      'é'.repeat(55),
      'x'.repeat(64),
      canonicalJson({ long: 'y'.repeat(1000) }),
    ]) {
      expect(sha256HexSync(enc(text))).toBe(await sha256Hex(text));
    }
  });

  it('only pins versioned ids; aliases move', () => {
    expect(pinnedModel('model-1.13.0')).toBe('model-1.13.0');
    expect(pinnedModel('model-latest')).toBeNull();
    expect(pinnedModel('model-1.13')).toBeNull();
  });
});

describe('the plan before a run', () => {
  const { questions } = exampleRequest();

  it('counts each row exactly as the reference bills it (same tokenizer, same text)', () => {
    const parsed = parseCsvText('id,text\n1,Refund please I was charged twice\n2,The app crashes on start\n');
    const plan = planRun(parsed.rows, { mode: 'text', column: 'text', idColumn: 'id' }, questions, counter);
    expect(plan.rows.map((r) => r.id)).toEqual(['1', '2']);
    for (const row of plan.rows) {
      expect(row.tokens).toBe(requestTokens({ state: row.state, questions }).total);
    }
    expect(plan.totalTokens).toBe(plan.rows[0]!.tokens + plan.rows[1]!.tokens);
    expect(plan.estimatedCost).toBe(estimateCost(plan.totalTokens));
    expect(plan.issues).toEqual([]);
  });

  it('lists rows too large for the token limits, and unmappable rows, with line and reason', () => {
    const big = 'word '.repeat(MAX_STATE_PLUS_QUESTION_TOKENS + 10);
    const parsed = parseCsvText(`id,text\n1,short\n2,${big}\n3,\n4,fine\n`);
    const plan = planRun(parsed.rows, { mode: 'text', column: 'text', idColumn: 'id' }, questions, counter);
    expect(plan.rows.map((r) => r.line)).toEqual([2, 5]);
    expect(sortIssues(plan.issues).map((i) => [i.line, i.kind])).toEqual([
      [3, 'too_large'],
      [4, 'unmappable'],
    ]);
    expect(plan.issues.find((i) => i.kind === 'too_large')!.reason).toMatch(/32000/);
  });

  it('warns about duplicate ids but still runs both rows', () => {
    const parsed = parseCsvText('id,text\n1,a\n1,b\n');
    const plan = planRun(parsed.rows, { mode: 'text', column: 'text', idColumn: 'id' }, questions, counter);
    expect(plan.rows).toHaveLength(2);
    expect(plan.issues).toEqual([
      expect.objectContaining({ line: 3, kind: 'duplicate_id', severity: 'warn' }),
    ]);
  });

  it('says how many rows a budget cap lets through, and how long the run should take', () => {
    const rows = [1000, 1000, 1000];
    expect(budgetFit(rows, null)).toEqual({ rowsWithin: 3, fitsAll: true });
    expect(budgetFit(rows, estimateCost(2500))).toEqual({ rowsWithin: 2, fitsAll: false });
    expect(budgetFit(rows, estimateCost(3000))).toEqual({ rowsWithin: 3, fitsAll: true });
    const plan = { rowCount: 1201, totalTokens: 120_100 };
    expect(planDurationMs(plan, { requestsPerMinute: 1200, concurrency: 4, tokensPerSecond: 250_000 })).toBe(
      60_000,
    );
  });
});

describe("a row longer than the chosen target's context", () => {
  it('is left out before the run with its reason, while the rest run', () => {
    const rows = [
      { number: 1, line: 2, data: { text: 'short' } },
      { number: 2, line: 3, data: { text: 'long' } },
    ];
    const counter = { stateTokens: (s: unknown) => (s === 'long' ? 1_500 : 20), questionTokens: () => 10 };
    const questions = { q: { type: 'noul' as const, instructions: 'Is it urgent?' } };
    const mapping = { mode: 'text' as const, column: 'text', idColumn: null };
    const plan = planRun(rows, mapping, questions, counter, undefined, { tokens: 1_024, target: 'Laya' });
    expect(plan.rows.map((r) => r.number)).toEqual([1]);
    expect(plan.issues).toEqual([
      expect.objectContaining({
        line: 3,
        kind: 'too_large',
        reason: 'Too large for Laya: 1510 input tokens with the questions; it reads at most 1024.',
      }),
    ]);
    // Without the target's context both fit the contract's limits.
    expect(planRun(rows, mapping, questions, counter).rows).toHaveLength(2);
  });
});
