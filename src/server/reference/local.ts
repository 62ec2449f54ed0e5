// The reference as an in-process app for the local target: what a composition root creates and hands to the targets
// module (src/server/targets). The model judge is loaded only when asked for and REFERENCE_MODEL_FILE names a file.
import { createReferenceApp } from './app';
import type { createModelJudge } from './modelJudge/engine';
import { modelJudgeSettingsFromEnv } from './modelJudge/settings';
import { referenceOptionsFromEnv } from './options';

/** The in-process reference: its app's fetch, the first of its keys, and the model file it answers with, if any. */
export interface InProcessReference {
  fetch: (request: Request) => Response | Promise<Response>;
  apiKey: string;
  /** Set when a model file answers beside the lexical judge: loaded once in this process. */
  model: { fileName: string; ready: Promise<unknown>; close: () => Promise<void> } | null;
}

/**
 * Creates the reference from its REFERENCE_* variables. `modelFile`: whether REFERENCE_MODEL_FILE may load a model
 * (the workbench server's local target), through `judge`, which its composition root passes (server/workbench.ts);
 * a headless run answers with the lexical judge and never even loads node-llama-cpp (about 50 MB resident).
 */
export function createInProcessReference(
  env: Readonly<Record<string, string | undefined>>,
  { modelFile, judge }: { modelFile: boolean; judge?: typeof createModelJudge },
): InProcessReference {
  const options = referenceOptionsFromEnv(env);
  const settings = modelFile ? modelJudgeSettingsFromEnv(env) : null;
  if (settings && !judge)
    throw new Error('A model file was named, but no model judge was handed to the reference.');
  const modelJudge = settings && judge ? judge(settings) : null;
  const app = createReferenceApp({ ...options, modelJudge });
  return {
    fetch: (request) => app.fetch(request),
    apiKey: options.apiKeys[0]!,
    model: modelJudge
      ? { fileName: modelJudge.fileName, ready: modelJudge.ready, close: () => modelJudge.close() }
      : null,
  };
}
