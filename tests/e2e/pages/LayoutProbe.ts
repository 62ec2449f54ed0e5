// Page object for layout checks: what a person sees, as geometry read from the page (no screenshot diffs). Each
// method answers one question the layout must satisfy at any window size or zoom.
import type { Page } from 'playwright-core';

/** Where the main area ends against the window, and whether the page itself scrolls. */
export interface Fill {
  /** Window height minus the main area's bottom edge, in CSS px (0: it reaches the bottom). */
  gap: number;
  /** The page scrolls vertically (it may when the window is too short for the screens' minimum). */
  pageScrolls: boolean;
  mainHeight: number;
  sidebarHeight: number;
  sessionListHeight: number;
}

/** An element whose content is wider than it shows, or which sticks out of its clipping container. */
export interface Spill {
  what: string;
  by: number;
}

/** Scrollers that may scroll sideways by design: their content is wider than any window (tables, code). */
const DECLARED_SCROLLERS = '[data-scroller], .monaco-editor, .rows-table, .rows-preview';

export class LayoutProbe {
  constructor(readonly page: Page) {}

  async resize(width: number, height: number): Promise<void> {
    await this.page.setViewportSize({ width, height });
    // Two frames: resize observers (Monaco, charts) lay out again after the first.
    await this.page.evaluate(
      () => new Promise<void>((r) => requestAnimationFrame(() => requestAnimationFrame(() => r()))),
    );
  }

  fill(): Promise<Fill> {
    return this.page.evaluate(() => {
      const rect = (sel: string) => document.querySelector(sel)?.getBoundingClientRect();
      const main = rect('[data-testid="app.main"]');
      const scroller = document.scrollingElement!;
      return {
        gap: window.innerHeight - (main?.bottom ?? 0),
        pageScrolls: scroller.scrollHeight > window.innerHeight + 1,
        mainHeight: main?.height ?? 0,
        sidebarHeight: rect('[data-testid="sessions.sidebar"], .sessions-sidebar')?.height ?? 0,
        sessionListHeight: rect('[data-testid="sessions.list"]')?.height ?? 0,
      };
    });
  }

  /**
   * Elements wider than they show: the page itself scrolling sideways, a scroller scrolling sideways that is not
   * declared as one, or a box whose content spills past it (overflow visible). Monaco and charts' SVG internals are
   * their own business; text cut on purpose with an ellipsis is declared by its text-overflow.
   */
  spills(): Promise<Spill[]> {
    return this.page.evaluate((declared) => {
      const out: { what: string; by: number }[] = [];
      const name = (el: Element): string => {
        const id = el.getAttribute('data-testid');
        const cls = typeof el.className === 'string' ? el.className.split(' ')[0] : '';
        return `${el.tagName.toLowerCase()}${id ? `[${id}]` : ''}${cls ? `.${cls}` : ''}`;
      };
      const doc = document.scrollingElement!;
      if (doc.scrollWidth > window.innerWidth + 1)
        out.push({ what: 'the page', by: doc.scrollWidth - window.innerWidth });
      for (const el of document.querySelectorAll<HTMLElement>('body *')) {
        if (
          el.closest(declared) ||
          el.closest('svg') ||
          el.closest('[inert]') ||
          el.closest('.visually-hidden')
        )
          continue;
        if (el.getClientRects().length === 0) continue;
        const style = getComputedStyle(el);
        if (style.display === 'inline' || style.display === 'contents' || style.position === 'fixed')
          continue;
        if (style.textOverflow === 'ellipsis') continue;
        const by = el.scrollWidth - el.clientWidth;
        if (by > 1 && el.clientWidth > 0) out.push({ what: name(el), by });
      }
      return out;
    }, DECLARED_SCROLLERS);
  }

