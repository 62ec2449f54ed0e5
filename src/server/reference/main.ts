// `npm run reference -- --port 8787 [--host H]`: the local reference service, standalone. Reads REFERENCE_* from the
// environment, prints where it listens, and stops cleanly on SIGINT/SIGTERM.
import { parseArgs } from 'node:util';
import { describeFaults, referenceOptionsFromEnv } from './options';
import { describePerturbation } from './perturb';
import { serveReference } from './serve';

const USAGE = 'Usage: npm run reference -- [--port 8787] [--host 127.0.0.1]';

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: 'string', default: '8787' },
      host: { type: 'string', default: '127.0.0.1' },
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
  const running = await serveReference({ ...options, port, host: values.host });

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
  console.log('  This is a local reference judge (stemmed BM25 and a small lexicon), not a language model.');

  let stopping = false;
  const stop = (signal: string): void => {
    if (stopping) return;
    stopping = true;
    console.log(`\n${signal}: closing the reference service.`);
    running.close().then(
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
