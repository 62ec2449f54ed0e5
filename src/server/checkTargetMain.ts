// `npm run check-target -- <id> [--model <model>]`: checks one configured target from the terminal, with the same
// configuration, keys and checks as the app's "Check target" button. Owns the process's exit code: 1 on a problem.
import { fileURLToPath } from 'node:url';
import { worstSeverity } from '../contract';
import type { CheckSeverity } from '../contract';
import { configuredSecrets, EnvError, loadServerEnv } from './env';
import { createLogger } from './proxy/log';
import { targetsFromEnv } from './workbench';
import { checkTarget } from './targets/check';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const MARK: Record<CheckSeverity, string> = {
  ok: 'ok        ',
  normalised: 'smoothed  ',
  difference: 'different ',
  problem: 'PROBLEM   ',
};

/** Reads `<id> [--model <model>]`; null with a sentence when the arguments say something else. */
export function parseCheckArgs(args: readonly string[]): { id: string; model?: string } | string {
  const rest = [...args];
  let model: string | undefined;
  const at = rest.indexOf('--model');
  if (at !== -1) {
    model = rest[at + 1];
    if (!model) return 'Give the model after --model, such as --model jev-latest.';
    rest.splice(at, 2);
  }
  if (rest.length !== 1) return 'Name one target: npm run check-target -- <id> [--model <model>].';
  return { id: rest[0]!, ...(model ? { model } : {}) };
}

async function main(): Promise<number> {
  const env = loadServerEnv({ root: ROOT });
  const logger = createLogger({ secrets: configuredSecrets(env) });
  env.warnings.forEach((w) => logger.warn(`Warning: ${w}`));
  const args = parseCheckArgs(process.argv.slice(2));
  const targets = targetsFromEnv(env);
  if (typeof args === 'string') {
    logger.error(`${args} Targets: ${targets.map((t) => t.id).join(', ')}.`);
    return 2;
  }
  const target = targets.find((t) => t.id === args.id);
  if (!target) {
    logger.error(`There is no target "${args.id}"; configured: ${targets.map((t) => t.id).join(', ')}.`);
    return 2;
  }
  logger.info(`Checking ${target.id} (${target.label}) at ${target.host}${target.evaluatePath}…`);
  const report = await checkTarget(target, args.model);
  logger.info(`Model: ${report.model ?? 'none'}`);
  for (const f of report.findings) logger.info(`  ${MARK[f.severity]} ${f.text}`);
  const worst = worstSeverity(report.findings);
  logger.info(
    worst === 'problem'
      ? 'Some requests failed: see PROBLEM above.'
      : worst === 'difference'
        ? 'It works, with the differences above.'
        : 'It behaves as the contract says (smoothed differences aside).',
  );
  return worst === 'problem' ? 1 : 0;
}

// Run only as a script: the test imports parseCheckArgs.
if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  main().then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error(error instanceof EnvError ? `Configuration error: ${error.message}` : String(error));
      process.exit(1);
    },
  );
}
