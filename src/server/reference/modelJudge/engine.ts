// The model judge: any GGUF file, run in process by node-llama-cpp's decision context (one forward pass per question,
// answers read from the model's own probabilities). Owns the loaded model: hashed, loaded and warmed up once, questions
// evaluated a bounded number at a time, everything disposed on close. Nothing is downloaded or built at run time.
import { createHash } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { basename, extname, resolve as resolvePath } from 'node:path';
import type { Llama, LlamaDecisionContext, LlamaModel } from 'node-llama-cpp';
import { getLlama, getModuleVersion, LlamaLogLevel } from 'node-llama-cpp';
import type { Answer, EvaluateRequest, ModelCard, Question } from '../../../contract';
import { localFileModelIds } from '../../../contract';
import type { Judge } from '../judges';
import { JudgeRefusal } from '../judges';
import { contractAnswer, decisionQuestions, documentOf, textOf } from './prompt';
import type { ModelJudgeSettings } from './settings';
import { errorClause as errorText } from '../../../contract/text';

/** What the loaded model judge reports about itself. */
export interface ModelJudgeInfo {
  fileName: string;
  path: string;
  sha256: string;
  alias: string;
  versioned: string;
  /** Tokens per sequence actually allocated (at most the setting and the model's training context). */
  contextSize: number;
  trainContextSize: number;
  parallelQuestions: number;
  /** node-llama-cpp's version and the compute layer it runs on ("cpu", "cuda", "vulkan", "metal"). */
  engine: string;
  gpu: string;
  loadMs: number;
  warmupMs: number;
}

/** The model judge, usable as soon as it is created: requests wait for `ready`. */
export interface ModelJudge extends Judge {
  /** The file's own name, e.g. "qwen2.5-0.5b-instruct-q4_k_m.gguf". */
  readonly fileName: string;
  /** Settles once the file is hashed, loaded and warmed up; rejects with one sentence when it cannot be. */
  readonly ready: Promise<ModelJudgeInfo>;
  /** Time spent inside the engine, for the bench's split of engine time and the service's own. */
  readonly metrics: { requests: number; cancelled: number; engineMs: number };
}

/** The engine's messages when a state, a question or both do not fit the context (prepareDecisionContextWindow). */
const TOO_LONG = /^The context size is too small to fit the provided (questions|context)/;

