// `report --workspace URL --queue ID`: the figures of a team workspace's latest labels, gated like a results file,
// with the owner's token from WORKBENCH_WORKSPACE_TOKEN; a labeller's token or none gets a sentence, never a figure.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NextResponse } from '../../../src/contract/workspace';
import { workspaceReportCommand } from '../../../src/cli/workspaceReport';
import { queueOf } from '../server/workspace/fixtures';
import { startWorkspace, withTeam } from '../server/workspace/helpers';
import type { TestWorkspace } from '../server/workspace/helpers';

let ws: TestWorkspace;
let team: Awaited<ReturnType<typeof withTeam>>;
let queue: string;
let token: string;

beforeAll(async () => {
  ws = await startWorkspace();
  team = await withTeam(ws, ['Ada', 'Bo']);
  const q = await ws.call('POST', '/api/workspace/queues', {
    body: queueOf(20, { overlap: { perRow: 2, share: 1 } }),
    cookie: team.owner,
  });
  queue = (q.body as { queue: { id: string } }).queue.id;
  // Both agree with the judge on tone (calm on even rows, angry on odd ones) and say nothing is harmful.
  for (let round = 0; round < 20; round++)
    for (const p of team.people) {
      const n = (await ws.call('POST', `/api/workspace/queues/${queue}/next`, { cookie: p.cookie }))
        .body as NextResponse;
      const row = n.row!.index;
      await ws.call('PUT', `/api/workspace/queues/${queue}/labels`, {
        cookie: p.cookie,
        body: {
          labels: [
            { row, question: 'tone', value: row % 2 ? 'angry' : 'calm', clientId: `${p.name}${row}t` },
            { row, question: 'harmful', value: false, clientId: `${p.name}${row}h` },
          ],
        },
      });
    }
  token = ((await ws.call('POST', '/api/workspace/tokens', { cookie: team.owner })).body as { token: string })
    .token;
}, 180_000);
afterAll(() => ws.close());

describe('report --workspace', () => {
  it("passes a gate the team's labels meet and fails one they do not", async () => {
    const passed = await workspaceReportCommand({
      url: ws.url,
      queue,
      token,
      gates: [{ key: 'tone.accuracy', kind: 'min', bound: 0.9 }],
      strict: false,
    });
    expect(passed.lines[0]).toMatch(/80 labels by 2 people on 20 rows/);
    expect(passed.gates[0]).toMatchObject({ passed: true, compared: 1 });
    expect(passed.code).toBe(0);
    const failed = await workspaceReportCommand({
      url: ws.url,
      queue,
      token,
      gates: [{ key: 'tone.accuracy', kind: 'max', bound: 0.5 }],
      strict: false,
    });
    expect(failed.code).toBe(1);
  });

  it("refuses a labeller's token with the workspace's sentence, and no token in it", async () => {
    const labeller = team.people[0]!.cookie.split('=')[1]!;
    const attempt = workspaceReportCommand({ url: ws.url, queue, token: labeller, gates: [], strict: false });
    await expect(attempt).rejects.toThrow(/did not answer/);
    await expect(attempt).rejects.not.toThrow(labeller);
  });

  it('asks for the token when it is not set', async () => {
    await expect(
      workspaceReportCommand({ url: ws.url, queue, token: undefined, gates: [], strict: false }),
    ).rejects.toThrow(/Set WORKBENCH_WORKSPACE_TOKEN/);
  });
});