  /**
   * Lines of an editor a person sees: its box cut by the window and by every ancestor that clips it (a scrolled page,
   * a pane), less Monaco's 8 px padding above and below, over its line height. 0 when it is folded away (inert).
   */
  editorLines(documentId: string): Promise<number> {
    return this.page.evaluate((id) => {
      const editor = document.querySelector<HTMLElement>(`[data-testid="editor.${id}"]`);
      if (!editor || editor.closest('[inert]') || editor.getClientRects().length === 0) return 0;
      const box = editor.getBoundingClientRect();
      let top = Math.max(box.top, 0);
      let bottom = Math.min(box.bottom, window.innerHeight);
      for (let el = editor.parentElement; el && el !== document.body; el = el.parentElement) {
        if (getComputedStyle(el).overflowY === 'visible') continue;
        const clip = el.getBoundingClientRect();
        top = Math.max(top, clip.top + el.clientTop);
        bottom = Math.min(bottom, clip.top + el.clientTop + el.clientHeight);
      }
      const line = editor.querySelector<HTMLElement>('.view-line')?.offsetHeight || 20;
      return Math.max(0, Math.floor((bottom - top - 16) / line));
    }, documentId);
  }

  /** Scrolls the page (when it scrolls) so the two editors are on screen, as a person would before reading them. */
  async editorsIntoView(): Promise<void> {
    await this.page.evaluate(() =>
      document.querySelector('.workbench__editor-split')?.scrollIntoView({ block: 'nearest' }),
    );
  }

  /**
   * Answer cards (and compare cells) that do not follow their column: a card wider than its column's content box or
   * narrower than it (cards fill their column), content spilling out of a card, a chart not the width of its box, and
   * a box around the cards that scrolls sideways. Read as a person sees it: nothing inside a scroll region is skipped.
   */
  cardMisfits(): Promise<string[]> {
    return this.page.evaluate(() => {
      const out: string[] = [];
      const px = (n: number) => Math.round(n);
      const contentBox = (el: HTMLElement) => {
        const r = el.getBoundingClientRect();
        const s = getComputedStyle(el);
        const left = r.left + el.clientLeft + parseFloat(s.paddingLeft);
        return { left, right: r.left + el.clientLeft + el.clientWidth - parseFloat(s.paddingRight) };
      };
      const cards = document.querySelectorAll<HTMLElement>(
        '[data-testid="answers.card"], [data-testid="compare.cell"]',
      );
      const scrollers = new Set<HTMLElement>();
      for (const card of cards) {
        if (card.getClientRects().length === 0) continue;
        const name = `${card.dataset.testid} ${card.dataset.name ?? card.getAttribute('aria-label') ?? ''}`;
        const r = card.getBoundingClientRect();
        const column = contentBox(card.parentElement!);
        const width = column.right - column.left;
        if (r.left < column.left - 1 || r.right > column.right + 1)
          out.push(`${name} is ${px(r.width)} px in a ${px(width)} px column`);
        else if (card.dataset.testid === 'answers.card' && r.width < width - 1)
          out.push(`${name} is ${px(r.width)} px, narrower than its ${px(width)} px column`);
        if (card.scrollWidth > card.clientWidth + 1)
          out.push(`${name}: its content is ${card.scrollWidth} px in ${card.clientWidth} px`);
        for (const chart of card.querySelectorAll<HTMLElement>('[data-testid="answers.chart"]')) {
          const svg = chart.querySelector('svg');
          if (!svg) continue;
          const drawn = svg.getBoundingClientRect().width;
          if (Math.abs(drawn - chart.clientWidth) > 2)
            out.push(`${name}: its chart is ${px(drawn)} px in a ${chart.clientWidth} px box`);
        }
        for (let el = card.parentElement; el && el !== document.body; el = el.parentElement) {
          const overflow = getComputedStyle(el).overflowX;
          if (overflow === 'auto' || overflow === 'scroll' || overflow === 'hidden') scrollers.add(el);
        }
      }
      for (const el of scrollers) {
        if (el.scrollWidth > el.clientWidth + 1)
          out.push(
            `${el.className.split(' ')[0] || el.tagName} scrolls sideways by ${el.scrollWidth - el.clientWidth} px`,
          );
      }
      if (document.scrollingElement!.scrollWidth > window.innerWidth + 1)
        out.push('the page scrolls sideways');
      return out;
    });
  }

