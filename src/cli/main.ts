// The command line: `evaluate-workbench run|merge|report ...` (a bin in package.json, `npm run cli -- ...` in the
// repository). Arguments through commander; a run is ./run.ts on the app's own core, a merge ./merge.ts, a report
// ./report.ts, each loaded when its command runs: a merge or a report never holds the tokenizer and the reference.
import { fileURLToPath } from 'node:url';
import { Command, InvalidArgumentError, Option } from 'commander';
import packageJson from '../../package.json' with { type: 'json' };
import { loadServerEnv } from '../server/env';
import type { AlignmentOptions } from '../core/alignment';
import { TRUST_OPTION_DEFAULTS } from '../core/alignment/types';
import { PPI_PREDICTORS } from '../core/trust/estimates';
import type { PpiPredictor } from '../core/trust/estimates';
import type { Gate } from './gates';
import { parseGate } from './gates';
import { InputError, parseMapSpec, readQuestionsFile } from './inputs';
import { EXIT } from './exit';
import { parseShard } from './shard';
import { createProgressView } from './progress';
import type { RunIo, RunOptions } from './run';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

const positive =
  (name: string) =>
  (value: string): number => {
    const n = Number(value);
    if (!Number.isFinite(n) || n <= 0) throw new InvalidArgumentError(`${name} must be a positive number.`);
    return n;
  };
const collect = (value: string, previous: string[]): string[] => [...previous, value];
/** A share strictly between 0 and 1 (alpha, delta, epsilon). */
const share =
  (name: string) =>
  (value: string): number => {
    const n = Number(value);
    if (!Number.isFinite(n) || n <= 0 || n >= 1)
      throw new InvalidArgumentError(`${name} must be between 0 and 1.`);
    return n;
  };

/** "Can the judge replace a person?": the alt-test's margin and the guaranteed threshold's target, as figures read them. */
function trustOptionsOf(opts: Record<string, unknown>): Partial<AlignmentOptions> {
  const trust = {
    ...(opts.epsilon !== undefined && { epsilon: opts.epsilon as number }),
    ...(opts.alpha !== undefined && { alpha: opts.alpha as number }),
    ...(opts.delta !== undefined && { delta: opts.delta as number }),
    ...(opts.ppiPredictor !== undefined && { ppiPredictor: opts.ppiPredictor as PpiPredictor }),
  };
  return Object.keys(trust).length ? { trust: { ...TRUST_OPTION_DEFAULTS, ...trust } } : {};
}

/** The program, built fresh for each call so tests can run it in process. */
/** What run and report share: the gates, the CI files and how the trust figures are read. */
function gateOptions(command: Command): Command {
  return command
    .option(
      '--min <gate>',
      'fail (exit 1) when a figure is below: question.metric=value, e.g. department.kappa=0.7',
      collect,
      [],
    )
    .option(
      '--max <gate>',
      'fail (exit 1) when a figure is above: question.metric=value, e.g. frustration.mae=0.4',
      collect,
      [],
    )
    .option('--strict', "gate on the 95% interval's end instead of the figure")
    .option('--report <file>', 'write a Markdown summary (for a CI step summary)')
    .option('--junit <file>', 'write a JUnit XML file, one test case per gate')
    .option(
      '--epsilon <n>',
      "the alt-test's margin: the judge may align this much worse and still win (default 0.2)",
      share('--epsilon'),
    )
    .option(
      '--alpha <n>',
      'the guaranteed threshold certifies agreement of at least 1 - alpha (default 0.1)',
      share('--alpha'),
    )
    .option('--delta <n>', '... with probability at least 1 - delta (default 0.1)', share('--delta'))
    .addOption(
      new Option(
        '--ppi-predictor <predictor>',
        'what stands for the judge in the prediction-powered prevalence: its probabilities (default; a narrower interval when they are calibrated) or its hard labels',
      ).choices(PPI_PREDICTORS),
    );
}

