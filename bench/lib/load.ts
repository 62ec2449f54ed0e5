// Load generation for bench sections: a thin wrapper around autocannon that returns the figures we print.
import autocannon from 'autocannon';

export interface LoadOptions {
  url: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  /** Concurrent connections (default 50). */
  connections?: number;
  /** Total requests to send; when absent, `durationS` seconds of load (default 10). */
  amount?: number;
  durationS?: number;
  /** Requests per second across all connections; absent = as fast as the server answers (saturation). */
  overallRate?: number;
  /** A body per request, taken in turn (instead of `body` every time): a file of distinct rows. */
  bodies?: readonly string[];
}

/** What a load run measured. Latencies are in ms. */
export interface LoadResult {
  requests: number;
  rps: number;
  p50: number;
  p99: number;
  max: number;
  non2xx: number;
  errors: number;
  durationS: number;
}

/** autocannon's per-request hook that sends `bodies` one after the other, over every connection. */
function nextBody(bodies: readonly string[]): (request: autocannon.Request) => autocannon.Request {
  let i = 0;
  return (request) => {
    request.body = bodies[i++ % bodies.length];
    return request;
  };
}

/** Runs one load test and resolves with its figures. */
export async function load(options: LoadOptions): Promise<LoadResult> {
  const result = await autocannon({
    url: options.url,
    method: options.method ?? 'GET',
    headers: options.headers,
    body: options.body,
    ...(options.bodies ? { requests: [{ setupRequest: nextBody(options.bodies) }] } : {}),
    connections: options.connections ?? 50,
    ...(options.overallRate !== undefined ? { overallRate: options.overallRate } : {}),
    ...(options.amount !== undefined ? { amount: options.amount } : { duration: options.durationS ?? 10 }),
  });
  const requests = result.requests.total;
  return {
    requests,
    // Over the whole run (not autocannon's per-second mean, which a short run's last partial second drags down).
    rps: requests / result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    max: result.latency.max,
    non2xx: result.non2xx,
    errors: result.errors,
    durationS: result.duration,
  };
}
