// The command line's targets come from the same configuration as the proxy's: a file target appears, a keyless one
// sends no credential, and one without its key is refused by name.
import { describe, expect, it } from 'vitest';
import { chooseTarget, cliTargets } from '../../../src/cli/targets';
import { parseServerEnv } from '../../../src/server/env';

const env = parseServerEnv(
  { HOSTED_KEY: 'sk-hosted' },
  {
    name: 'workbench.targets.json',
    text: JSON.stringify({
      targets: [
        { id: 'nokey', preset: 'hosted', keyVar: 'UNSET_KEY' },
        { id: 'ts', preset: 'hosted', keyVar: 'HOSTED_KEY' },
        { id: 'kev', preset: 'llamacpp' },
      ],
    }),
  },
);

describe('cliTargets', () => {
  const targets = cliTargets(env);
  it('lists the file targets before local, each key only in its own headers', () => {
    expect(targets.map((t) => t.id)).toEqual(['nokey', 'ts', 'kev', 'local']);
    expect(targets[1]!.client.headers).toEqual({ Authorization: 'Bearer sk-hosted' });
    expect(targets[1]!.client.evaluatePath).toBe('/v1/systemone');
    expect(targets[2]!.client.headers).toEqual({});
  });

  it("paces each target at its own rate limits and prices it at its own price (a shard's own target)", () => {
    const limited = cliTargets(
      parseServerEnv(
        { SHARD_KEY: 'sk-shard' },
        {
          name: 'workbench.targets.json',
          text: JSON.stringify({
            targets: [
              {
                id: 'slow',
                preset: 'hosted',
                keyVar: 'SHARD_KEY',
                requestsPerMinute: 300,
                tokensPerSecond: 5000,
                inputPrice: 2,
              },
            ],
          }),
        },
      ),
    );
    expect(limited[0]!.pacing).toMatchObject({ requestsPerMinute: 300, tokensPerSecond: 5000 });
    expect(limited[0]!.inputPrice).toBe(2);
    expect(limited[0]!.client.headers).toEqual({ Authorization: 'Bearer sk-shard' });
    // A model server on this machine is priced by its preset: nothing.
    expect(targets[2]!.inputPrice).toBe(0);
  });

  it('starts on the first target whose key is present, and refuses one without its key by name', () => {
    expect((chooseTarget(targets, undefined) as { id: string }).id).toBe('ts');
    expect(chooseTarget(targets, 'nokey')).toMatch(/has no key \(key missing: UNSET_KEY\)/);
  });
});
