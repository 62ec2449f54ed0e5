// Stand-in for a "custom" server: one that follows this workbench's contract (shared/contract.md) exactly, which is
// what the reference service is. The `custom` preset's defaults (POST /v1/evaluate, GET /v1/models, bearer) fit it.
import { createReferenceApp } from '../../../src/server/reference/app';
import { serveStandin } from './common';
import type { RunningStandin } from './common';

/** Serves a contract-exact server with `key`; its entry uses the `custom` preset with the key in CUSTOM_TEST_KEY. */
export const serveCustom = (key: string): Promise<RunningStandin> =>
  serveStandin(createReferenceApp({ apiKeys: [key] }), key, { preset: 'custom', keyVar: 'CUSTOM_TEST_KEY' });