async function sha256Of(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/**
 * llama.cpp from the prebuilt binaries installed with the package, never built or downloaded; the GPU build when one
 * is installed and usable, else the CPU one (the default install carries only the CPU binaries, see README).
 */
async function loadLlama(threads: number): Promise<Llama> {
  const common = {
    build: 'never',
    skipDownload: true,
    progressLogs: false,
    logLevel: LlamaLogLevel.error,
    ...(threads > 0 ? { maxThreads: threads } : {}),
  } as const;
  try {
    return await getLlama({ ...common, gpu: 'auto' });
  } catch {
    return await getLlama({ ...common, gpu: false });
  }
}

/** Creates the model judge for a GGUF file and starts loading it; see `ready`. */
/** What a judge holds once loaded, filled as each part loads so that close() releases whatever was made. */
interface Held {
  llama?: Llama;
  model?: LlamaModel;
  context?: LlamaDecisionContext;
}

/** Loads the model file: checked, hashed, loaded into a decision context and warmed; its info and catalogue card. */
async function loadJudge(
  settings: ModelJudgeSettings,
  path: string,
  held: Held,
): Promise<{ info: ModelJudgeInfo; card: ModelCard }> {
  const fileName = basename(path);
  const started = performance.now();
  const stats = await stat(path).catch(() => null);
  if (!stats?.isFile()) throw new Error(`The model file ${path} does not exist or is not a file.`);
  const sha256 = await sha256Of(path);
  const ids = localFileModelIds(basename(path, extname(path)), sha256);
  try {
    held.llama = await loadLlama(settings.threads);
  } catch (e) {
    throw new Error(
      `node-llama-cpp has no usable prebuilt llama.cpp binary for this machine (${errorText(e)}); see README, "The model judge".`,
      { cause: e },
    );
  }
  const llama = held.llama;
  try {
    held.model = await llama.loadModel({ modelPath: path });
  } catch (e) {
    throw new Error(`node-llama-cpp could not load ${fileName} as a GGUF model: ${errorText(e)}.`, {
      cause: e,
    });
  }
  const model = held.model;
  const contextSize = Math.min(settings.contextSize, model.trainContextSize || settings.contextSize);
  const context = (held.context = await model.createDecisionContext({
    contextSize,
    parallelQuestions: settings.parallelQuestions,
    ...(settings.threads > 0 ? { threads: settings.threads } : {}),
  }));
  const loaded = performance.now();
  await context.warmup();
  const engine = `node-llama-cpp ${await getModuleVersion()}`;
  const info: ModelJudgeInfo = {
    fileName,
    path,
    sha256,
    alias: ids.alias,
    versioned: ids.versioned,
    contextSize: context.contextSize,
    trainContextSize: model.trainContextSize,
    parallelQuestions: settings.parallelQuestions,
    engine,
    gpu: llama.gpu === false ? 'cpu' : llama.gpu,
    loadMs: loaded - started,
    warmupMs: performance.now() - loaded,
  };
  const card: ModelCard = {
    name: ids.alias,
    description: `${fileName}, a GGUF model run in process by ${engine} (versioned id ${ids.versioned}, sha256 ${sha256.slice(0, 12)}…); answers carry the model's own probabilities.`,
    release_date: stats.mtime.toISOString().slice(0, 10),
  };
  return { info, card };
}

/** The 422 for a request the context cannot hold, located where the bulk is. */
function tooLong(
  fileName: string,
  request: EvaluateRequest,
  ctx: LlamaDecisionContext,
  m: LlamaModel,
): JudgeRefusal {
  const count = (text: string): number => m.tokenizer(text, false, 'trimLeadingSpace').length;
  const stateTokens = count(documentOf(request.state));
  let longestName = '';
  let longest = -1;
  for (const [name, q] of Object.entries(request.questions)) {
    const n = count(questionText(q));
    if (n > longest) [longestName, longest] = [name, n];
  }
  const where =
    stateTokens >= longest
      ? `The state (${stateTokens} tokens for this model)`
      : `The question "${longestName}" (${longest} tokens for this model, with its options spelt out)`;
  return new JudgeRefusal(
    `${where} does not fit ${fileName}'s context window of ${ctx.contextSize} tokens together with the rest of the prompt; shorten it, or start the service with a larger REFERENCE_MODEL_CONTEXT (the model was trained on ${m.trainContextSize}).`,
    stateTokens >= longest ? ['state'] : ['questions', longestName],
  );
}

/** What one decision needs: the loaded model and context, the counts kept, the calls in flight (cancelled at close). */
interface Decider {
  fileName: string;
  model: LlamaModel;
  context: LlamaDecisionContext;
  metrics: ModelJudge['metrics'];
  inflight: Set<AbortController>;
}

/** The answers of one request, cancelled with the caller's signal; a state too long for the context is a 422. */
async function decide(
  decider: Decider,
  request: EvaluateRequest,
  signal: AbortSignal | null,
): Promise<Record<string, Answer>> {
  const { metrics, inflight } = decider;
  const controller = new AbortController();
  // The engine listens on the signal once per pending sequence and per option branch (hundreds for 255 labels).
  setMaxListeners(0, controller.signal);
  const onAbort = (): void => controller.abort(signal?.reason);
  if (signal?.aborted) throw signal.reason ?? new DOMException('The operation was aborted.', 'AbortError');
  signal?.addEventListener('abort', onAbort, { once: true });
  inflight.add(controller);
  const document = documentOf(request.state);
  const questions = decisionQuestions(request.questions);
  // Engine time is the decision call alone; building its input and shaping its answers count as our own code.
  const started = performance.now();
  let ended: number | null = null;
  try {
    const result = await decider.context.decideWithMeta(document, questions, {
      signal: controller.signal,
      onOverflow: 'throw', // never a silent truncation: a state that does not fit is a 422
    });
    ended = performance.now();
    const out: Record<string, Answer> = {};
    for (const [name, q] of Object.entries(request.questions)) {
      const a = (result.answers as Record<string, Parameters<typeof contractAnswer>[1] | undefined>)[name];
      if (!a) throw new Error(`The engine gave no answer for the question "${name}".`);
      out[name] = contractAnswer(q, a);
    }
    return out;
  } catch (e) {
    if (controller.signal.aborted) {
      metrics.cancelled++;
      throw controller.signal.reason ?? new DOMException('The operation was aborted.', 'AbortError');
    }
    if (e instanceof Error && TOO_LONG.test(e.message))
      throw tooLong(decider.fileName, request, decider.context, decider.model);
    throw e;
  } finally {
    metrics.requests++;
    metrics.engineMs += (ended ?? performance.now()) - started;
    inflight.delete(controller);
    signal?.removeEventListener('abort', onAbort);
  }
}

export function createModelJudge(settings: ModelJudgeSettings): ModelJudge {
  const path = resolvePath(settings.file);
  const fileName = basename(path);
  const inflight = new Set<AbortController>();
  const metrics = { requests: 0, cancelled: 0, engineMs: 0 };
  const held: Held = {};
  let loaded: { info: ModelJudgeInfo; card: ModelCard } | null = null;
  let closing: Promise<void> | null = null;

  const ready = loadJudge(settings, path, held).then((l) => {
    loaded = l;
    return l.info;
  });
  // A failed load is reported through `ready` (and by answer); this keeps it from also being an unhandled rejection.
  ready.catch(() => undefined);

  return {
    fileName,
    label: `local: ${fileName}`,
    ready,
    metrics,
    models: () => (loaded ? [loaded.card] : []),
    resolve: (id: string) => {
      const info = loaded?.info;
      return info && (id === info.alias || id === info.versioned) ? info.versioned : null;
    },
    async answer(request, versionedId, signal) {
      await ready;
      const { context, model } = held;
      if (closing || !context || !model || versionedId !== loaded?.info.versioned)
        throw new Error(`The model judge for ${fileName} is closed or does not run ${versionedId}.`);
      return decide({ fileName, model, context, metrics, inflight }, request, signal);
    },
    close() {
      closing ??= (async () => {
        for (const c of inflight)
          c.abort(new DOMException('The model judge is shutting down.', 'AbortError'));
        await ready.catch(() => undefined);
        await held.context?.dispose();
        await held.model?.dispose();
        await held.llama?.dispose();
      })();
      return closing;
    },
  };
}

/** A question's text as the model reads it, for locating a 422 on the longest question. */
function questionText(q: Question): string {
  const parts = [q.instructions === undefined ? '' : textOf(q.instructions)];
  if (q.type === 'choice')
    for (const [label, d] of Object.entries(q.criteria)) parts.push(`000. ${d === null ? label : textOf(d)}`);
  else if (q.type === 'score') for (const level of q.criteria) parts.push(`0. ${level}`);
  else if (q.criteria) parts.push(textOf(q.criteria.true ?? ''), textOf(q.criteria.false ?? ''));
  return parts.join('\n');
}
