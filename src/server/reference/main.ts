// `npm run reference -- --port 8787 [--host H]`: the local reference service, standalone. Reads REFERENCE_* from the
// environment, prints where it listens, and stops cleanly on SIGINT/SIGTERM.
import { parseArgs } from 'node:util';
import { createModelJudge } from './modelJudge/engine';
import { modelJudgeSettingsFromEnv } from './modelJudge/settings';
import { describeFaults, referenceOptionsFromEnv } from './options';
import { describePerturbation } from './perturb';
import { serveReference } from './serve';

const USAGE =
  'Usage: npm run reference -- [--port 8787] [--host 127.0.0.1] [--model-file path/to/model.gguf]';

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: 'string', default: '8787' },
      host: { type: 'string', default: '127.0.0.1' },
      'model-file': { type: 'string' },
      help: { type: 'boolean' },
    },
    strict: true,
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`--port must be a port number. ${USAGE}`);
  const options = referenceOptionsFromEnv(process.env);
  const modelSettings = modelJudgeSettingsFromEnv(process.env, values['model-file']);
  const modelJudge = modelSettings ? createModelJudge(modelSettings) : null;
  if (modelJudge) console.log(`Loading ${modelJudge.fileName} with node-llama-cpp…`);
  const model = await modelJudge?.ready;
  const running = await serveReference({ ...options, modelJudge, port, host: values.host });

  const keys = options.apiKeys;
  console.log(`Local reference service listening on ${running.url}`);
  console.log(`  routes:    POST ${running.url}/v1/evaluate, GET ${running.url}/v1/models`);
  // The key is a local development key (REFERENCE_API_KEY); the issue asks for it to be printed at start.
  console.log(`  key:       ${keys.join(', ')}  (Authorization: Bearer ${keys[0]})`);
  console.log(
    `  limits:    ${options.rpm} requests/min and ${options.tps} input tokens/s per key, ${options.maxInflight} evaluations in flight`,
  );
  console.log(`  faults:    ${describeFaults(options.faults)} (seed ${options.seed})`);
  console.log(`  answers:   ${describePerturbation(options.perturbation)}`);
  if (model) {
    console.log(
      `  model:     ${model.fileName} as ${model.alias} (${model.versioned}); ${model.engine} on ${model.gpu}, context ${model.contextSize} tokens, ${model.parallelQuestions} questions at once; loaded in ${Math.round(model.loadMs)} ms, warmed up in ${Math.round(model.warmupMs)} ms`,
    );
    console.log(
      '  The lexical judge (stemmed BM25 and a small lexicon, not a language model) answers model-latest, model-preview and model-1.x.y.',
    );
  } else
    console.log(
      '  This is a local reference judge (stemmed BM25 and a small lexicon), not a language model.',
    );

  let stopping = false;
  const stop = (signal: string): void => {
    if (stopping) return;
    stopping = true;
    console.log(`\n${signal}: closing the reference service.`);
    Promise.all([running.close(), modelJudge?.close()]).then(
      () => process.exit(0),
      (err: unknown) => {
        console.error(err);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
