// Human labels kept with a session's alignment report: the schema, records saved before the labels (or the
// annotators' labels) were kept, the trip through session files and share links (and what a link too long for them
// says), and the plan of taking them back onto a run by row id, each annotator's as theirs, with every label left out
// counted.
import { describe, expect, it } from 'vitest';
import type { Questions } from '../../../../src/contract';
import { computeAlignment } from '../../../../src/core/alignment/compute';
import { AlignmentSummarySchema, summariseReport } from '../../../../src/core/alignment/report';
import {
  LabelledRowSchema,
  labelTakeSentence,
  labelledRowsOf,
  planLabelTake,
} from '../../../../src/core/alignment/sessionLabels';
import type { LabelRow, LabelledRow } from '../../../../src/core/alignment/sessionLabels';
import type { AlignRow } from '../../../../src/core/alignment/types';
import { exportFile, parseImportFile } from '../../../../src/core/sessionFile';
import { migrateSession } from '../../../../src/core/sessionMigrations';
import {
  MAX_SHARE_URL_LENGTH,
  decodeShareFragment,
  encodeShareFragment,
  encodeShareLink,
  labelsLeftOutSentence,
  sessionFromShared,
} from '../../../../src/core/shareLink';
import { sampleSession, v1Records } from '../../../helpers/sessions';

const questions: Questions = {
  department: { type: 'choice', criteria: { billing: null, technical: null, other: null } },
  mood: { type: 'score', criteria: ['calm', 'annoyed', 'angry'] },
  is_urgent: { type: 'noul' },
};

const alignRows: AlignRow[] = Array.from({ length: 12 }, (_, i) => ({
  id: String(i + 1),
  labels: { is_urgent: i % 3 === 0 },
  answers: { is_urgent: { type: 'noul', noul: i % 3 === 0 ? 0.8 : 0.2 } },
}));
const report = computeAlignment({ is_urgent: { type: 'noul' } }, alignRows, {
  bootstrap: { B: 50, seed: 1 },
});
const run = { fileName: 'tickets.csv', model: 'model-1.13.0', targetId: 'local', rowCount: 12 };
const at = new Date('2026-01-02T03:04:05Z');
const kept: LabelledRow[] = [
  { id: 't1', labels: { department: 'billing', mood: 2, is_urgent: true } },
  { id: 't2', labels: { is_urgent: false } },
];
const summary = summariseReport(report, run, (id) => `t${id}`, at, kept);
// Three annotators labelled the department of t1 and two the urgency of t2; the labels are their majority.
const annotated: LabelledRow[] = [
  {
    id: 't1',
    labels: { department: 'billing', mood: 2 },
    annotations: { department: { ana: 'billing', bo: 'technical', cy: 'billing' } },
  },
  { id: 't2', labels: { is_urgent: true }, annotations: { is_urgent: { ana: true, bo: false } } },
];
const annotatedSummary = summariseReport(report, run, (id) => `t${id}`, at, annotated);