export function program(): Command {
  const cli = new Command('evaluate-workbench')
    .description(
      'Evaluate Workbench from the command line: run a rubric over a file of rows, for CI or long runs.',
    )
    .version(packageJson.version)
    .showHelpAfterError('(run with --help for usage)')
    .exitOverride();
  gateOptions(cli.command('run'))
    .description(
      'Send one request per row of a file, paced under the rate limits, appending each answer to a results file; run the same command again to resume.',
    )
    .requiredOption('--rows <file>', 'the rows: CSV, JSON Lines or a JSON array')
    .option(
      '--session <file>',
      'a session file exported from the app: questions, model and target come from it',
    )
    .option('--session-name <name>', 'which session of the file (default: the first)')
    .option('--questions <file>', "questions as JSON (the map, or a whole request); overrides the session's")
    .option('--model <id>', "the model id; overrides the session's")
    .option(
      '--map <entry>',
      'how columns map: text=<col> | conversation=<col> | fields | columns=<a,b>; id=<col>; label.<question>=<col>; meta=<a,b> (repeatable)',
      collect,
      [],
    )
    .option(
      '--out <file>',
      'the results file (JSON Lines), appended as rows settle and resumed from',
      'results.jsonl',
    )
    .option(
      '--target <id>',
      'a configured target (workbench config, EVAL_* variables); default: the first configured, else local',
    )
    .option('--rpm <n>', 'requests per minute', positive('--rpm'))
    .option('--concurrency <n>', 'requests in flight at once', positive('--concurrency'))
    .option('--tps <n>', 'input tokens per second', positive('--tps'))
    .option(
      '--budget <amount>',
      'stop before the estimated cost would pass this amount',
      positive('--budget'),
    )
    .option('--timeout <ms>', 'per-attempt timeout in milliseconds', positive('--timeout'))
    .option(
      '--retry-unknown',
      'send again rows that may have been billed without an answer (timed out, cut off)',
    )
    .option(
      '--shard <i/n|env>',
      "send only shard i of n (from 1), placed by a hash of each row's id (or content); env: JOB_COMPLETION_INDEX (from 0) and --shard-total or SHARD_TOTAL",
    )
    .option('--shard-total <n>', 'the number of shards for --shard env (default: SHARD_TOTAL)')
    .option(
      '--escalate-from <results>',
      "a cascade's next judge: send only the rows this earlier results file's judge abstains on (its threshold certified on its labels, delta split in two)",
    )
    .option(
      '--escalate-question <question>',
      'the question whose labels certify that threshold (default: the only labelled one)',
    )
    .addOption(new Option('--quiet', 'print only the start and the end, no progress'))
    .addHelpText(
      'after',
      `
Exit codes: 0 finished (gates passed), 1 a gate failed, 2 bad arguments or files, 3 the key was refused (401),
4 rows left without an answer (stopped by the budget or a failing service, or rows unknown or failed: the last line
says how many; --retry-unknown sends them), 130 stopped with Ctrl+C (run again to resume).

Example:
  evaluate-workbench run --session session.json --rows tickets.csv --out results.jsonl \\
    --map text=message --map label.department=human_department --min department.kappa=0.7 --report summary.md

Shards (a CI matrix, a Kubernetes Indexed Job): each job runs the same command with --shard i/n and its own --out,
then one job merges them and gates once (docs/scale-out.md):
  evaluate-workbench run ... --shard 2/4 --out results-2.jsonl
  evaluate-workbench merge results-*.jsonl --out results.jsonl
  evaluate-workbench report results.jsonl --min department.kappa=0.7 --report summary.md`,
    );
  cli
    .command('merge')
    .description(
      "Merge the results files of a run's shards into one: each row once, files of another run refused, missing shards and rows named.",
    )
    .argument('<files...>', 'the shard results files')
    .requiredOption('--out <file>', 'the merged results file')
    .addHelpText(
      'after',
      `
Exit codes: 0 merged, every shard and row present; 2 files of different runs (the sentence names the field);
4 merged, but shards or rows are missing (named). A row answered in two files keeps the first answer; a second answer
the same byte for byte is kept once and counted, a different one goes to <out>.conflicts.jsonl and is counted.`,
    );
  gateOptions(cli.command('report'))
    .description(
      'The gates, the Markdown summary and the JUnit file of a results file (a merge, one shard or a whole run).',
    )
    .argument('[results]', 'the results file (or --workspace and --queue)')
    .option(
      '--workspace <url>',
      "a team workspace's address: report on its labels (token: WORKBENCH_WORKSPACE_TOKEN)",
    )
    .option('--queue <id>', "the workspace's queue to report on")
    .option(
      '--cascade <results>',
      "a cascade's next judge: the results file of a run of the same rows (--escalate-from this one); repeat in order",
      collect,
      [],
    )
    .option(
      '--active <export.jsonl>',
      "the app's JSONL export of a run labelled in active order: each target's estimate from the labels and their probabilities (with --questions)",
    )
    .option('--questions <file>', "the questions of --active's run, as JSON (the map, or a whole request)")
    .option(
      '--ledger <session file>',
      "an app session export: count the variants its ledger records for these labelled rows and widen the headline figures' intervals for that count",
    )
    .addHelpText(
      'after',
      `
Exit codes: 0 gates passed, 1 a gate failed, 2 bad arguments or files, 4 rows not sent or without an answer.`,
    );
  return cli;
}

