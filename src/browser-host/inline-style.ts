// The page's own stylesheet, put into its head as a <style> element for the browser host: the
// first screen (index-page.ts) is painted once its style is there, and a stylesheet the page
// links is asked for only after the browser has committed the page and scanned its head, then
// goes through the network stack: on two cores, 0.15-0.2 s between the page's first byte and
// its style, and a layout of the unstyled screen meanwhile that was thrown away.
//
// The page's Content-Security-Policy (its header and its own <meta>) then allows that one text by
// its hash, and no other inline style: `style-src 'self' 'sha256-…'`.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

/** A link the build writes: `<link rel="stylesheet" crossorigin href="./assets/x.css">`. */
const STYLESHEET = /<link\b[^>]*\brel="stylesheet"[^>]*\bhref="\.?\/assets\/([\w.-]+\.css)"[^>]*>/g;
/** What the policy says of styles before (the meta's and the header's). */
const STYLE_SRC = "style-src 'self'";

export interface InlinedHead {
  head: string;
  /** The CSP source for the inlined text (`'sha256-…'`), or undefined when nothing was inlined. */
  styleHash?: string;
}

/** The CSP (or text holding one) with `hash` added to its style-src; as it is when it has no `style-src 'self'`. */
export function allowStyle(policy: string, hash: string | undefined): string {
  return hash === undefined ? policy : policy.replace(STYLE_SRC, `${STYLE_SRC} ${hash}`);
}

/**
 * `head` with its one stylesheet (from `assetsDir`) inlined, and that text's hash. The head goes
 * as it is, linking its style, when there is not exactly one, when it cannot be read, when its
 * text could end the element, or when the head's own policy does not say `style-src 'self'`.
 */
export async function inlineStylesheet(head: string, assetsDir: string, read = (file: string) => readFile(file, 'utf8')): Promise<InlinedHead> {
  const links = [...head.matchAll(STYLESHEET)];
  const link = links[0];
  // The head's own policy (its <meta>) comes before the link, as the build writes it.
  if (links.length !== 1 || !link || !head.slice(0, link.index).includes(STYLE_SRC)) return { head };
  let css: string;
  try {
    // The name matched [\w.-]+ with no slash: it stays in the assets folder.
    css = await read(join(assetsDir, link[1]!));
  } catch {
    return { head };
  }
  // The parser would end the element there, or turn CR LF into LF (and the hash would not match).
  if (/<\/style/i.test(css) || css.includes('\r')) return { head };
  const hash = `'sha256-${createHash('sha256').update(css, 'utf8').digest('base64')}'`;
  const at = link.index;
  return { head: `${allowStyle(head.slice(0, at), hash)}<style>${css}</style>${head.slice(at + link[0].length)}`, styleHash: hash };
}
