// The alignment report kept in a session: it survives a share link (so it replays offline), and renders as Markdown
// and as self-contained HTML with the reliability diagram in SVG.
import { describe, expect, it } from 'vitest';
import { computeAlignment } from '../../../../src/core/alignment/compute';
import {
  alignmentHtml,
  alignmentMarkdown,
  AlignmentSummarySchema,
  summariseReport,
} from '../../../../src/core/alignment/report';
import type { AlignRow } from '../../../../src/core/alignment/types';
import { decodeShareFragment, encodeShareFragment, sessionFromShared } from '../../../../src/core/shareLink';
import { sampleSession } from '../../../helpers/sessions';

const rows: AlignRow[] = Array.from({ length: 12 }, (_, i) => ({
  id: String(i + 1),
  labels: { is_urgent: i % 3 === 0 },
  answers: { is_urgent: { type: 'noul', noul: i % 3 === 0 ? 0.8 : i % 4 === 0 ? 0.7 : 0.2 } },
}));
const report = computeAlignment({ is_urgent: { type: 'noul' } }, rows, { bootstrap: { B: 100, seed: 1 } });
const summary = summariseReport(
  report,
  { fileName: 'tickets.csv', model: 'model-1.13.0', targetId: 'local', rowCount: 12 },
  (id) => `t${id}`,
  new Date('2026-01-02T03:04:05Z'),
);

describe('alignment report', () => {
  it('travels in a share link and into the session made from it', () => {
    const session = { ...sampleSession(), alignment: summary };
    const decoded = decodeShareFragment(encodeShareFragment(session, { includeRuns: false }));
    if (!decoded?.ok) throw new Error('not decoded');
    expect(decoded.shared.alignment).toEqual(summary);
    expect(sessionFromShared(decoded.shared, 'new').alignment).toEqual(summary);
    expect(AlignmentSummarySchema.parse(JSON.parse(JSON.stringify(summary)))).toEqual(summary);
  });

  it('renders Markdown with every figure, the mistakes by file id and the conventions', () => {
    const text = alignmentMarkdown(summary);
    expect(text).toContain('# Alignment with human labels: tickets.csv');
    expect(text).toMatch(/\| auroc \| \d\.\d\d \(95% CI \d\.\d\d to \d\.\d\d\), n = 12 \|/);
    expect(text).toMatch(/- row t\d+: label no, judge yes at 0\.70/);
    expect(text).toContain('lower edge closed');
  });

  it('renders self-contained HTML with the diagram in SVG and text escaped', () => {
    const html = alignmentHtml({ ...summary, run: { ...summary.run, fileName: '<b>x</b>.csv' } });
    expect(html).toContain('<svg');
    expect(html).toContain('&lt;b&gt;x&lt;/b&gt;.csv');
    expect(html).not.toMatch(/<script|\ssrc=|\shref=/);
  });
});
