// What every store that drives the rows runner is handed in the app: the client through the proxy, one worker-timed
// clock (so a hidden tab keeps its pace) and the proxy's targets. File runs and robustness checks share it, so the two
// send, pace and wait alike.
import { evaluate } from '../../client';
import type { ClientTarget } from '../../client';
import type { Clock } from '../../core/rows/pacer';
import type { EvaluateFn } from '../../core/rows/runTypes';
import { createBrowserClock } from '../platform/clock';
import { proxyTarget } from '../queries/targets';

export interface RunnerSeam {
  evaluate: EvaluateFn;
  clock: Clock;
  targetFor: (targetId: string) => ClientTarget;
}

export const appRunnerSeam: RunnerSeam = {
  evaluate,
  clock: createBrowserClock(),
  targetFor: proxyTarget,
};
