import { run } from './.tmp-rows';
await run();
