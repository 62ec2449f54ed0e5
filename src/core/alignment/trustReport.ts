// "Can the judge replace a person?" in the Markdown and HTML reports: the figures' own sentences first, then the
// alt-test per annotator and the conventions they were computed under.
import type { TrustFigures } from '../trust';

const TITLE = 'Can the judge replace a person?';
const two = (x: number | null): string => (x === null ? '—' : x.toFixed(2));
const pValue = (p: number | null): string => (p === null ? '—' : p < 0.001 ? '< 0.001' : p.toFixed(3));

/** Every sentence of the section, in reading order. */
export function trustSentences(t: TrustFigures): string[] {
  return [
    t.sentences.ceiling,
    t.sentences.altTest,
    t.sentences.threshold,
    ...(t.sentences.cascade ? [t.sentences.cascade] : []),
    ...t.sentences.estimates,
  ];
}

/** One line per annotator of the alt-test: rows, alignments, p and whether the judge won. */
function altRows(t: TrustFigures): string[][] {
  return t.altTest.annotators.map((a) => [
    a.name,
    String(a.n),
    two(a.judgeAlignment),
    two(a.annotatorAlignment),
    pValue(a.p),
    a.leftOut ?? (a.won ? 'judge won' : 'annotator kept'),
  ]);
}
const ALT_HEAD = ['Annotator', 'Rows', 'Judge vs others', 'Annotator vs others', 'p', 'Result'];

const md = (s: string): string => s.replace(/([|\\`*_[\]])/g, '\\$1');
const esc = (s: string): string =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

export function trustMarkdown(t: TrustFigures): string[] {
  const out = [`### ${TITLE}`, '', ...trustSentences(t).flatMap((s) => [md(s), ''])];
  if (t.altTest.annotators.length > 0) {
    out.push(`| ${ALT_HEAD.join(' | ')} |`, `|${' --- |'.repeat(ALT_HEAD.length)}`);
    for (const row of altRows(t)) out.push(`| ${row.map(md).join(' | ')} |`);
    out.push('');
  }
  out.push('Conventions:', '', ...t.conventions.map((c) => `- ${md(c)}`), '');
  return out;
}

export function trustHtml(t: TrustFigures): string {
  const parts = [`<h3>${TITLE}</h3>`, ...trustSentences(t).map((s) => `<p>${esc(s)}</p>`)];
  if (t.altTest.annotators.length > 0)
    parts.push(
      `<table><caption>Alt-test, one annotator left out at a time</caption><tr>${ALT_HEAD.map((h) => `<th>${h}</th>`).join('')}</tr>`,
      ...altRows(t).map((row) => `<tr>${row.map((c) => `<td>${esc(c)}</td>`).join('')}</tr>`),
      '</table>',
    );
  parts.push('<ul>', ...t.conventions.map((c) => `<li>${esc(c)}</li>`), '</ul>');
  return parts.join('\n');
}
