import { deflateSync, strToU8 } from 'fflate';
import { describe, expect, it } from 'vitest';
import {
  MAX_SHARE_URL_LENGTH,
  SHARE_FRAGMENT_PREFIX,
  decodeShareFragment,
  encodeShareFragment,
  encodeShareLink,
  sessionFromShared,
} from '../../../src/core/shareLink';
import type { Session } from '../../../src/core/session';
import { sampleSession } from '../../helpers/sessions';

const PAGE = 'http://127.0.0.1:5173/?x=1#old';

function fragmentOf(json: string): string {
  const bytes = deflateSync(strToU8(json));
  const b64 = Buffer.from(bytes).toString('base64url');
  return `${SHARE_FRAGMENT_PREFIX}v1.${b64}`;
}

function decodeOk(hash: string) {
  const result = decodeShareFragment(hash);
  if (!result?.ok) throw new Error(result ? result.message : 'not a share link');
  return result.shared;
}

describe('share links', () => {
  it('carries the doc, the comparison and the runs, and nothing else', () => {
    const session: Session = sampleSession({
      compare: {
        columns: [
          { id: 'a', targetId: 'local', model: 'model-1.12.0' },
          { id: 'b', targetId: 'local', model: 'model-1.13.0' },
        ],
        threshold: 0.2,
        runIds: { a: 'run-1', b: 'run-2' },
      },
    });
    const link = encodeShareLink(session, { pageUrl: PAGE, includeRuns: true });
    if (!link.ok) throw new Error(link.reason);
    expect(link.url.startsWith('http://127.0.0.1:5173/?x=1#share=v1.')).toBe(true);
    expect(link.url).not.toContain('#old');
    const shared = decodeOk(new URL(link.url).hash);
    expect(shared).toEqual({
      name: session.name,
      doc: session.doc,
      compare: session.compare,
      runs: session.runs,
    });
  });

  it('leaves the runs out unless asked, with the comparison pointing at none', () => {
    const session = sampleSession({
      compare: {
        columns: [
          { id: 'a', targetId: 'local', model: 'model-1.12.0' },
          { id: 'b', targetId: 'local', model: 'model-1.13.0' },
        ],
        threshold: 0.2,
        runIds: { a: 'run-1' },
      },
    });
    const shared = decodeOk(encodeShareFragment(session, { includeRuns: false }));
    expect(shared.runs).toEqual([]);
    expect(shared.compare?.runIds).toEqual({});
    expect(shared.doc).toEqual(session.doc);
  });

  it("carries the taxonomy screen's pasted labels, reading and instructions with the doc", () => {
    const base = sampleSession();
    const taxonomy = {
      text: 'Wooden > stool\nGlass > vase',
      format: 'paths' as const,
      instructions: 'Which?',
    };
    const session = sampleSession({ doc: { ...base.doc, taxonomy } });
    const shared = decodeOk(encodeShareFragment(session, { includeRuns: false }));
    expect(shared.doc.taxonomy).toEqual(taxonomy);
    expect(sessionFromShared(shared, 's-2').doc.taxonomy).toEqual(taxonomy);
  });

  it('becomes a new session whose runs are marked as replayed', () => {
    const shared = decodeOk(encodeShareFragment(sampleSession(), { includeRuns: true }));
    const session = sessionFromShared(shared, 'new-id', new Date('2026-04-01T00:00:00Z'));
    expect(session.id).toBe('new-id');
    expect(session.createdAt).toBe('2026-04-01T00:00:00.000Z');
    expect(session.runs.every((r) => r.replayed === true)).toBe(true);
    expect(session.runs[0]!.response).toEqual(sampleSession().runs[0]!.response);
  });

  it('carries the variant ledger and the sealed rows, so a variant counted here is counted where it opens', () => {
    const ledger = {
      entries: [
        {
          runId: 'run-7',
          at: '2026-11-28T10:00:00.000Z',
          setKey: 'tickets.csv#labels',
          rows: 300,
          questions: ['department'],
          variantKey: 'v-abc',
          purpose: 'explore' as const,
        },
      ],
      seals: [
        {
          setKey: 'tickets.csv#labels',
          share: 0.2,
          seed: 4,
          ids: ['r1', 'r9'],
          at: '2026-11-28T10:00:00.000Z',
        },
      ],
    };
    const shared = decodeOk(encodeShareFragment({ ...sampleSession(), ledger }, { includeRuns: false }));
    expect(shared.ledger).toEqual(ledger);
    expect(sessionFromShared(shared, 'n').ledger).toEqual(ledger);
  });

  it('refuses a link longer than browsers keep, with the length and a way out', () => {
    // Random text does not compress, so the link grows with it.
    const noise = Array.from({ length: 40_000 }, (_, i) => ((i * 7919) % 65_521).toString(36)).join(' ');
    const big = sampleSession({ doc: { ...sampleSession().doc, stateText: noise } });
    const link = encodeShareLink(big, { pageUrl: PAGE, includeRuns: true });
    expect(link.ok).toBe(false);
    if (!link.ok) {
      expect(link.length).toBeGreaterThan(MAX_SHARE_URL_LENGTH);
      expect(link.reason).toMatch(/longer than browsers .* \(32,000\)\. Sharing without the runs/);
    }
  });

  it('ignores a hash that is not a share link', () => {
    expect(decodeShareFragment('')).toBeNull();
    expect(decodeShareFragment('#settings')).toBeNull();
  });

  it.each([
    ['a newer version', `${SHARE_FRAGMENT_PREFIX}v9.abc`, /newer version of Evaluate Workbench \(v9\)/],
    ['no version', `${SHARE_FRAGMENT_PREFIX}abc`, /does not start with a known version/],
    ['stray characters', `${SHARE_FRAGMENT_PREFIX}v1.ab%20cd`, /characters a share link never has/],
    ['data cut in half', '', /damaged or incomplete/],
    [
      'JSON that is no session',
      fragmentOf('{"hello":"world"}'),
      /does not hold an Evaluate Workbench session/,
    ],
    [
      'a session with a damaged doc',
      fragmentOf('{"schemaVersion":2,"name":"x","doc":{},"runs":[]}'),
      /damaged: doc\./,
    ],
    ['not JSON', fragmentOf('not json'), /content is not readable/],
  ])('refuses %s with a sentence', (_what, given, message) => {
    const full = encodeShareFragment(sampleSession(), { includeRuns: true });
    const hash = given === '' ? full.slice(0, Math.floor(full.length / 2)) : given;
    const result = decodeShareFragment(hash);
    expect(result?.ok).toBe(false);
    if (result && !result.ok) expect(result.message).toMatch(message);
  });

  it('refuses a link that inflates beyond the size cap', () => {
    const bomb = fragmentOf(`{"schemaVersion":2,"name":"${'a'.repeat(9 * 1024 * 1024)}"}`);
    expect(bomb.length).toBeLessThan(MAX_SHARE_URL_LENGTH);
    const result = decodeShareFragment(bomb);
    expect(result).toEqual({ ok: false, message: expect.stringMatching(/expands to more data/) });
  });
});
