import { describe, expect, it } from 'vitest';
import { SessionSchema } from '../../../src/core/session';
import {
  EXPORT_FORMAT,
  describeProblem,
  exportFile,
  exportFileName,
  looksCutOff,
  parseImportFile,
} from '../../../src/core/sessionFile';
import { scrubSecretText } from '../../../src/core/scrubSecrets';
import { sampleSession, v1Records } from '../../helpers/sessions';

const two = [sampleSession(), sampleSession({ id: 'session-2', name: 'Refund wording', runs: [] })];

describe('export file', () => {
  it('round-trips sessions exactly', () => {
    const text = exportFile(two, new Date('2026-03-02T00:00:00Z'));
    const file = JSON.parse(text);
    expect(file).toMatchObject({ format: EXPORT_FORMAT, version: 1, exportedAt: '2026-03-02T00:00:00.000Z' });
    const back = parseImportFile(text);
    expect(back).toEqual({ ok: true, sessions: two, problems: [] });
  });

  it('carries the variant ledger and its seals', () => {
    const ledger = {
      entries: [
        {
          runId: 'r1',
          at: '2026-11-28T10:00:00.000Z',
          setKey: 'set',
          rows: 12,
          questions: ['q'],
          variantKey: 'v1',
          purpose: 'confirm' as const,
        },
      ],
      seals: [{ setKey: 'set', share: 0.25, seed: 1, ids: ['a', 'b', 'c'], at: '2026-11-28T10:00:00.000Z' }],
    };
    const back = parseImportFile(exportFile([{ ...sampleSession(), ledger }]));
    expect(back.ok && back.sessions[0]!.ledger).toEqual(ledger);
  });

  it('names files after the session or the count', () => {
    const now = new Date('2026-03-02T12:00:00Z');
    expect(exportFileName([{ name: 'Tone: v2 / draft' }], now)).toBe(
      'evaluate-workbench-tone-v2-draft-2026-03-02.json',
    );
    expect(exportFileName([{ name: '✨' }], now)).toBe('evaluate-workbench-session-2026-03-02.json');
    expect(exportFileName(two, now)).toBe('evaluate-workbench-2-sessions-2026-03-02.json');
  });

  it('migrates sessions of the first schema version inside a file', () => {
    const text = JSON.stringify({ format: EXPORT_FORMAT, version: 1, exportedAt: 'x', sessions: v1Records });
    const result = parseImportFile(text);
    if (!result.ok) throw new Error(result.message);
    expect(result.sessions.map((s) => s.id)).toEqual(['v1-alpha', 'v1-beta']);
    expect(result.sessions[0]!.runs).toHaveLength(2);
    expect(result.sessions[1]!.doc.questionsText).toBe(v1Records[1]!.questions);
  });

  it('reads a file saved with a byte order mark', () => {
    expect(parseImportFile(`\uFEFF${exportFile(two)}`).ok).toBe(true);
  });
});

