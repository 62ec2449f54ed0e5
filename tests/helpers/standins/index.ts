// The stand-ins, one per preset, and a helper that writes a workbench.targets.json for a set of them.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunningStandin } from './common';

export { serveCustom } from './custom';
export { serveGateway } from './gateway';
export { serveHosted } from './hosted';
export { serveLitellm } from './litellm';
export { serveLlamacpp } from './llamacpp';
export { serveOllama } from './ollama';
export { serveOpenrouter } from './openrouter';
export { standinKey } from './common';
export type { RunningStandin } from './common';

/**
 * Writes a targets file naming each stand-in by id; returns its directory and the variables that hold the keys (and
 * point the workbench at the file). Keys go in the variables, never in the file.
 */
export function targetsFileFor(standins: Record<string, RunningStandin>): {
  dir: string;
  vars: Record<string, string>;
} {
  const dir = mkdtempSync(join(tmpdir(), 'workbench-targets-'));
  const vars: Record<string, string> = {};
  const targets = Object.entries(standins).map(([id, s]) => {
    const keyVar = s.entry.keyVar;
    if (s.key !== null && typeof keyVar === 'string') vars[keyVar] = s.key;
    return { id, ...s.entry, baseUrl: s.url };
  });
  writeFileSync(join(dir, 'workbench.targets.json'), JSON.stringify({ targets }, null, 2));
  vars.WORKBENCH_TARGETS_FILE = join(dir, 'workbench.targets.json');
  return { dir, vars };
}
