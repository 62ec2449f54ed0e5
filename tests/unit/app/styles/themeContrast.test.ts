// Both themes' text colours against the surfaces they are drawn on meet WCAG AA (4.5:1 for body text), read from the
// stylesheet's tokens themselves.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const css = readFileSync(new URL('../../../../src/app/styles/base.css', import.meta.url), 'utf8');

/** The custom properties declared in the first block that `selector` opens. */
function tokens(selector: string): Record<string, string> {
  const start = css.indexOf(`${selector} {`);
  const block = css.slice(start, css.indexOf('\n}', start));
  return Object.fromEntries([...block.matchAll(/(--[\w-]+):\s*(#[0-9a-f]{6});/gi)].map((m) => [m[1], m[2]]));
}

const luminance = (hex: string): number => {
  const [r, g, b] = [1, 3, 5].map((i) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
};
const contrast = (a: string, b: string): number => {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi! + 0.05) / (lo! + 0.05);
};

/** Text token on background token, as the stylesheets pair them. */
const PAIRS = [
  ['--color-text', '--color-bg'],
  ['--color-text', '--color-surface'],
  ['--color-text', '--color-surface-sunken'],
  ['--color-muted', '--color-surface'],
  ['--color-muted', '--color-bg'],
  ['--color-muted', '--color-surface-sunken'],
  ['--color-muted', '--color-surface-header'],
  ['--color-accent', '--color-surface'],
  ['--color-accent-hover', '--color-accent-soft'],
  ['--color-on-strong', '--color-accent'],
  ['--color-on-strong', '--color-danger'],
  ['--color-on-strong', '--color-text'],
  ['--color-danger', '--color-danger-soft'],
  ['--color-danger', '--color-surface'],
  ['--color-warning', '--color-warning-soft'],
  ['--color-success', '--color-success-soft'],
  ['--color-success', '--color-surface'],
  ['--color-local', '--color-local-soft'],
] as const;

describe.each([
  ['light', ':root'],
  ['dark', ":root[data-theme='dark']"],
])('the %s theme', (_name, selector) => {
  const light = tokens(':root');
  const theme = { ...light, ...tokens(selector) };
  it.each(PAIRS)('%s on %s is at least 4.5:1', (fg, bg) => {
    expect(theme[fg], fg).toMatch(/^#/);
    expect(theme[bg], bg).toMatch(/^#/);
    expect(contrast(theme[fg]!, theme[bg]!)).toBeGreaterThanOrEqual(4.5);
  });
});
