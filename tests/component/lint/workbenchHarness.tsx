// Arranges the main screen for component tests: the workbench store seeded with a document, a fresh QueryClient that
// already holds the proxy's targets and models (so nothing is fetched), and the editors' plain fallback (no Monaco).
import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import type { ReactNode } from 'react';
import { TargetInfoSchema } from '../../../src/contract';
import type { TargetInfo } from '../../../src/contract';
import type { SessionDoc } from '../../../src/core/session';
import { NEW_USER_RUBRIC } from '../../helpers/fixtures';
import { EditorEngineProvider } from '../../../src/app/editor';
import { WorkbenchScreen } from '../../../src/app/screens/WorkbenchScreen';
import { createQueryClient } from '../../../src/app/queryClient';
import { modelsQueryOptions } from '../../../src/app/queries/models';
import { targetsQueryOptions } from '../../../src/app/queries/targets';
import { useCompare } from '../../../src/app/stores/compare';
import { useWorkbench } from '../../../src/app/stores/workbench';

// jsdom has no layout, so no ResizeObserver; the resizable panes only need one to exist.
globalThis.ResizeObserver ??= class {
  observe(): void {}
  unobserve(): void {}
  disconnect(): void {}
};

export const LOCAL_TARGET: TargetInfo = TargetInfoSchema.parse({
  id: 'local',
  label: 'Local reference',
  kind: 'local',
  preset: 'local',
  host: 'in-process',
  evaluatePath: '/v1/evaluate',
  modelsPath: '/v1/models',
  requestsPerMinute: 1200,
  tokensPerSecond: 250_000,
  inputPrice: 0.042,
});

export const DIRECT_TARGET: TargetInfo = TargetInfoSchema.parse({
  id: 'direct',
  label: 'Evaluation Service (api.example.com)',
  kind: 'direct',
  host: 'api.example.com',
  evaluatePath: '/v1/evaluate',
  modelsPath: '/v1/models',
  keyVar: 'EVAL_API_KEY',
  inputPrice: 0.042,
});

/** The document of the new user: numeric levels, an unused state field, a backtick field the state lacks. */
export const newUserDoc = (): SessionDoc => ({
  stateMode: 'json',
  stateText: JSON.stringify(NEW_USER_RUBRIC.state, null, 2),
  questionsText: `${JSON.stringify(NEW_USER_RUBRIC.questions, null, 2)}\n`,
  targetId: 'local',
  model: 'model-1.13.0',
});

/** A fresh QueryClient holding the targets and each target's model list. */
export function seededQueryClient(targets: TargetInfo[] = [LOCAL_TARGET]) {
  const client = createQueryClient();
  client.setQueryData(targetsQueryOptions().queryKey, targets);
  for (const t of targets) {
    client.setQueryData(modelsQueryOptions(t.id).queryKey, {
      models: [{ name: 'model-latest' }, { name: 'model-preview' }],
    });
  }
  return client;
}

/** Wraps a tree in the seeded QueryClient and the plain editor engine. */
export function withApp(node: ReactNode, targets?: TargetInfo[]) {
  return (
    <QueryClientProvider client={seededQueryClient(targets)}>
      <EditorEngineProvider value="plain">{node}</EditorEngineProvider>
    </QueryClientProvider>
  );
}

/** Renders the workbench screen on `doc`, single-run mode. */
export function renderWorkbench(doc: SessionDoc, targets: TargetInfo[] = [LOCAL_TARGET]) {
  useCompare.setState({ open: false, runAll: null });
  useWorkbench.getState().hydrate(doc, []);
  const view = render(withApp(<WorkbenchScreen targetId={targets[0]!.id} />, targets));
  return {
    ...view,
    questionsBox: () => screen.getByRole('textbox', { name: 'Questions, JSON' }) as HTMLTextAreaElement,
    stateBox: () => screen.getByRole('textbox', { name: /^State/ }) as HTMLTextAreaElement,
  };
}