  /**
   * Elements matching `selector` that a person cannot see whole: cut by the window or by an ancestor that clips (a
   * sideways scroller counts as cutting what lies past its visible box), plus every such ancestor that scrolls
   * sideways at all.
   */
  notFullyInView(selector: string): Promise<string[]> {
    return this.page.evaluate((sel) => {
      const out: string[] = [];
      const scrolling = new Set<HTMLElement>();
      document.querySelectorAll<HTMLElement>(sel).forEach((el, i) => {
        const r = el.getBoundingClientRect();
        let left = 0;
        let right = window.innerWidth;
        let top = 0;
        let bottom = window.innerHeight;
        for (let a = el.parentElement; a && a !== document.body; a = a.parentElement) {
          const s = getComputedStyle(a);
          if (s.overflowX === 'visible' && s.overflowY === 'visible') continue;
          const c = a.getBoundingClientRect();
          left = Math.max(left, c.left + a.clientLeft);
          right = Math.min(right, c.left + a.clientLeft + a.clientWidth);
          if (s.overflowY !== 'visible') {
            top = Math.max(top, c.top + a.clientTop);
            bottom = Math.min(bottom, c.top + a.clientTop + a.clientHeight);
          }
          if (s.overflowX !== 'visible' && a.scrollWidth > a.clientWidth + 1) scrolling.add(a);
        }
        if (r.left < left - 1 || r.right > right + 1 || r.top < top - 1 || r.bottom > bottom + 1)
          out.push(
            `${sel} #${i + 1} (${Math.round(r.left)}..${Math.round(r.right)} x ${Math.round(r.top)}..${Math.round(r.bottom)}) ` +
              `is cut to ${Math.round(left)}..${Math.round(right)} x ${Math.round(top)}..${Math.round(bottom)}`,
          );
      });
      for (const a of scrolling)
        out.push(
          `${a.className.split(' ')[0] || a.tagName} scrolls sideways by ${a.scrollWidth - a.clientWidth} px`,
        );
      if (document.scrollingElement!.scrollWidth > window.innerWidth + 1)
        out.push('the page scrolls sideways');
      return out;
    }, selector);
  }

  /**
   * The top bar's lines as a person reads them: its visible items grouped by the row they sit on (an item joins a row
   * when its vertical middle lies within that row's box), with the items of every row after the first.
   */
  topBarRows(): Promise<{ rows: number; belowFirst: string[] }> {
    return this.page.evaluate(() => {
      const bar = document.querySelector('[data-testid="shell.topBar"]');
      const items = [...(bar?.children ?? [])]
        .filter((el) => el.getClientRects().length > 0)
        .map((el) => ({ el, r: el.getBoundingClientRect() }))
        .filter(({ r }) => r.width > 0 && r.height > 0)
        .sort((a, b) => a.r.top - b.r.top);
      const rows: { top: number; bottom: number; names: string[] }[] = [];
      for (const { el, r } of items) {
        const middle = (r.top + r.bottom) / 2;
        const name = el.getAttribute('data-testid') ?? (el.className || el.tagName.toLowerCase());
        const row = rows.find((x) => middle >= x.top && middle <= x.bottom);
        if (row) row.names.push(name);
        else rows.push({ top: r.top, bottom: r.bottom, names: [name] });
      }
      return { rows: rows.length, belowFirst: rows.slice(1).flatMap((x) => x.names) };
    });
  }

  /** The inner padding of the first element matching `selector`, side by side, in CSS px. */
  padding(selector: string): Promise<{ top: number; right: number; bottom: number; left: number }> {
    return this.page.evaluate((sel) => {
      const el = document.querySelector(sel);
      if (!el) throw new Error(`No element matches ${sel}.`);
      const s = getComputedStyle(el);
      const px = (v: string) => parseFloat(v) || 0;
      return {
        top: px(s.paddingTop),
        right: px(s.paddingRight),
        bottom: px(s.paddingBottom),
        left: px(s.paddingLeft),
      };
    }, selector);
  }

