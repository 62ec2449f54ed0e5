// Settings of the model judge: which GGUF file, how large a context, how many questions at once, how many threads.
// Read from REFERENCE_MODEL_* (the `local` target of `npm start`) or from `npm run reference -- --model-file`.
import { z } from 'zod';

/** How the model judge loads and runs its file. */
export interface ModelJudgeSettings {
  /** Path of the GGUF file. */
  file: string;
  /** Tokens per sequence; the state, one question and the prompt around them must fit. */
  contextSize: number;
  /** Questions evaluated at once (one llama.cpp sequence each); more wait for a free one. */
  parallelQuestions: number;
  /** CPU threads for llama.cpp; 0 lets node-llama-cpp choose (the cores useful for math). */
  threads: number;
}

/** 8k tokens holds a long state and a 255-label question; the model's own training context caps it. */
export const DEFAULT_MODEL_CONTEXT = 8192;
/** node-llama-cpp's own default for a decision context. */
export const DEFAULT_PARALLEL_QUESTIONS = 4;

const positiveInt = (name: string, max: number) =>
  z.coerce
    .number({ error: `${name} must be a number.` })
    .int(`${name} must be a whole number.`)
    .positive(`${name} must be above 0.`)
    .max(max, `${name} may be at most ${max}.`);

const EnvSchema = z.object({
  REFERENCE_MODEL_FILE: z.string().trim().optional(),
  REFERENCE_MODEL_CONTEXT: positiveInt('REFERENCE_MODEL_CONTEXT', 1 << 20).default(DEFAULT_MODEL_CONTEXT),
  REFERENCE_MODEL_PARALLEL: positiveInt('REFERENCE_MODEL_PARALLEL', 64).default(DEFAULT_PARALLEL_QUESTIONS),
  REFERENCE_MODEL_THREADS: z.coerce
    .number({ error: 'REFERENCE_MODEL_THREADS must be a number.' })
    .int('REFERENCE_MODEL_THREADS must be a whole number.')
    .min(0, 'REFERENCE_MODEL_THREADS must not be negative.')
    .default(0),
});

/**
 * The model judge's settings from the environment, with `file` overriding REFERENCE_MODEL_FILE (the command line
 * wins); null when no file is named. Throws one Error naming every bad variable.
 */
export function modelJudgeSettingsFromEnv(
  env: Readonly<Record<string, string | undefined>>,
  file?: string,
): ModelJudgeSettings | null {
  const defined = Object.fromEntries(
    Object.entries(env)
      .filter(([k]) => k.startsWith('REFERENCE_MODEL_'))
      .map(([k, v]) => [k, v === undefined || v.trim() === '' ? undefined : v]),
  );
  const parsed = EnvSchema.safeParse(defined);
  if (!parsed.success) throw new Error(parsed.error.issues.map((i) => i.message).join(' '));
  const path = file?.trim() || parsed.data.REFERENCE_MODEL_FILE;
  if (!path) return null;
  return {
    file: path,
    contextSize: parsed.data.REFERENCE_MODEL_CONTEXT,
    parallelQuestions: parsed.data.REFERENCE_MODEL_PARALLEL,
    threads: parsed.data.REFERENCE_MODEL_THREADS,
  };
}
