// xterm.js under Teamdeck's strict Content-Security-Policy (style-src 'self', no inline styles).
// Its DOM renderer writes CSS in two ways the policy refuses: `<style>` elements it fills with
// text (theme, cell size, scrollbar), and `setAttribute('style', …)` on the spans of cells with
// 24-bit colours. Both are redirected to the CSS Object Model, which the policy does not govern
// (it guards against injected markup; script can set styles through the CSSOM anyway):
// - while the terminal opens, the `<style>` elements it makes are inert placeholders whose text
//   goes into a constructed stylesheet adopted by the document (removed with the terminal);
// - a span's `setAttribute('style', v)` becomes `span.style.cssText = v` (the same result).
// The policy itself stays as strict as it was.

const SHEETS = new WeakMap<HTMLElement, CSSStyleSheet>();
let spansPatched = false;

function adopt(sheet: CSSStyleSheet): void {
  if (!document.adoptedStyleSheets.includes(sheet)) document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
}

function drop(sheet: CSSStyleSheet): void {
  document.adoptedStyleSheets = document.adoptedStyleSheets.filter((s) => s !== sheet);
}

/** A stand-in for a `<style>` element: hidden, never parsed as CSS; its text lives in a constructed sheet. */
function styleStandIn(doc: Document): HTMLElement {
  const el = doc.createElement('teamdeck-xterm-style');
  el.hidden = true;
  const sheet = new CSSStyleSheet();
  SHEETS.set(el, sheet);
  let text = '';
  Object.defineProperty(el, 'textContent', {
    configurable: true,
    get: () => text,
    set: (v: string | null) => {
      text = v ?? '';
      sheet.replaceSync(text);
      adopt(sheet);
    },
  });
  const remove = el.remove.bind(el);
  el.remove = () => {
    drop(sheet);
    remove();
  };
  return el;
}

function patchSpans(): void {
  if (spansPatched || typeof HTMLSpanElement === 'undefined') return;
  spansPatched = true;
  const original = HTMLSpanElement.prototype.setAttribute;
  HTMLSpanElement.prototype.setAttribute = function setAttribute(this: HTMLSpanElement, name: string, value: string) {
    if (name.toLowerCase() === 'style') this.style.cssText = value;
    else original.call(this, name, value);
  };
}

/**
 * Runs `open` (xterm's `term.open(el)`) with `<style>` elements made as stand-ins, and makes
 * cell colours work for the rest of the page's life. Returns a cleanup that drops the sheets
 * of stand-ins the terminal left behind (call it after `term.dispose()`).
 */
export function openUnderStrictCsp(root: HTMLElement, open: () => void): () => void {
  patchSpans();
  const doc = root.ownerDocument;
  const made: HTMLElement[] = [];
  const createElement = doc.createElement;
  const hadOwn = Object.prototype.hasOwnProperty.call(doc, 'createElement');
  // Only for the duration of open(): the dev server's own style injection must stay untouched.
  doc.createElement = function (this: Document, tag: string, options?: ElementCreationOptions) {
    if (typeof tag === 'string' && tag.toLowerCase() === 'style') {
      const el = styleStandIn(doc);
      made.push(el);
      return el;
    }
    return createElement.call(this, tag, options);
  } as typeof doc.createElement;
  try {
    open();
  } finally {
    if (hadOwn) doc.createElement = createElement;
    // Without an own property before, the prototype's method shows through again.
    else delete (doc as { createElement?: unknown }).createElement;
  }
  return () => {
    for (const el of made) {
      const sheet = SHEETS.get(el);
      if (sheet) drop(sheet);
    }
  };
}
