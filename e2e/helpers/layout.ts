// Layout checks by geometry, not by eye: every control of a view can be brought on screen (by
// scrolling the container it is in, if need be) and is then the element found at its own centre
// (nothing covers it), and no two controls that show at once overlap.
import type { Page } from '@playwright/test';

export interface LayoutProblem {
  control: string;
  problem: string;
}

/** Checks the controls under `scope` (a CSS selector; the whole page by default). */
export async function layoutProblems(page: Page, scope = 'body'): Promise<LayoutProblem[]> {
  return page.evaluate((scopeSelector) => {
    const CONTROLS = 'button, input:not([type="hidden"]), select, textarea, a[href], [role="tab"], [role="option"], summary';
    const root = document.querySelector(scopeSelector);
    if (!root) return [{ control: scopeSelector, problem: 'not on the page' }];
    const name = (el: Element) => {
      const h = el as HTMLElement;
      const id = h.dataset.testid ? `[data-testid=${h.dataset.testid}]` : '';
      const label = (h.getAttribute('aria-label') ?? h.textContent ?? (h as HTMLInputElement).placeholder ?? '').trim().replace(/\s+/g, ' ').slice(0, 40);
      return `${el.tagName.toLowerCase()}${id} "${label}"`;
    };
    const shown = (el: Element) => {
      if (el.closest('[inert], [aria-hidden="true"]')) return false;
      // Inside a closed <details> only its summary shows (Chromium still gives the rest a box).
      const closed = el.closest('details:not([open])');
      if (closed && !(el.tagName === 'SUMMARY' && el.parentElement === closed)) return false;
      const style = getComputedStyle(el);
      if (style.visibility === 'hidden' || style.display === 'none') return false;
      const r = el.getBoundingClientRect();
      // A visually hidden input (a radio behind its label) is checked through its label.
      return r.width > 1 && r.height > 1;
    };
    const controls = Array.from(root.querySelectorAll(CONTROLS)).filter(shown);
    const problems: { control: string; problem: string }[] = [];
    const vw = document.documentElement.clientWidth;
    const vh = document.documentElement.clientHeight;
    /** Containers a person cannot scroll (overflow hidden or clip, the page itself) that scrollIntoView moved anyway. */
    const forcedScroll = (el: Element): string | undefined => {
      const moved: string[] = [];
      for (let a: Element | null = el.parentElement; a; a = a.parentElement) {
        const style = getComputedStyle(a);
        const fixedX = style.overflowX === 'hidden' || style.overflowX === 'clip' || a === document.documentElement || a === document.body;
        const fixedY = style.overflowY === 'hidden' || style.overflowY === 'clip' || a === document.documentElement || a === document.body;
        if ((fixedX && a.scrollLeft !== 0) || (fixedY && a.scrollTop !== 0)) {
          moved.push(`${name(a)} (${a.scrollLeft},${a.scrollTop})`);
          a.scrollLeft = 0;
          a.scrollTop = 0;
        }
      }
      return moved.length ? moved.join(', ') : undefined;
    };
    for (const el of controls) {
      el.scrollIntoView({ block: 'nearest', inline: 'nearest' });
      const forced = forcedScroll(el);
      if (forced) {
        problems.push({ control: name(el), problem: `outside what can be scrolled: reached only by moving ${forced}` });
        continue;
      }
      const r = el.getBoundingClientRect();
      if (r.left < -0.5 || r.top < -0.5 || r.right > vw + 0.5 || r.bottom > vh + 0.5) {
        problems.push({ control: name(el), problem: `off screen even when scrolled to: ${Math.round(r.left)},${Math.round(r.top)} to ${Math.round(r.right)},${Math.round(r.bottom)} in ${vw}x${vh}` });
        continue;
      }
      const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
      if (!hit || !(el.contains(hit) || (hit.contains(el) && hit.tagName === 'LABEL'))) {
        problems.push({ control: name(el), problem: `covered by ${hit ? name(hit) : 'nothing'}` });
      }
    }
    // Back to the top, then pairwise overlaps among what shows at once.
    for (const el of controls) (el.closest('[data-scroll-top]') ?? el).scrollIntoView({ block: 'nearest' });
    /** The part of the element a person sees: its box cut by every scrolling or clipping container around it. */
    const visibleRect = (el: Element) => {
      const r = el.getBoundingClientRect();
      let [left, top, right, bottom] = [r.left, r.top, r.right, r.bottom];
      for (let a: Element | null = el.parentElement; a && a !== document.body; a = a.parentElement) {
        const style = getComputedStyle(a);
        if (style.overflowX === 'visible' && style.overflowY === 'visible') continue;
        const c = a.getBoundingClientRect();
        [left, top, right, bottom] = [Math.max(left, c.left), Math.max(top, c.top), Math.min(right, c.right), Math.min(bottom, c.bottom)];
      }
      return { left, top, right, bottom };
    };
    const rects = controls.map((el) => ({ el, r: visibleRect(el) })).filter(({ r }) => r.bottom > r.top && r.right > r.left && r.bottom > 0 && r.right > 0 && r.top < vh && r.left < vw);
    for (let i = 0; i < rects.length; i++) {
      for (let j = i + 1; j < rects.length; j++) {
        const a = rects[i]!;
        const b = rects[j]!;
        if (a.el.contains(b.el) || b.el.contains(a.el)) continue;
        const w = Math.min(a.r.right, b.r.right) - Math.max(a.r.left, b.r.left);
        const h = Math.min(a.r.bottom, b.r.bottom) - Math.max(a.r.top, b.r.top);
        if (w > 1 && h > 1) problems.push({ control: name(a.el), problem: `overlaps ${name(b.el)} by ${Math.round(w)}x${Math.round(h)}` });
      }
    }
    return problems;
  }, scope);
}

/** Names whose text is cut (an ellipsis, or text wider than its box) among `selector`. */
export async function cutText(page: Page, selector: string): Promise<string[]> {
  return page.evaluate((sel) => Array.from(document.querySelectorAll(sel)).filter((el) => el.scrollWidth > el.clientWidth + 1).map((el) => el.textContent ?? ''), selector);
}