  /** How many CSS px of the two elements' boxes overlap, by area's sides (0 when they do not meet). */
  overlap(a: string, b: string): Promise<{ width: number; height: number }> {
    return this.page.evaluate(
      ([sa, sb]) => {
        const ra = document.querySelector(sa!)?.getBoundingClientRect();
        const rb = document.querySelector(sb!)?.getBoundingClientRect();
        if (!ra || !rb) throw new Error(`No element matches ${ra ? sb : sa}.`);
        const width = Math.min(ra.right, rb.right) - Math.max(ra.left, rb.left);
        const height = Math.min(ra.bottom, rb.bottom) - Math.max(ra.top, rb.top);
        return width > 0 && height > 0 ? { width, height } : { width: 0, height: 0 };
      },
      [a, b],
    );
  }

  /**
   * How a button reads, as a person judges whether it can be pressed: its opacity with its ancestors', its cursor, its
   * text's contrast against the background drawn under it (WCAG ratio), and that background as [r, g, b].
   */
  buttonLooks(
    selector: string,
  ): Promise<{ opacity: number; cursor: string; contrast: number; background: number[] }> {
    return this.page.evaluate((sel) => {
      const el = document.querySelector<HTMLElement>(sel);
      if (!el) throw new Error(`No element matches ${sel}.`);
      // Computed colours come as rgb()/rgba() or, from color-mix, as color(srgb r g b / a).
      const rgba = (css: string): number[] => {
        const srgb = /color\(srgb ([\d.e-]+) ([\d.e-]+) ([\d.e-]+)(?: \/ ([\d.]+))?\)/.exec(css);
        if (srgb) return [...srgb.slice(1, 4).map((v) => Number(v) * 255), Number(srgb[4] ?? 1)];
        const parts = css.match(/[\d.]+/g)?.map(Number) ?? [0, 0, 0, 0];
        return [parts[0]!, parts[1]!, parts[2]!, parts[3] ?? 1];
      };
      let opacity = 1;
      let background: number[] | null = null;
      for (let a: HTMLElement | null = el; a; a = a.parentElement) {
        const s = getComputedStyle(a);
        opacity *= Number(s.opacity);
        const bg = rgba(s.backgroundColor);
        if (!background && bg[3]! > 0.5) background = bg.slice(0, 3);
      }
      const bg = background ?? [255, 255, 255];
      const fg = rgba(getComputedStyle(el).color).slice(0, 3);
      const lum = (c: number[]) => {
        const [r, g, b] = c.map((v) => {
          const x = v / 255;
          return x <= 0.04045 ? x / 12.92 : ((x + 0.055) / 1.055) ** 2.4;
        });
        return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
      };
      const [hi, lo] = [lum(fg), lum(bg)].sort((x, y) => y - x);
      return {
        opacity,
        cursor: getComputedStyle(el).cursor,
        contrast: (hi! + 0.05) / (lo! + 0.05),
        background: bg.map(Math.round),
      };
    }, selector);
  }

  /** What the compare toolbar's editors button says, and what is true of the editors. */
  editorsFold(): Promise<{ label: string; pressed: string | null; width: number; inert: boolean }> {
    return this.page.evaluate(() => {
      const button = document.querySelector('[data-testid="workbench.toggleEditors"]');
      const editors = document.querySelector<HTMLElement>('.workbench__editors');
      return {
        label: button?.firstChild?.textContent?.trim() ?? '',
        pressed: button?.getAttribute('aria-pressed') ?? null,
        width: Math.round(editors?.getBoundingClientRect().width ?? 0),
        inert: !!editors?.querySelector('[inert]'),
      };
    });
  }

  /**
   * Header strips and chart texts that are cut: a header whose content is taller or wider than the strip, a chart
   * text outside its SVG or under a clip path.
   */
  clippedText(): Promise<string[]> {
    return this.page.evaluate(() => {
      const out: string[] = [];
      const headers = document.querySelectorAll<HTMLElement>(
        '.pane__header, .top-bar, .cmp-column-title, .cmp-question-header, .cmp-sticky, .workbench-toolbar',
      );
      for (const h of headers) {
        if (h.getClientRects().length === 0 || h.closest('[inert]')) continue;
        if (h.scrollHeight > h.clientHeight + 1 || h.scrollWidth > h.clientWidth + 1)
          out.push(`header ${h.className}: ${h.textContent?.slice(0, 60)}`);
      }
      for (const t of document.querySelectorAll<SVGTextElement>('svg text')) {
        const svg = t.ownerSVGElement;
        if (!svg || t.getClientRects().length === 0 || !t.textContent) continue;
        const r = t.getBoundingClientRect();
        const s = svg.getBoundingClientRect();
        const clip = t.closest('[clip-path]');
        if (r.left < s.left - 1 || r.right > s.right + 1 || r.top < s.top - 1 || r.bottom > s.bottom + 1)
          out.push(`chart text "${t.textContent}" outside its chart`);
        else if (clip) out.push(`chart text "${t.textContent}" under a clip path`);
      }
      return out;
    });
  }