describe('labels in the alignment summary', () => {
  it('keeps the labelled rows of a run in row order, and none for rows without a label', () => {
    expect(
      labelledRowsOf([
        { id: 'a', labels: { mood: 0 } },
        { id: 'b' },
        { id: 'c', labels: {} },
        { id: 'd', labels: { is_urgent: false } },
      ]),
    ).toEqual([
      { id: 'a', labels: { mood: 0 } },
      { id: 'd', labels: { is_urgent: false } },
    ]);
    expect(summary.labels).toEqual(kept);
    expect(summariseReport(report, run, undefined, at).labels).toBeUndefined();
  });

  it("keeps every annotator's labels with the row's, a copy the run's rows cannot change", () => {
    const given = { ana: true, bo: true };
    const rows: Omit<LabelRow, 'number'>[] = [
      { id: 'a', labels: { is_urgent: true }, annotations: { is_urgent: given } },
      { id: 'b', annotations: {} },
      { id: 'c', labels: { mood: 1 } },
    ];
    const labelled = labelledRowsOf(rows);
    expect(labelled).toEqual([
      { id: 'a', labels: { is_urgent: true }, annotations: { is_urgent: { ana: true, bo: true } } },
      { id: 'c', labels: { mood: 1 } },
    ]);
    given.ana = false;
    expect(labelled[0]!.annotations?.['is_urgent']?.['ana']).toBe(true);
    expect(AlignmentSummarySchema.parse(JSON.parse(JSON.stringify(annotatedSummary)))).toEqual(
      annotatedSummary,
    );
    expect(
      LabelledRowSchema.safeParse({ id: 't3', labels: {}, annotations: { mood: { ana: 'x', bo: null } } })
        .success,
    ).toBe(false);
  });

  it('parses labels as choice strings, 0-based levels and booleans, and refuses anything else', () => {
    expect(AlignmentSummarySchema.parse(JSON.parse(JSON.stringify(summary)))).toEqual(summary);
    expect(LabelledRowSchema.safeParse({ id: 't3', labels: { mood: -1 } }).success).toBe(false);
    expect(LabelledRowSchema.safeParse({ id: 't3', labels: { mood: 1.5 } }).success).toBe(false);
    expect(LabelledRowSchema.safeParse({ id: 't3', labels: { is_urgent: null } }).success).toBe(false);
    expect(
      AlignmentSummarySchema.safeParse({ ...summary, labels: [{ labels: { is_urgent: true } }] }).success,
    ).toBe(false);
  });

  it('reads a session saved before labels were kept, and a first-version record, as before', () => {
    const { labels: _labels, ...older } = summary;
    const stored = JSON.parse(JSON.stringify({ ...sampleSession(), alignment: older })) as unknown;
    const session = migrateSession(stored);
    expect(session.alignment).toEqual(older);
    expect(session.alignment?.labels).toBeUndefined();
    for (const v1 of v1Records) expect(migrateSession(structuredClone(v1)).alignment).toBeUndefined();
  });

  it('refuses a stored session whose kept labels are damaged, in one sentence', () => {
    const damaged = {
      ...sampleSession(),
      alignment: { ...summary, labels: [{ id: 't1', labels: { x: [] } }] },
    };
    expect(() => migrateSession(JSON.parse(JSON.stringify(damaged)))).toThrow(
      /^This session is damaged: alignment\.labels\.0\.labels\.x: /,
    );
  });

  it('travels in a session file', () => {
    const read = parseImportFile(exportFile([{ ...sampleSession(), alignment: summary }]));
    if (!read.ok) throw new Error(read.message);
    expect(read.sessions[0]!.alignment?.labels).toEqual(kept);
  });

  it("travels in a session file with every annotator's labels", () => {
    const read = parseImportFile(exportFile([{ ...sampleSession(), alignment: annotatedSummary }]));
    if (!read.ok) throw new Error(read.message);
    expect(read.sessions[0]!.alignment?.labels).toEqual(annotated);
    const damaged = {
      ...sampleSession(),
      alignment: {
        ...annotatedSummary,
        labels: [{ id: 't1', labels: {}, annotations: { mood: { ana: -1 } } }],
      },
    };
    expect(() => migrateSession(JSON.parse(JSON.stringify(damaged)))).toThrow(
      /^This session is damaged: alignment\.labels\.0\.annotations\.mood\.ana: /,
    );
  });
});

describe('labels in share links', () => {
  it('survive encoding and decoding, and the session made from the link', () => {
    const session = { ...sampleSession(), alignment: summary };
    const decoded = decodeShareFragment(encodeShareFragment(session, { includeRuns: false }));
    if (!decoded?.ok) throw new Error('not decoded');
    expect(decoded.shared.alignment?.labels).toEqual(kept);
    expect(sessionFromShared(decoded.shared, 'new').alignment).toEqual(summary);
    const link = encodeShareLink(session, { pageUrl: 'http://localhost/', includeRuns: true });
    expect(link.ok && link.labelsLeftOut).toBe(undefined);
  });

  it("carry every annotator's labels to the session made from the link", () => {
    const session = { ...sampleSession(), alignment: annotatedSummary };
    const link = encodeShareLink(session, { pageUrl: 'http://localhost/', includeRuns: false });
    if (!link.ok) throw new Error(link.reason);
    const decoded = decodeShareFragment(new URL(link.url).hash);
    if (!decoded?.ok) throw new Error('not decoded');
    expect(decoded.shared.alignment?.labels).toEqual(annotated);
    expect(sessionFromShared(decoded.shared, 'new').alignment?.labels?.[0]?.annotations).toEqual({
      department: { ana: 'billing', bo: 'technical', cy: 'billing' },
    });
  });

  it('leaves labels out of a link they would make too long, says so, and keeps them in the file', () => {
    // Ids with no pattern deflate to little less than their own length: thousands make the link too long.
    let seed = 7;
    const next = (): number => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
    const many: LabelledRow[] = Array.from({ length: 6000 }, () => ({
      id: next().toString(36) + next().toString(36),
      labels: { is_urgent: next() % 2 === 0, mood: next() % 3 },
    }));
    const session = { ...sampleSession(), alignment: { ...summary, labels: many } };
    const link = encodeShareLink(session, { pageUrl: 'http://localhost/', includeRuns: false });
    if (!link.ok) throw new Error(link.reason);
    expect(link.length).toBeLessThanOrEqual(MAX_SHARE_URL_LENGTH);
    expect(link.labelsLeftOut?.rows).toBe(6000);
    expect(link.labelsLeftOut!.length).toBeGreaterThan(MAX_SHARE_URL_LENGTH);
    const decoded = decodeShareFragment(new URL(link.url).hash);
    if (!decoded?.ok) throw new Error('not decoded');
    const { labels: _labels, ...figures } = summary;
    expect(decoded.shared.alignment).toEqual(figures);
    expect(labelsLeftOutSentence(link.labelsLeftOut!)).toBe(
      `The human labels of 6,000 rows are left out of this link: with them it would be ${link.labelsLeftOut!.length.toLocaleString('en-US')} characters, more than 32,000. Export the session as a file to send the labels too.`,
    );
    const read = parseImportFile(exportFile([session]));
    if (!read.ok) throw new Error(read.message);
    expect(read.sessions[0]!.alignment?.labels).toHaveLength(6000);
  });
});

