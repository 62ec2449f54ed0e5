// The command line on a file three annotators labelled, as CI runs it: the annotators' columns found by a pattern and
// never sent, the trust figures gated (the alt-test's omega, the guaranteed coverage) and written in --report, and
// `report` gating a results file again with another epsilon.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CountingReference } from '../../../bench/lib/countingReference';
import { serveCountingReference } from '../../../bench/lib/countingReference';
import { readResults } from '../../../src/core/rows/resultsFile';
import { DEFAULT_API_KEY } from '../../../src/server/reference/options';
import { spawnCli } from '../../helpers/cliProcess';
import { DEPARTMENT_QUESTION } from '../../helpers/fixtures';

const QUESTIONS = DEPARTMENT_QUESTION;
const MESSAGES = [
  ['I was charged twice this month, please refund the second charge', 'billing'],
  ['The API answers 500 errors since your deploy this morning', 'technical'],
  ['Refund my payment, my card was charged two times', 'billing'],
  ['Your dashboard is down and the export button throws an error', 'technical'],
  ['Where can I find the holiday opening hours?', 'other'],
] as const;
const OTHER: Record<string, string> = { billing: 'technical', technical: 'other', other: 'billing' };

let dir: string;
let reference: CountingReference;

/** 90 labelled tickets (each annotator wrong on a different tenth) and 30 that nobody labelled. */
function ticketsCsv(): string {
  const lines = ['ticket,message,ann_a,ann_b,ann_c'];
  for (let i = 0; i < 120; i++) {
    const [message, label] = MESSAGES[i % MESSAGES.length]!;
    const labelled = i < 90;
    const say = (offset: number): string => (!labelled ? '' : i % 10 === offset ? OTHER[label]! : label);
    lines.push(`t-${i},"${message} (order ${i})",${say(1)},${say(4)},${say(7)}`);
  }
  return `${lines.join('\n')}\n`;
}

