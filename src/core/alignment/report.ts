// The alignment report: a compact summary of a run's figures that is kept in the session (so it travels in session
// files and share links and replays offline), and its Markdown and HTML renderings (HTML with the reliability
// diagrams drawn as inline SVG, no script and nothing fetched).
import { z } from 'zod';
import type { AlignmentReport } from './compute';
import { LabelValueSchema } from '../labels/values';
// The schema alone, not the trust barrel: sessions parse reports at first paint, the statistics load with their screen.
import { TrustFiguresSchema } from '../trust/schema';
import { trustHtml, trustMarkdown } from './trustReport';
import { LabelledRowSchema } from './sessionLabels';
import type { LabelledRow } from './sessionLabels';

const FigureSchema = z.object({
  value: z.number().nullable(),
  lo: z.number().nullable(),
  hi: z.number().nullable(),
  n: z.number().int().min(0),
  method: z.string(),
  undefinedReason: z.string().optional(),
});

/** Disagreements kept in a report: enough to read, few enough for a share link. */
export const REPORT_DISAGREEMENTS = 10;

const QuestionSummarySchema = z.object({
  name: z.string(),
  type: z.enum(['choice', 'score', 'noul']),
  classes: z.array(z.string()),
  n: z.number().int().min(0),
  labelled: z.number().int().min(0),
  figures: z.record(z.string(), FigureSchema),
  confusion: z.array(z.array(z.number())),
  reliability: z.array(
    z.object({
      lo: z.number(),
      hi: z.number(),
      count: z.number(),
      meanPredicted: z.number().nullable(),
      observed: z.number().nullable(),
    }),
  ),
  selective: z.string(),
  threshold: z
    .object({ value: z.number(), best: z.number().nullable(), bestBalancedAccuracy: z.number().nullable() })
    .optional(),
  prevalence: z.array(
    z.object({ label: z.string(), judge: FigureSchema, corrected: FigureSchema, human: FigureSchema }),
  ),
  disagreements: z.array(
    z.object({
      id: z.string(),
      label: LabelValueSchema,
      predicted: LabelValueSchema,
      pPredicted: z.number(),
    }),
  ),
  /** "Can the judge replace a person?" (absent in reports kept before it). */
  trust: TrustFiguresSchema.optional(),
});

/** A report as kept in a session: parsed on read like every persisted record. */
export const AlignmentSummarySchema = z.object({
  at: z.string(),
  run: z.object({
    fileName: z.string(),
    model: z.string(),
    targetId: z.string(),
    rowCount: z.number().int().min(0),
  }),
  conventions: z.array(z.string()),
  questions: z.array(QuestionSummarySchema),
  /** The run's human labels by row id, so a session can put them back on a run (absent in older reports). */
  labels: z.array(LabelledRowSchema).optional(),
});
export type AlignmentSummary = z.infer<typeof AlignmentSummarySchema>;

/**
 * The summary of a report: figures, diagrams' bins, readouts and the first disagreements (row ids as in the file),
 * and the run's labelled rows (see labelledRowsOf) when given.
 */
export function summariseReport(
  report: AlignmentReport,
  run: { fileName: string; model: string; targetId: string; rowCount: number },
  rowIdOf: (id: string) => string = (id) => id,
  now: Date = new Date(),
  labelled: readonly LabelledRow[] = [],
): AlignmentSummary {
  return {
    at: now.toISOString(),
    run: { fileName: run.fileName, model: run.model, targetId: run.targetId, rowCount: run.rowCount },
    conventions: report.conventions,
    questions: Object.values(report.questions).map((q) => ({
      name: q.name,
      type: q.type,
      classes: q.classes,
      n: q.n,
      labelled: q.labelled,
      figures: q.figures,
      confusion: q.confusion.counts,
      reliability: q.reliability,
      selective: q.selective.sentence,
      ...(q.threshold
        ? {
            threshold: {
              value: q.threshold.value,
              best: q.threshold.best?.threshold ?? null,
              bestBalancedAccuracy: q.threshold.best?.balancedAccuracy ?? null,
            },
          }
        : {}),
      prevalence: q.prevalence.map((p) => ({
        label: p.label,
        judge: p.judge,
        corrected: p.corrected,
        human: p.human,
      })),
      disagreements: q.disagreements.slice(0, REPORT_DISAGREEMENTS).map((d) => ({
        id: rowIdOf(d.id),
        label: d.label,
        predicted: d.predicted,
        pPredicted: d.pPredicted,
      })),
      ...(q.trust ? { trust: q.trust } : {}),
    })),
    ...(labelled.length > 0 ? { labels: [...labelled] } : {}),
  };
}

