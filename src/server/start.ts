// `npm start`: builds the SPA when needed, then serves it with the key-holding proxy. Owns the process's lifetime.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { configuredSecrets, EnvError, loadServerEnv } from './env';
import { describeTargets, onlyLocal } from './proxy';
import { ensureBuilt } from './proxy/build';
import { createLogger } from './proxy/log';
import { serveWorkbench } from './workbench';
import { WorkspaceSettingsError } from './workspace';
import { describePerturbation, perturbationFromEnv } from './reference/perturb';

/** The repository root: start works from any working directory. */
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
// Known once the environment is read; a fatal error printed after that is redacted too.
let secrets: string[] = [];

async function main(): Promise<void> {
  const env = loadServerEnv({ root: ROOT });
  secrets = configuredSecrets(env);
  const logger = createLogger({ secrets });
  for (const warning of env.warnings) logger.warn(`Warning: ${warning}`);
  const distDir = join(ROOT, 'dist');
  await ensureBuilt({ root: ROOT, outDir: distDir, logger, force: process.argv.includes('--build') });
  const server = await serveWorkbench({ env, distDir, logger, root: ROOT });

  // The e2e harness reads this exact line to find the port.
  logger.info(`Evaluate Workbench running at ${server.url}`);
  logger.info('Targets:');
  describeTargets(server.targets).forEach((line) => logger.info(line));
  // Distorted answers on purpose (for the robustness check) must never pass for the judge's own.
  const perturbation = perturbationFromEnv(env.raw);
  if (perturbation.orderBias || perturbation.noise > 0)
    logger.warn(`The local reference's answers are distorted: ${describePerturbation(perturbation)}.`);
  if (onlyLocal(server.targets)) {
    logger.info('To add the Evaluation Service, put these two lines in .env.local and restart:');
    logger.info('  EVAL_BASE_URL=https://...');
    logger.info('  EVAL_API_KEY=...');
    if (!server.targets.some((t) => t.modelFile))
      logger.info(
        'To answer from a language model on this machine: REFERENCE_MODEL_FILE=path/to/model.gguf npm start',
      );
    logger.info(
      'Other servers (llama.cpp, Ollama, LiteLLM, OpenRouter…) go in workbench.targets.json; see README.',
    );
  }

  const stop = (): void => {
    void server.close().finally(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error: unknown) => {
  // Configuration errors name the variable, never its value; anything else is printed as it came.
  const logger = createLogger({ secrets });
  logger.error(
    error instanceof EnvError || error instanceof WorkspaceSettingsError
      ? `Configuration error: ${error.message}`
      : String((error as Error)?.stack ?? error),
  );
  process.exit(1);
});
