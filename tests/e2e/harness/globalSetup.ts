// Global setup of the e2e run: one `npm start` (which builds dist/ when stale) shared by every test file.
import type { TestProject } from 'vitest/node';
import { startWorkbenchProcess } from './server';

declare module 'vitest' {
  export interface ProvidedContext {
    /** URL of the shared workbench server: local reference only, no key. */
    workbenchUrl: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const server = await startWorkbenchProcess();
  project.provide('workbenchUrl', server.url);
  return () => server.stop();
}