type Fig = z.infer<typeof FigureSchema>;
const f2 = (x: number): string => x.toFixed(2);
/** A figure in one line: "0.62 (95% CI 0.55 to 0.69), n = 480". */
export function figureLine(f: Fig | undefined): string {
  if (!f) return '—';
  if (f.value === null) return `undefined: ${f.undefinedReason ?? 'no rows'}`;
  const ci = f.lo === null || f.hi === null ? 'no interval' : `95% CI ${f2(f.lo)} to ${f2(f.hi)}`;
  return `${f2(f.value)} (${ci}), n = ${f.n}`;
}

const md = (s: string): string => s.replace(/([|\\`*_[\]])/g, '\\$1');
const valueText = (v: string | number | boolean): string =>
  typeof v === 'boolean' ? (v ? 'yes' : 'no') : String(v);

/** The report as Markdown. */
export function alignmentMarkdown(s: AlignmentSummary): string {
  const out: string[] = [
    `# Alignment with human labels: ${md(s.run.fileName)}`,
    '',
    `Model \`${s.run.model}\` on target ${md(s.run.targetId)}, ${s.run.rowCount} rows; computed ${s.at}.`,
    '',
  ];
  for (const q of s.questions) {
    out.push(
      `## ${md(q.name)} (${q.type})`,
      '',
      `${q.n} rows with a label and an answer; ${q.labelled} labelled.`,
      '',
    );
    out.push('| Figure | Value |', '| --- | --- |');
    for (const [key, f] of Object.entries(q.figures)) out.push(`| ${md(key)} | ${md(figureLine(f))} |`);
    out.push('', q.selective, '');
    if (q.threshold)
      out.push(
        `Threshold ${f2(q.threshold.value)}; best balanced accuracy ${q.threshold.bestBalancedAccuracy === null ? 'undefined' : f2(q.threshold.bestBalancedAccuracy)} at ${q.threshold.best === null ? '—' : f2(q.threshold.best)}.`,
        '',
      );
    out.push(
      'Confusion (label down, judge across):',
      '',
      `| | ${q.classes.map(md).join(' | ')} |`,
      `| --- |${' --- |'.repeat(q.classes.length)}`,
    );
    q.confusion.forEach((row, i) => out.push(`| ${md(q.classes[i] ?? String(i))} | ${row.join(' | ')} |`));
    out.push('', 'Reliability (bin: mean probability → observed, rows):', '');
    for (const b of q.reliability)
      if (b.count > 0)
        out.push(`- ${f2(b.lo)}–${f2(b.hi)}: ${f2(b.meanPredicted!)} → ${f2(b.observed!)} (${b.count})`);
    if (q.prevalence.length) {
      out.push('', '| Prevalence | Judge | Corrected (Rogan-Gladen) | Human |', '| --- | --- | --- | --- |');
      for (const p of q.prevalence)
        out.push(
          `| ${md(p.label)} | ${md(figureLine(p.judge))} | ${md(figureLine(p.corrected))} | ${md(figureLine(p.human))} |`,
        );
    }
    if (q.trust) out.push('', ...trustMarkdown(q.trust));
    if (q.disagreements.length) {
      out.push('', 'Most confident mistakes:', '');
      for (const d of q.disagreements)
        out.push(
          `- row ${md(d.id)}: label ${md(valueText(d.label))}, judge ${md(valueText(d.predicted))} at ${f2(d.pPredicted)}`,
        );
    }
    out.push('');
  }
  out.push('## Conventions', '', ...s.conventions.map((c) => `- ${c}`), '');
  return out.join('\n');
}

const esc = (s: string): string =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** A reliability diagram as inline SVG: the diagonal, and observed against mean probability per bin. */
export function reliabilitySvg(
  bins: AlignmentSummary['questions'][number]['reliability'],
  size = 240,
): string {
  const pad = 28;
  const w = size - pad * 2;
  const x = (v: number): number => pad + v * w;
  const y = (v: number): number => size - pad - v * w;
  const pts = bins.filter((b) => b.count > 0).map((b) => [x(b.meanPredicted!), y(b.observed!)] as const);
  const line = pts.map(([a, b]) => `${a.toFixed(1)},${b.toFixed(1)}`).join(' ');
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" role="img" aria-label="Reliability diagram">`,
    `<rect x="${pad}" y="${pad}" width="${w}" height="${w}" fill="none" stroke="#d5dbe3"/>`,
    `<line x1="${x(0)}" y1="${y(0)}" x2="${x(1)}" y2="${y(1)}" stroke="#aab4c2" stroke-dasharray="4 4"/>`,
    pts.length > 1 ? `<polyline points="${line}" fill="none" stroke="#2357c6"/>` : '',
    ...pts.map(([a, b]) => `<circle cx="${a.toFixed(1)}" cy="${b.toFixed(1)}" r="3" fill="#2357c6"/>`),
    `<text x="${size / 2}" y="${size - 6}" font-size="11" text-anchor="middle">probability</text>`,
    `<text x="10" y="${size / 2}" font-size="11" transform="rotate(-90 10 ${size / 2})" text-anchor="middle">observed</text>`,
    '</svg>',
  ].join('');
}

