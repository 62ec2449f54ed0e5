import { describe, expect, it } from 'vitest';
import { countTokens as countCl100k } from 'gpt-tokenizer/encoding/cl100k_base';
import {
  countingPieces,
  countTokens,
  MAX_RUN_CHARS,
  modelText,
  requestTokens,
  tokenLimitProblems,
} from '../../../src/contract/tokens';
import { exampleRequest } from '../../helpers/fixtures';

describe('tokens', () => {
  it('counts with cl100k_base', () => {
    expect(countTokens('')).toBe(0);
    expect(countTokens('hello world')).toBe(2);
  });

  it('reads structured values as JSON', () => {
    expect(modelText({ claim: 'x' })).toBe('{"claim":"x"}');
    expect(modelText(null)).toBe('');
  });

  it('counts the state and every question part, summing to the total', () => {
    const req = exampleRequest();
    const t = requestTokens(req);
    expect(t.state).toBe(countTokens(req.state as string));
    const dept =
      countTokens('Which team should handle this?') +
      countTokens('billing') +
      countTokens('Payments and refunds') +
      countTokens('technical') +
      countTokens('Bugs and integrations') +
      countTokens('other');
    expect(t.questions.department).toBe(dept);
    const sum = Object.values(t.questions).reduce((a, b) => a + b, 0);
    expect(t.total).toBe(t.state + sum);
    expect(t.statePlusLongest).toBe(t.state + Math.max(...Object.values(t.questions)));
  });

  it('reports each limit passed, and nothing when the request fits', () => {
    expect(tokenLimitProblems({ state: 10, questions: {}, total: 10, statePlusLongest: 10 })).toEqual([]);
    const problems = tokenLimitProblems({
      state: 40_000,
      questions: {},
      total: 70_000,
      statePlusLongest: 40_000,
    });
    expect(problems).toHaveLength(2);
    expect(problems[0]).toMatch(/64,000/);
    expect(problems[1]).toMatch(/32,000/);
  });
});

describe('counting is linear for any text (issue 18)', () => {
  it('equals the tokenizer on ordinary text, counted in segments cut where its pieces break anyway', () => {
    const alphabet = [
      'word',
      ' ',
      '  ',
      '\n',
      '\r\n',
      '\t',
      '.',
      ',',
      "'s",
      '123',
      '4567',
      'é',
      '中文',
      '😀',
      '{',
      '"',
      ':',
    ];
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
    for (let k = 0; k < 300; k++) {
      const parts = Array.from({ length: 1 + (next() % 120) }, () => alphabet[next() % alphabet.length]);
      const text = parts.join('');
      let segmented = 0;
      for (const piece of countingPieces(text, 1 + (next() % 16))) segmented += countCl100k(piece);
      expect(segmented, JSON.stringify(text)).toBe(countCl100k(text));
    }
    const prose = 'I was charged twice for my order, please refund me. '.repeat(400);
    expect(countTokens(prose)).toBe(countCl100k(prose));
  });

  it('a short text counts the same through the quick scan for long runs as through the counting pieces', () => {
    // Runs of each class just under, at and over the limit, ASCII and not, between ordinary words: the quick scan
    // may only skip the long-run rule where the rule would change nothing.
    const runs = ['a', ' ', '\t', '-', '\u0001', '7', 'é', '中', '\u00a0', '\u2003', '😀'];
    let seed = 11;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
    for (let k = 0; k < 400; k++) {
      const parts: string[] = [];
      for (let p = 0; p < 1 + (next() % 6); p++) {
        parts.push('refund me now ', runs[next() % runs.length]!.repeat(MAX_RUN_CHARS - 2 + (next() % 5)));
      }
      const text = parts.join('');
      let pieces = 0;
      for (const piece of countingPieces(text)) pieces += countCl100k(piece);
      expect(countTokens(text), JSON.stringify(text)).toBe(pieces);
    }
  });

  it('cuts an unbroken run into pieces of at most MAX_RUN_CHARS, never inside a surrogate pair', () => {
    const run = '😀'.repeat(MAX_RUN_CHARS * 3);
    const pieces = [...countingPieces(run)];
    expect(pieces.join('')).toBe(run);
    for (const piece of pieces) {
      expect(piece.length).toBeLessThanOrEqual(MAX_RUN_CHARS);
      expect(piece.codePointAt(0)).toBe(0x1f600);
    }
    // The long-run rule: the same figure as counting each piece alone, and close to the tokenizer's own.
    const letters = 'a'.repeat(10_000);
    expect(countTokens(letters)).toBe(
      countCl100k('a'.repeat(MAX_RUN_CHARS)) * ((10_000 / MAX_RUN_CHARS) | 0) +
        countCl100k('a'.repeat(10_000 % MAX_RUN_CHARS)),
    );
  });

  it('reads special-token text as text instead of throwing', () => {
    expect(countTokens('a <|endoftext|> b')).toBeGreaterThan(3);
  });
});
