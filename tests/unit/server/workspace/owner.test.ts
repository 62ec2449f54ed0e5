// The owner's side: disagreements and settled labels, the figures (per labeller, and in TrustData's shape for
// src/core/trust), the live event stream, and export/import round trips in CSV, Label Studio and Argilla form.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  DisagreementsResponse,
  FiguresResponse,
  ImportResponse,
  NextResponse,
  WorkspaceEvent,
} from '../../../../src/contract/workspace';
import { trustFigures, trustDataOf } from '../../../../src/core/trust';
import { queueOf } from './fixtures';
import { startWorkspace, withTeam } from './helpers';
import type { TestWorkspace } from './helpers';

let ws: TestWorkspace;
let team: Awaited<ReturnType<typeof withTeam>>;
let queue: string;
/** What each labeller answers for tone on row i: Ada and Bo agree with the judge, Cy always says "angry". */
const toneOf = (name: string, row: number) => (name === 'Cy' ? 'angry' : row % 2 ? 'angry' : 'calm');

beforeAll(async () => {
  ws = await startWorkspace();
  team = await withTeam(ws, ['Ada', 'Bo', 'Cy']);
  const q = await ws.call('POST', '/api/workspace/queues', {
    body: queueOf(8, { overlap: { perRow: 3, share: 1 } }),
    cookie: team.owner,
  });
  queue = (q.body as { queue: { id: string } }).queue.id;
  // Every labeller labels every row, one row at a time, as the page would.
  for (let round = 0; round < 8; round++)
    for (const p of team.people) {
      const n = (await ws.call('POST', `/api/workspace/queues/${queue}/next`, { cookie: p.cookie }))
        .body as NextResponse;
      const row = n.row!.index;
      await ws.call('PUT', `/api/workspace/queues/${queue}/labels`, {
        cookie: p.cookie,
        body: {
          labels: [
            { row, question: 'tone', value: toneOf(p.name, row), clientId: `${p.name}-${row}-t`, seconds: 4 },
            { row, question: 'harmful', value: false, clientId: `${p.name}-${row}-h`, seconds: 2 },
          ],
        },
      });
    }
}, 180_000);
afterAll(() => ws.close());

const get = async <T>(path: string) =>
  (await ws.call('GET', `/api/workspace/queues/${queue}/${path}`, { cookie: team.owner })).body as T;

describe('figures', () => {
  it('counts each labeller, their median time, and their agreement, and flags who agrees with no one', async () => {
    const f = await get<FiguresResponse>('figures');
    expect(f.basis).toBe('each');
    expect(f.labels).toBe(48);
    const byName = Object.fromEntries(f.labellers.map((l) => [l.name, l]));
    expect(byName.Ada).toMatchObject({ labels: 16, medianSeconds: 3 });
    // Ada agrees with Bo on every pair and with Cy on tone only on odd rows (4 of 8) and on every harmful.
    expect(byName.Ada!.agreement).toBeCloseTo((16 + 4 + 8) / 32, 10);
    expect(byName.Cy!.agreesWithNoOne).toBe(false);
  });

  it("gives each question's labels in TrustData's shape, which src/core/trust computes figures from", async () => {
    const f = await get<FiguresResponse>('figures');
    const tone = f.trust.tone!;
    expect(tone.annotators).toEqual(['Ada', 'Bo', 'Cy']);
    expect(tone.classes).toEqual(['calm', 'angry']);
    expect(tone.ratings).toHaveLength(8 * 3);
    const columns = Object.fromEntries(
      tone.annotators.map((name, a) => [name, Array.from({ length: 8 }, (_, i) => tone.ratings[i * 3 + a]!)]),
    );
    const data = trustDataOf({ type: tone.type, classes: tone.classes, columns, judge: tone.judge });
    const figures = trustFigures(data, { bootstrap: { B: 50, seed: 1 } });
    expect(figures.rows.total).toBe(8);
    expect(figures.rows.complete).toBe(8);
  });

  it('says its basis: the majority gives one column, settled labels replace it where set', async () => {
    const majority = await get<FiguresResponse>('figures?basis=majority');
    expect(majority.trust.tone!.annotators).toEqual(['majority']);
    expect(majority.trust.tone!.ratings).toEqual([0, 1, 0, 1, 0, 1, 0, 1]);
    await ws.call('PUT', `/api/workspace/queues/${queue}/adjudications`, {
      cookie: team.owner,
      body: { row: 0, question: 'tone', value: 'angry', note: 'Cy was right' },
    });
    const settled = await get<FiguresResponse>('figures?basis=settled');
    expect(settled.trust.tone!.ratings[0]).toBe(1);
    expect(settled.basis).toBe('settled');
  });
});

