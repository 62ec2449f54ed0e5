#!/usr/bin/env node
// The `evaluate-workbench` command: runs the command line's prebuilt bundle (./cliBundle.mjs, rebuilt when a source
// changed), or its TypeScript through tsx when no bundle can be built.
import { pathToFileURL } from 'node:url';
import { freshCliBundle } from './cliBundle.mjs';

const bundle = freshCliBundle();
let main;
let capYoungGeneration;
if (bundle) ({ main, capYoungGeneration } = await import(pathToFileURL(bundle).href));
else {
  const { register } = await import('tsx/esm/api');
  register();
  ({ main, capYoungGeneration } = await import('../src/cli/main.ts'));
}
// A command's process keeps V8's young generation small (src/cli/memory.ts); tests calling main() keep theirs.
capYoungGeneration();
// Exit with the run's code at once: the in-process reference may keep timers that would hold the process open.
process.exit(await main(process.argv.slice(2)));
