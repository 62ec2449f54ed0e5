// Child process for the reference bench: the standalone reference on a free port, limits out of the way.
import { serveReference } from '../../src/server/reference/serve';
import { reportReady } from '../lib/child';

// The bench measures throughput, not the limiter: budgets far above what loopback can send.
const running = await serveReference({ port: 0, rpm: 1e9, tps: 1e12, maxInflight: 1e6 });
reportReady(running.url, () => running.close(), { server: running.server });