describe('disagreements and adjudication', () => {
  it('lists each row and question where people differ, with every label and the settled one', async () => {
    await ws.call('PUT', `/api/workspace/queues/${queue}/adjudications`, {
      cookie: team.owner,
      body: { row: 2, question: 'tone', value: 'calm', note: 'two against one' },
    });
    const { disagreements } = await get<DisagreementsResponse>('disagreements');
    expect(disagreements.map((d) => d.row)).toEqual([0, 2, 4, 6]);
    const two = disagreements.find((d) => d.row === 2)!;
    expect(two.labels.map((l) => [l.name, l.value])).toEqual([
      ['Ada', 'calm'],
      ['Bo', 'calm'],
      ['Cy', 'angry'],
    ]);
    expect(two.settled).toMatchObject({ value: 'calm', note: 'two against one' });
  });

  it('refuses a settled label no question has', async () => {
    const bad = await ws.call('PUT', `/api/workspace/queues/${queue}/adjudications`, {
      cookie: team.owner,
      body: { row: 1, question: 'tone', value: 'furious' },
    });
    expect(bad.status).toBe(400);
  });
});

describe('live events', () => {
  it('delivers a label to the owner’s open event stream as it is stored', async () => {
    const q = await ws.call('POST', '/api/workspace/queues', { body: queueOf(2), cookie: team.owner });
    const id = (q.body as { queue: { id: string } }).queue.id;
    const controller = new AbortController();
    const response = await fetch(`${ws.url}/api/workspace/queues/${id}/events`, {
      headers: { cookie: team.owner },
      signal: controller.signal,
    });
    expect(response.headers.get('content-type')).toMatch(/text\/event-stream/);
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let text = '';
    while (!text.includes('event: ready')) text += decoder.decode((await reader.read()).value);
    const ada = team.people[0]!.cookie;
    const n = (await ws.call('POST', `/api/workspace/queues/${id}/next`, { cookie: ada }))
      .body as NextResponse;
    await ws.call('PUT', `/api/workspace/queues/${id}/labels`, {
      cookie: ada,
      body: { labels: [{ row: n.row!.index, question: 'tone', value: 'calm', clientId: 'live' }] },
    });
    while (!text.includes('event: label')) text += decoder.decode((await reader.read()).value);
    const data = /event: label\ndata: (.*)\n/.exec(text)![1]!;
    const event = JSON.parse(data) as WorkspaceEvent;
    expect(event).toMatchObject({ kind: 'label', queue: id, row: n.row!.index, question: 'tone', labels: 1 });
    controller.abort();
  });
});

describe('interop round trips', () => {
  it.each(['csv', 'labelstudio', 'argilla'] as const)(
    'exports %s and reads it back into a new queue with the same labels and annotators',
    async (format) => {
      const file = await ws.call('GET', `/api/workspace/queues/${queue}/export?format=${format}`, {
        cookie: team.owner,
      });
      expect(file.status).toBe(200);
      const copy = await ws.call('POST', '/api/workspace/queues', { body: queueOf(8), cookie: team.owner });
      const id = (copy.body as { queue: { id: string } }).queue.id;
      const imported = await ws.call('POST', `/api/workspace/queues/${id}/import?format=${format}`, {
        cookie: team.owner,
        raw: file.text,
      });
      expect(imported.body as ImportResponse).toMatchObject({
        imported: 48,
        people: ['Ada', 'Bo', 'Cy'],
        problems: [],
      });
      const before = await get<FiguresResponse>('figures');
      const after = (await ws.call('GET', `/api/workspace/queues/${id}/figures`, { cookie: team.owner }))
        .body as FiguresResponse;
      expect(after.trust).toEqual(before.trust);
      // Imported twice, each label is still there once.
      const again = await ws.call('POST', `/api/workspace/queues/${id}/import?format=${format}`, {
        cookie: team.owner,
        raw: file.text,
      });
      expect((again.body as ImportResponse).imported).toBe(0);
    },
  );

  it('names what it cannot read, line by line, and stores the rest', async () => {
    const copy = await ws.call('POST', '/api/workspace/queues', { body: queueOf(2), cookie: team.owner });
    const id = (copy.body as { queue: { id: string } }).queue.id;
    const csv = 'id,label.tone.Zoe\r\nr0,calm\r\nr1,furious\r\nr9,calm\r\n';
    const imported = (
      await ws.call('POST', `/api/workspace/queues/${id}/import?format=csv`, { cookie: team.owner, raw: csv })
    ).body as ImportResponse;
    expect(imported.imported).toBe(1);
    expect(imported.problems).toEqual([
      'Line 3, label.tone.Zoe: "furious" is not a label of "tone".',
      'No row of this queue has the key "r9".',
    ]);
  });
});