describe('refusing files with one clear sentence', () => {
  const full = exportFile(two);
  it.each([
    ['an empty file', '  \n', /^The file is empty/],
    [
      'a truncated file',
      full.slice(0, Math.floor(full.length * 0.6)),
      /^The file is cut off: it ends in the middle/,
    ],
    ['a file cut inside a string', full.slice(0, full.indexOf('Support') + 3), /^The file is cut off/],
    [
      'a CSV file',
      'name,state\nA,B\n',
      /^This file is not an Evaluate Workbench export: it looks like a file of rows \(CSV\), which “Rows from a file” above the editors runs/,
    ],
    ['a JSON Lines file', '{"a":1}\n{"a":2}\n', /it looks like a file of rows \(JSON Lines\)/],
    ['one line of prose', 'hello there', /^This file is not an Evaluate Workbench export: it is not JSON/],
    [
      'JSON that is a list',
      '[1,2,3]',
      /^This file is not an Evaluate Workbench export: it holds JSON, but not an object\.$/,
    ],
    [
      'a package.json',
      '{"name":"x","version":"1.0.0"}',
      /^This file is not an Evaluate Workbench export: it has no "format"/,
    ],
    ['another format', '{"format":"excalidraw","version":2}', /its format is "excalidraw"/],
    [
      'a newer file',
      JSON.stringify({ format: EXPORT_FORMAT, version: 7, sessions: [] }),
      /newer version .*file version 7/,
    ],
    [
      'sessions that are not a list',
      JSON.stringify({ format: EXPORT_FORMAT, version: 1, exportedAt: 'x', sessions: {} }),
      /^The file is damaged: sessions: its "sessions" field is not a list\.$/,
    ],
    [
      'no sessions',
      JSON.stringify({ format: EXPORT_FORMAT, version: 1, exportedAt: 'x', sessions: [] }),
      /holds no sessions/,
    ],
  ])('%s', (_what, text, message) => {
    const result = parseImportFile(text);
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.message).toMatch(message);
      expect(result.message.split(/(?<=\.)\s+(?=[A-Z])/)).toHaveLength(1); // one sentence
    }
  });

  it('reports bad sessions by position and keeps the good ones', () => {
    const bad = { ...sampleSession({ id: 'bad', name: 'Broken one' }), doc: { stateMode: 'yaml' } };
    const text = JSON.stringify({
      format: EXPORT_FORMAT,
      version: 1,
      exportedAt: 'x',
      sessions: [two[0], bad, 42],
    });
    const result = parseImportFile(text);
    if (!result.ok) throw new Error(result.message);
    expect(result.sessions).toEqual([two[0]]);
    expect(result.problems.map((p) => p.index)).toEqual([1, 2]);
    expect(result.problems[0]!.message).toMatch(/doc\.stateMode/);
    expect(describeProblem(result.problems[0]!)).toBe('session 2 (“Broken one”)');
    expect(result.problems[1]!.message).toMatch(/not an object/);
  });

  it('refuses a file where no session reads', () => {
    const text = JSON.stringify({ format: EXPORT_FORMAT, version: 1, exportedAt: 'x', sessions: [{}, null] });
    const result = parseImportFile(text);
    expect(result).toEqual({
      ok: false,
      message: expect.stringMatching(/^None of the 2 sessions in this file could be read; session 1: /),
    });
  });

  it('tells a cut-off file from broken JSON', () => {
    expect(looksCutOff('{"a": [1, 2')).toBe(true);
    expect(looksCutOff('{"a": "unterminated \\" quote')).toBe(true);
    expect(looksCutOff('{"a": 1}}')).toBe(false);
    expect(looksCutOff('{"a": [1}')).toBe(false);
    expect(looksCutOff('hello')).toBe(false);
  });
});

describe('nothing secret in a saved or exported session', () => {
  // A session record has exactly these fields; there is no place for a key, a base URL or a proxy detail.
  const SESSION_KEYS = ['compare', 'createdAt', 'doc', 'id', 'name', 'runs', 'schemaVersion', 'updatedAt'];
  const DOC_KEYS = ['model', 'questionsText', 'stateMode', 'stateText', 'targetId'];
  const RUN_KEYS = [
    'at',
    'attempts',
    'error',
    'id',
    'latencyMs',
    'replayed',
    'request',
    'response',
    'targetId',
  ];

  it('drops target details a caller slipped into the record, and keeps what the user wrote', () => {
    const withUrlInText = sampleSession({ name: 'Uses https://admin:hunter2@internal.example/' });
    const polluted = {
      ...withUrlInText,
      target: { baseUrl: 'https://user:pw@api.example', apiKey: 'sk-live-123', proxy: { host: '10.0.0.1' } },
      doc: { ...withUrlInText.doc, apiKey: 'sk-live-123', baseUrl: 'https://api.example' },
      runs: withUrlInText.runs.map((r) => ({ ...r, headers: { Authorization: 'Bearer sk-live-123' } })),
    };
    const text = exportFile([SessionSchema.parse(polluted)]);
    expect(text).not.toContain('sk-live-123');
    expect(text).not.toContain('10.0.0.1');
    expect(text).not.toContain('api.example');
    expect(text).toContain('https://admin:hunter2@internal.example/'); // the user's own text is content, kept
    const back = parseImportFile(text);
    if (!back.ok) throw new Error(back.message);
    const session = back.sessions[0]!;
    for (const key of Object.keys(session)) expect(SESSION_KEYS).toContain(key);
    for (const key of Object.keys(session.doc)) expect(DOC_KEYS).toContain(key);
    for (const run of session.runs) for (const key of Object.keys(run)) expect(RUN_KEYS).toContain(key);
  });

  it('masks credentials quoted in run errors and attempt messages', () => {
    const session = sampleSession();
    const run = session.runs[1]!;
    run.error!.message =
      'Could not get an answer from https://bob:s3cret@api.example/v1/evaluate?api_key=k-999 (fetch failed).';
    run.attempts[0]!.message = 'upstream said: Authorization: Bearer sk-abc.def rejected';
    const text = exportFile([session]);
    expect(text).not.toContain('s3cret');
    expect(text).not.toContain('k-999');
    expect(text).not.toContain('sk-abc.def');
    expect(text).toContain('https://***@api.example/v1/evaluate?api_key=***');
    expect(scrubSecretText('no secrets here: model-1.13.0 at /api/targets/local')).toBe(
      'no secrets here: model-1.13.0 at /api/targets/local',
    );
  });
});
