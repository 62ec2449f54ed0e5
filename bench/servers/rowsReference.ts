// Child process for the rows bench: the standalone reference that counts its answers per row id (GET /__counts).
import { serveCountingReference } from '../lib/countingReference';
import { reportReady } from '../lib/child';
import { parseFaults } from '../../src/server/reference/options';

const rpm = Number(process.env.ROWS_RPM ?? '1200');
const running = await serveCountingReference({
  rpm,
  tps: 250_000,
  faults: parseFaults(process.env.ROWS_FAULTS ?? ''),
  seed: Number(process.env.ROWS_SEED ?? '1'),
  // Injected 429/529 ask for a short wait, so the faults cost retries rather than minutes.
  faultRetryAfterMs: Number(process.env.ROWS_FAULT_RETRY_AFTER_MS ?? '50'),
});
reportReady(running.url, () => running.close());
