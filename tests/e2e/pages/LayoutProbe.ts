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

  /** Visible lines of an editor (Monaco's line is 20 px, with 8 px padding top and bottom). */
  editorLines(documentId: string): Promise<number> {
    return this.page.evaluate((id) => {
      const box = document.querySelector(`[data-testid="editor.${id}"]`)?.getBoundingClientRect();
      return box ? Math.floor((box.height - 16) / 20) : 0;
    }, documentId);
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