const run = (extra: string[]) =>
  spawnCli(
    [
      'run',
      '--questions',
      join(dir, 'questions.json'),
      '--model',
      'model-1.13.0',
      '--rows',
      join(dir, 'tickets.csv'),
      '--out',
      join(dir, 'results.jsonl'),
      '--target',
      'direct',
      '--map',
      'label.department=ann_*',
      ...extra,
    ],
    dir,
    { EVAL_BASE_URL: reference.url, EVAL_API_KEY: DEFAULT_API_KEY },
  );

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'ew-trust-'));
  writeFileSync(join(dir, 'questions.json'), JSON.stringify(QUESTIONS));
  writeFileSync(join(dir, 'tickets.csv'), ticketsCsv());
  reference = await serveCountingReference({ idField: 'ticket', port: 0 });
});
afterAll(async () => {
  await reference.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('trust gates on the command line', { timeout: 90_000 }, () => {
  it('reads the annotators by pattern, never sends them, gates on the alt-test and reports it', async () => {
    const ran = await run([
      '--min',
      'department.alt_test.omega=0',
      '--min',
      'department.guaranteed.coverage=0',
      '--report',
      join(dir, 'summary.md'),
    ]);
    expect(ran.stderr).toContain('pass: department.alt_test.omega');
    expect(ran.code).toBe(0);
    const read = readResults(readFileSync(join(dir, 'results.jsonl'), 'utf8'));
    if (!read.ok) throw new Error(read.message);
    expect(read.results.header.labels).toEqual({ department: ['ann_a', 'ann_b', 'ann_c'] });
    expect(read.results.header.mapping).toMatchObject({ mode: 'columns', columns: ['ticket', 'message'] });
    const summary = readFileSync(join(dir, 'summary.md'), 'utf8');
    expect(summary).toContain('## Can the judge replace a person? department');
    expect(summary).toMatch(/people agree with each other at alpha 0\.\d\d/);
    expect(summary).toMatch(/\| department\.alt_test\.omega \| (0|1|0\.\d+) \|/);
    // 30 rows nobody labelled make PPI's unlabelled set: its estimate is in the figures.
    expect(summary).toMatch(/\| department\.ppi\.billing \|/);
  });

  it('`report` gates the results file again, and fails a bound the figure cannot reach', async () => {
    const ran = await spawnCli(
      ['report', join(dir, 'results.jsonl'), '--epsilon', '0.1', '--min', 'department.alt_test.omega=1.5'],
      dir,
      {},
    );
    expect(ran.code).toBe(1);
    expect(ran.stderr).toMatch(/FAIL: department\.alt_test\.omega (is \d|is undefined)/);
  });
});

// People call some vague tickets billing: the judge, unsure on those, disagrees there and not elsewhere.
const VAGUE = [
  ['I was charged twice for my order, please refund me today', 'billing'],
  ['The app crashes every time I open the settings page', 'technical'],
  ['Thanks, everything is sorted now', 'other'],
  ['My payouts have failed, please fix the payment', 'billing'],
  ['The API returns 500 errors on every webhook', 'technical'],
  ['Is the office open on holidays?', 'other'],
] as const;
const csv = (): string =>
  `ticket,text,human_department\n${Array.from({ length: 90 }, (_, i) => {
    const [text, dept] = VAGUE[i % VAGUE.length]!;
    return `c${i},"${text} (#${i})",${dept === 'other' && i % 4 === 2 ? 'billing' : dept}`;
  }).join('\n')}\n`;

describe('a cascade on the command line', { timeout: 120_000 }, () => {
  const judge = (model: string, out: string, extra: string[] = []) =>
    spawnCli(
      [
        'run',
        '--questions',
        join(dir, 'questions.json'),
        '--model',
        model,
        '--rows',
        join(dir, 'cascade.csv'),
        '--out',
        join(dir, out),
        '--target',
        'direct',
        '--map',
        'label.department=human_department',
        ...extra,
      ],
      dir,
      { EVAL_BASE_URL: reference.url, EVAL_API_KEY: DEFAULT_API_KEY },
    );

  it('sends the next judge only the rows the first abstains on, counted at the service, and reports the cascade', async () => {
    writeFileSync(join(dir, 'cascade.csv'), csv());
    const first = await judge('model-1.12.0', 'first.jsonl');
    expect(first.code).toBe(0);
    const second = await judge('model-1.14.0', 'second.jsonl', ['--escalate-from', join(dir, 'first.jsonl')]);
    expect(second.code).toBe(0);
    const escalated = Number(/Escalating ([\d,]+) rows/.exec(second.stderr)?.[1]?.replace(/,/g, ''));
    expect(escalated).toBeGreaterThan(0);
    expect(escalated).toBeLessThan(90);
    // Counted at the service: the escalated tickets, and only they, were answered twice.
    const answers = Object.entries(reference.counts().answers).filter(([id]) => id.startsWith('c'));
    expect(answers.filter(([, n]) => n === 2)).toHaveLength(escalated);
    expect(answers.filter(([, n]) => n === 1)).toHaveLength(90 - escalated);
    const read = readResults(readFileSync(join(dir, 'second.jsonl'), 'utf8'));
    if (!read.ok) throw new Error(read.message);
    expect(read.results.rows).toHaveLength(escalated);
    expect(read.results.header.escalatedFrom?.question).toBe('department');

    const reported = await spawnCli(
      [
        'report',
        join(dir, 'first.jsonl'),
        '--cascade',
        join(dir, 'second.jsonl'),
        '--min',
        'department.cascade.coverage=0.5',
        '--report',
        join(dir, 'cascade.md'),
      ],
      dir,
      {},
    );
    expect(reported.stderr).toContain('pass: department.cascade.coverage');
    expect(readFileSync(join(dir, 'cascade.md'), 'utf8')).toMatch(
      /The cascade settles \d+% of the labelled rows \(model-1\.12\.0 at direct \d+%, model-1\.14\.0 at direct \d+%\)/,
    );
  });
});

describe("a cascade's costs on the command line", { timeout: 120_000 }, () => {
  // Two targets at the same reference with their own prices, as a file of targets names them.
  const TARGETS = {
    targets: [
      { id: 'cheap', preset: 'hosted', baseUrl: '', keyVar: 'REF_KEY', inputPrice: 0.5 },
      { id: 'dear', preset: 'hosted', baseUrl: '', keyVar: 'REF_KEY', inputPrice: 4 },
    ],
  };
  const env = () => ({ WORKBENCH_TARGETS_FILE: join(dir, 'priced.targets.json'), REF_KEY: DEFAULT_API_KEY });
  const judge = (model: string, target: string, out: string, extra: string[] = []) =>
    spawnCli(
      [
        'run',
        '--questions',
        join(dir, 'questions.json'),
        '--model',
        model,
        '--rows',
        join(dir, 'vague.csv'),
        '--out',
        join(dir, out),
        '--target',
        target,
        '--map',
        'label.department=human_department',
        ...extra,
      ],
      dir,
      env(),
    );
  /** Billed input tokens per answered row of a results file, read from its lines. */
  const tokensPerRow = (file: string): number => {
    const lines = readFileSync(join(dir, file), 'utf8').trim().split('\n').slice(1);
    const done = lines
      .map((l) => JSON.parse(l) as { status: string; usage: { billed_input_tokens?: number } | null })
      .filter((l) => l.status === 'done');
    return done.reduce((s, l) => s + l.usage!.billed_input_tokens!, 0) / done.length;
  };
  const costs = (stderr: string) => {
    const m = /at ([\d.e-]+) per row against ([\d.e-]+) for model-1\.14\.0 at dear alone/.exec(stderr);
    return m ? { cascade: Number(m[1]), strongest: Number(m[2]) } : null;
  };

  it('costs each judge at the price its results file records, and says where a file names none', async () => {
    const targets = TARGETS.targets.map((t) => ({ ...t, baseUrl: reference.url }));
    writeFileSync(join(dir, 'priced.targets.json'), JSON.stringify({ targets }));
    writeFileSync(join(dir, 'vague.csv'), csv());
    expect((await judge('model-1.12.0', 'cheap', 'cheap.jsonl')).code).toBe(0);
    const second = await judge('model-1.14.0', 'dear', 'dear.jsonl', [
      '--escalate-from',
      join(dir, 'cheap.jsonl'),
    ]);
    expect(second.code).toBe(0);
    const read = readResults(readFileSync(join(dir, 'cheap.jsonl'), 'utf8'));
    if (!read.ok) throw new Error(read.message);
    expect(read.results.header).toMatchObject({ version: 2, inputPrice: 0.5 });

    const report = () =>
      spawnCli(
        [
          'report',
          join(dir, 'cheap.jsonl'),
          '--cascade',
          join(dir, 'dear.jsonl'),
          '--report',
          join(dir, 'costs.md'),
        ],
        dir,
        {},
      );
    const summary = (): string => readFileSync(join(dir, 'costs.md'), 'utf8');
    const reported = await report();
    expect(reported.stderr).toContain(
      "The cascade's costs: model-1.12.0 at cheap at $0.50 per million input tokens, as its run was billed; model-1.14.0 at dear at $4.00 per million input tokens, as its run was billed.",
    );
    const priced = costs(summary());
    // The strongest judge alone: its tokens per row at its own $4 per million, counted from its file's lines.
    const strongest = (tokensPerRow('dear.jsonl') * 4) / 1e6;
    expect(priced!.strongest).toBe(+strongest.toPrecision(3));
    // Every row reaches the first judge: the cascade costs at least its tokens at $0.50 per million.
    expect(priced!.cascade).toBeGreaterThanOrEqual(
      +((tokensPerRow('cheap.jsonl') * 0.5) / 1e6).toPrecision(3),
    );

    // A results file from before prices were recorded: version 1, no price. It still reads, at the published price.
    const lines = readFileSync(join(dir, 'dear.jsonl'), 'utf8').split('\n');
    const old: Record<string, unknown> = {
      ...(JSON.parse(lines[0]!) as Record<string, unknown>),
      version: 1,
    };
    delete old['inputPrice'];
    writeFileSync(join(dir, 'dear.jsonl'), [JSON.stringify(old), ...lines.slice(1)].join('\n'));
    const fallback = await report();
    expect(fallback.stderr).toMatch(
      /model-1\.14\.0 at dear at \$0\.042 per million input tokens \(the published price: its run named none\)\./,
    );
    expect(costs(summary())!.strongest).toBe(+((tokensPerRow('dear.jsonl') * 0.042) / 1e6).toPrecision(3));
    const alone = await spawnCli(['report', join(dir, 'dear.jsonl')], dir, {});
    expect(alone.stderr).toContain(
      `${join(dir, 'dear.jsonl')} names no price (made before results files recorded one): its cost is counted at the published $0.042 per million input tokens.`,
    );
  });
});

describe(
  'the predictor of the prediction-powered prevalence on the command line',
  { timeout: 60_000 },
  () => {
    it('uses the probabilities by default, the hard labels with --ppi-predictor label, and says which', async () => {
      const results = join(dir, 'results.jsonl');
      const byDefault = await spawnCli(['report', results, '--report', join(dir, 'p.md')], dir, {});
      expect(byDefault.stderr).toContain(
        "Prevalence by prediction-powered inference: department on the judge's probabilities (--ppi-predictor probability|label).",
      );
      expect(readFileSync(join(dir, 'p.md'), 'utf8')).toMatch(
        /Share of billing: .* by prediction-powered inference on the judge's probabilities \(lambda/,
      );
      const hard = await spawnCli(
        ['report', results, '--ppi-predictor', 'label', '--report', join(dir, 'l.md')],
        dir,
        {},
      );
      expect(hard.stderr).toContain("department on the judge's hard labels");
      expect(readFileSync(join(dir, 'l.md'), 'utf8')).toMatch(
        /Share of billing: .* by prediction-powered inference on the judge's hard labels \(lambda/,
      );
      const wrong = await spawnCli(['report', results, '--ppi-predictor', 'hard'], dir, {});
      expect(wrong.code).toBe(2);
      expect(wrong.stderr).toMatch(/--ppi-predictor.*Allowed choices are probability, label/);
    });
  },
);