/** The report as one self-contained HTML page. */
export function alignmentHtml(s: AlignmentSummary): string {
  const body: string[] = [
    `<h1>Alignment with human labels: ${esc(s.run.fileName)}</h1>`,
    `<p>Model <code>${esc(s.run.model)}</code> on target ${esc(s.run.targetId)}, ${s.run.rowCount} rows; computed ${esc(s.at)}.</p>`,
  ];
  for (const q of s.questions) {
    body.push(
      `<h2>${esc(q.name)} (${q.type})</h2>`,
      `<p>${q.n} rows with a label and an answer; ${q.labelled} labelled.</p>`,
    );
    body.push('<table><tr><th>Figure</th><th>Value</th></tr>');
    for (const [key, f] of Object.entries(q.figures))
      body.push(`<tr><td>${esc(key)}</td><td title="${esc(f.method)}">${esc(figureLine(f))}</td></tr>`);
    body.push('</table>', `<p>${esc(q.selective)}</p>`, reliabilitySvg(q.reliability));
    body.push(
      `<table><caption>Confusion (label down, judge across)</caption><tr><th></th>${q.classes.map((c) => `<th>${esc(c)}</th>`).join('')}</tr>`,
    );
    q.confusion.forEach((row, i) =>
      body.push(
        `<tr><th>${esc(q.classes[i] ?? String(i))}</th>${row.map((n) => `<td>${n}</td>`).join('')}</tr>`,
      ),
    );
    body.push('</table>');
    if (q.trust) body.push(trustHtml(q.trust));
    if (q.disagreements.length)
      body.push(
        '<h3>Most confident mistakes</h3><ul>',
        ...q.disagreements.map(
          (d) =>
            `<li>row ${esc(d.id)}: label ${esc(valueText(d.label))}, judge ${esc(valueText(d.predicted))} at ${f2(d.pPredicted)}</li>`,
        ),
        '</ul>',
      );
  }
  body.push('<h2>Conventions</h2><ul>', ...s.conventions.map((c) => `<li>${esc(c)}</li>`), '</ul>');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${esc(`Alignment: ${s.run.fileName}`)}</title><style>body{font:14px system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem}table{border-collapse:collapse;margin:.5rem 0}td,th{border:1px solid #d5dbe3;padding:.2rem .5rem;text-align:left}</style></head><body>${body.join('\n')}</body></html>`;
}