describe('taking kept labels back onto a run', () => {
  const rows: LabelRow[] = [
    { number: 1, id: 't1' },
    { number: 2, id: 't2', labels: { is_urgent: true } },
    { number: 3, id: 't3', labels: { department: 'other' } },
    { number: 4, id: 'dup' },
    { number: 5, id: 'dup' },
  ];

  it('lists the labels matched rows lack, and counts unmatched rows, misfits and labels that differ', () => {
    const plan = planLabelTake(
      [
        // "angry" was level 2 of three; "sales" is no label of the choice; "tone" is no question of the run.
        { id: 't1', labels: { department: 'billing', mood: 2, is_urgent: 'yes', tone: 'warm' } },
        { id: 't2', labels: { is_urgent: false, mood: 3 } },
        { id: 't3', labels: { department: 'other', mood: 0 } },
        { id: 'gone', labels: { is_urgent: true } },
        { id: 'dup', labels: { department: 'technical' } },
        { id: 'dup', labels: { department: 'sales' } },
        { id: 'dup', labels: { department: 'billing' } },
      ],
      rows,
      questions,
    );
    expect(plan.changes).toEqual([
      { number: 1, question: 'department', value: 'billing' },
      { number: 1, question: 'mood', value: 2 },
      { number: 3, question: 'mood', value: 0 },
      { number: 4, question: 'department', value: 'technical' },
    ]);
    expect(plan).toMatchObject({ rows: 3, unmatched: 2, misfit: 4, differing: 1 });
    expect(labelTakeSentence(plan, 7, 'tickets.csv')).toBe(
      'The session keeps labels of 7 rows of tickets.csv. 2 of them match no row of this run by id. 4 labels no longer fit the questions (a label the choice lacks, a level out of range, or a question this run lacks) and are skipped. 1 label differs from the run’s own, which is kept.',
    );
  });

  it("takes each annotator's label as theirs, not the kept majority, and counts theirs that differ or misfit", () => {
    const plan = planLabelTake(
      [
        {
          id: 't1',
          labels: { department: 'billing', mood: 1 },
          // "sales" is no label of the choice any more.
          annotations: { department: { ana: 'billing', bo: 'technical', cy: 'sales' } },
        },
        // The run's t2 already has ana's urgency, with another value, and no bo.
        { id: 't2', labels: { is_urgent: true }, annotations: { is_urgent: { ana: true, bo: true } } },
      ],
      [
        { number: 1, id: 't1' },
        { number: 2, id: 't2', labels: { is_urgent: false }, annotations: { is_urgent: { ana: false } } },
      ],
      questions,
    );
    expect(plan.changes).toEqual([
      { number: 1, question: 'mood', value: 1 },
      { number: 1, question: 'department', value: 'billing', annotator: 'ana' },
      { number: 1, question: 'department', value: 'technical', annotator: 'bo' },
      { number: 2, question: 'is_urgent', value: true, annotator: 'bo' },
    ]);
    expect(plan).toMatchObject({ rows: 2, unmatched: 0, misfit: 1, differing: 1 });
    // Taken again once stored, nothing is left to take.
    const again = planLabelTake(
      [{ id: 't2', labels: { is_urgent: true }, annotations: { is_urgent: { ana: true, bo: true } } }],
      [
        {
          number: 2,
          id: 't2',
          labels: { is_urgent: true },
          annotations: { is_urgent: { ana: true, bo: true } },
        },
      ],
      questions,
    );
    expect(again.changes).toEqual([]);
  });

  it('has nothing to take once the run has every label', () => {
    const plan = planLabelTake([{ id: 't2', labels: { is_urgent: true } }], rows, questions);
    expect(plan).toEqual({ changes: [], rows: 0, unmatched: 0, misfit: 0, differing: 0 });
    expect(labelTakeSentence(plan, 1, 'a.csv')).toBe('The session keeps labels of 1 row of a.csv.');
  });
});