  /**
   * Presses Tab from the top of the page until focus comes back around, and returns the controls it never reached:
   * every visible, enabled button, field, link and tab stop. An editor is left the way its hint says (Ctrl+M).
   */
  async unreachableByTab(maxPresses = 250): Promise<string[]> {
    const page = this.page;
    await page.evaluate(() => {
      (document.activeElement as HTMLElement | null)?.blur();
      document.querySelectorAll('[data-tab-seen]').forEach((el) => el.removeAttribute('data-tab-seen'));
    });
    let first: string | null = null;
    let escapedEditor = false;
    for (let i = 0; i < maxPresses; i++) {
      await page.keyboard.press('Tab');
      const where = await page.evaluate(() => {
        const el = document.activeElement as HTMLElement | null;
        if (!el || el === document.body) return { key: 'body', inEditor: false, json: false };
        el.setAttribute('data-tab-seen', '');
        const editor = el.closest('.code-editor');
        const hint = editor?.querySelector('.code-editor__hint')?.textContent ?? '';
        return {
          key: `${el.tagName}:${el.id || el.getAttribute('data-testid') || el.getAttribute('aria-label') || el.textContent?.slice(0, 30)}`,
          inEditor: !!editor,
          json: hint.startsWith('Tab indents'),
        };
      });
      if (where.inEditor && where.json && !escapedEditor) {
        // The hint's way out: Monaco's tab focus mode (global, so once is enough).
        await page.keyboard.press('Control+M');
        escapedEditor = true;
      }
      if (first === null) first = where.key;
      else if (where.key === first) break;
    }
    return page.evaluate(() => {
      const controls = document.querySelectorAll<HTMLElement>(
        'button, input, select, textarea, a[href], summary, [tabindex]:not([tabindex="-1"])',
      );
      const missed: string[] = [];
      for (const el of controls) {
        if (el.closest('[inert], [aria-hidden="true"]')) continue;
        // Inside a closed disclosure: reached by opening it (its summary is the stop).
        if (el.tagName !== 'SUMMARY' && el.closest('details:not([open])')) continue;
        if ((el as HTMLButtonElement).disabled || el.tabIndex < 0) continue;
        if (el.getClientRects().length === 0 || getComputedStyle(el).visibility === 'hidden') continue;
        // Monaco's own widgets: the editor is one stop, its textarea.
        if (el.closest('.monaco-editor') && el.tagName !== 'TEXTAREA') continue;
        // A radio group is one stop: the checked radio (arrow keys move within it).
        if (el instanceof HTMLInputElement && el.type === 'radio' && !el.checked) continue;
        if (!el.hasAttribute('data-tab-seen'))
          missed.push(
            `${el.tagName.toLowerCase()} ${el.getAttribute('data-testid') ?? el.getAttribute('aria-label') ?? el.textContent?.trim().slice(0, 40) ?? ''}`,
          );
      }
      return missed;
    });
  }

  /** Opens a dialog from `opener` with the keyboard, closes it with Escape, and says whether focus came back. */
  async dialogReturnsFocus(openerTestId: string, open: () => Promise<void>): Promise<boolean> {
    await open();
    await this.page.getByRole('dialog').first().waitFor();
    await this.page.keyboard.press('Escape');
    await this.page.getByRole('dialog').first().waitFor({ state: 'detached' });
    return this.page.evaluate(
      (id) => document.activeElement?.getAttribute('data-testid') === id,
      openerTestId,
    );
  }
}
