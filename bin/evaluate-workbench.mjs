#!/usr/bin/env node
// The `evaluate-workbench` command: runs the TypeScript command line through tsx (a dependency), with no build step.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/cli/main.ts');
// Exit with the run's code at once: the in-process reference may keep timers that would hold the process open.
process.exit(await main(process.argv.slice(2)));