const gatesOf = (opts: Record<string, unknown>): Gate[] => [
  ...(opts.min as string[]).map((g) => parseGate('min', g)),
  ...(opts.max as string[]).map((g) => parseGate('max', g)),
];

/** Runs the command line with `argv` (without node and the script); resolves with the exit code. */
export { capYoungGeneration } from './memory';

type Opts = Record<string, unknown>;

/** `report`: a results file read back, or a team workspace's queue; its exit code. */
async function reportAction(file: string | undefined, opts: Opts, env: NodeJS.ProcessEnv): Promise<number> {
  if (opts.active !== undefined) {
    if (file !== undefined || opts.workspace !== undefined)
      throw new InputError(
        '--active reads an app export on its own: give it without a results file or --workspace.',
      );
    if (opts.questions === undefined)
      throw new InputError('--active needs --questions, the run’s questions.');
    const { activeReportLines } = await import('./activeReport');
    const lines = activeReportLines(opts.active as string, readQuestionsFile(opts.questions as string));
    for (const line of lines) process.stderr.write(`${line}\n`);
    return EXIT.ok;
  }
  if (opts.workspace !== undefined || file === undefined) {
    if (opts.workspace === undefined || opts.queue === undefined)
      throw new InputError(
        'report needs a results file, --workspace URL and --queue ID, or --active with an app export.',
      );
    const { workspaceReportCommand } = await import('./workspaceReport');
    const reported = await workspaceReportCommand({
      url: opts.workspace as string,
      queue: opts.queue as string,
      token: env.WORKBENCH_WORKSPACE_TOKEN,
      gates: gatesOf(opts),
      strict: opts.strict === true,
      alignment: trustOptionsOf(opts),
      ...(opts.junit !== undefined && { junit: opts.junit as string }),
    });
    for (const line of reported.lines) process.stderr.write(`${line}\n`);
    return reported.code;
  }
  const { reportCommand } = await import('./report');
  const reported = reportCommand({
    results: file,
    cascade: opts.cascade as string[],
    ...(opts.ledger !== undefined && { ledger: opts.ledger as string }),
    gates: gatesOf(opts),
    strict: opts.strict === true,
    alignment: trustOptionsOf(opts),
    ...(opts.report !== undefined && { report: opts.report as string }),
    ...(opts.junit !== undefined && { junit: opts.junit as string }),
  });
  for (const line of reported.lines) process.stderr.write(`${line}\n`);
  return reported.code;
}

