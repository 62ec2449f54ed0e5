#!/usr/bin/env node
// The `evaluate-workbench` command: runs the command line's prebuilt bundle (./cliBundle.mjs, rebuilt when a source
// changed), or its TypeScript through tsx when no bundle can be built.
import { pathToFileURL } from 'node:url';
import { freshCliBundle } from './cliBundle.mjs';

const bundle = freshCliBundle();
let main;
if (bundle) ({ main } = await import(pathToFileURL(bundle).href));
else {
  const { register } = await import('tsx/esm/api');
  register();
  ({ main } = await import('../src/cli/main.ts'));
}
// Exit with the run's code at once: the in-process reference may keep timers that would hold the process open.
process.exit(await main(process.argv.slice(2)));