/** `run`'s options as the command takes them. */
function runOptionsOf(opts: Opts, env: NodeJS.ProcessEnv): RunOptions {
  const shard =
    opts.shard !== undefined
      ? parseShard(opts.shard as string, env, opts.shardTotal as string | undefined)
      : opts.shardTotal !== undefined
        ? (() => {
            throw new InputError('--shard-total goes with --shard env.');
          })()
        : undefined;
  return {
    rows: opts.rows as string,
    ...(opts.session !== undefined && { session: opts.session as string }),
    ...(opts.sessionName !== undefined && { sessionName: opts.sessionName as string }),
    ...(opts.questions !== undefined && { questions: opts.questions as string }),
    ...(opts.model !== undefined && { model: opts.model as string }),
    ...(opts.target !== undefined && { target: opts.target as string }),
    map: parseMapSpec(opts.map as string[]),
    out: opts.out as string,
    pacing: {
      ...(opts.rpm !== undefined && { requestsPerMinute: opts.rpm as number }),
      ...(opts.concurrency !== undefined && { concurrency: Math.round(opts.concurrency as number) }),
      ...(opts.tps !== undefined && { tokensPerSecond: opts.tps as number }),
    },
    budget: (opts.budget as number | undefined) ?? null,
    ...(opts.timeout !== undefined && { timeoutMs: opts.timeout as number }),
    retryUnknown: opts.retryUnknown === true,
    gates: gatesOf(opts),
    strict: opts.strict === true,
    alignment: trustOptionsOf(opts),
    ...(opts.report !== undefined && { report: opts.report as string }),
    ...(opts.junit !== undefined && { junit: opts.junit as string }),
    ...(shard && { shard }),
    ...(opts.escalateFrom !== undefined && { escalateFrom: opts.escalateFrom as string }),
    ...(opts.escalateQuestion !== undefined && { escalateQuestion: opts.escalateQuestion as string }),
  };
}

/** SIGTERM too: Kubernetes stops a pod (eviction, deletion) with it before SIGKILL, and CI runners cancel with it. */
const onInterrupt: RunIo['onInterrupt'] = (handler) => {
  let count = 0;
  const listener = (): void => handler(++count);
  process.on('SIGINT', listener);
  process.on('SIGTERM', listener);
  return () => {
    process.off('SIGINT', listener);
    process.off('SIGTERM', listener);
  };
};

/** `run`: the rows sent, the results written, the figures reported; its exit code. */
async function runAction(opts: Opts, env: NodeJS.ProcessEnv): Promise<number> {
  const [{ runCommand }, { createInProcessReference }] = await Promise.all([
    import('./run'),
    import('../server/reference/local'),
  ]);
  const view = createProgressView(process.stderr, { quiet: opts.quiet === true });
  const options = runOptionsOf(opts, env);
  const result = await runCommand(options, {
    env: loadServerEnv({ root: ROOT, processEnv: env }),
    // The lexical judge only: a headless run never loads REFERENCE_MODEL_FILE's model.
    local: (raw) => createInProcessReference(raw, { modelFile: false }),
    view,
    onInterrupt,
  });
  return result.code;
}

/** The exit code of an error the command line threw: help and version are fine, bad usage is a usage error. */
function exitCodeOf(error: unknown): number {
  const e = error as { code?: string; exitCode?: number; message?: string };
  if (e.code === 'commander.helpDisplayed' || e.code === 'commander.version' || e.code === 'commander.help')
    return EXIT.ok;
  if (typeof e.code === 'string' && e.code.startsWith('commander.')) return EXIT.usage;
  if (error instanceof InputError || (error instanceof Error && /^--(min|max) /.test(error.message))) {
    process.stderr.write(`${(error as Error).message}\n`);
    return EXIT.usage;
  }
  throw error;
}

export async function main(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const cli = program();
  let code: number = EXIT.ok;
  const command = (name: string): Command => cli.commands.find((c) => c.name() === name)!;
  command('merge').action(async (files: string[], opts: Opts) => {
    const { mergeCommand } = await import('./merge');
    const merged = mergeCommand({ inputs: files, out: opts.out as string });
    for (const line of merged.lines) process.stderr.write(`${line}\n`);
    code = merged.complete ? EXIT.ok : EXIT.incomplete;
  });
  command('report').action(async (file: string | undefined, opts: Opts) => {
    code = await reportAction(file, opts, env);
  });
  command('run').action(async (opts: Opts) => {
    code = await runAction(opts, env);
  });
  try {
    await cli.parseAsync([...argv], { from: 'user' });
  } catch (error) {
    return exitCodeOf(error);
  }
  return code;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error: unknown) => {
      process.stderr.write(`evaluate-workbench: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exit(1);
    },
  );
}
