// Message text as sanitized markdown. Raw HTML is shown as the text it is, links open in the
// system browser only on click, images are never loaded. No dangerouslySetInnerHTML anywhere.
import { memo, type MouseEvent, type ReactNode } from 'react';
import ReactMarkdown, { type Components } from 'react-markdown';
import rehypeSanitize from 'rehype-sanitize';

interface HastNode {
  type: string;
  value?: string;
  children?: HastNode[];
}

/**
 * remark-rehype keeps inline HTML as `raw` nodes; a sanitizer would silently drop them, hiding what a
 * teammate actually wrote. Turn them into text first so `<img onerror=…>` is displayed, not removed.
 */
export function rehypeRawAsText() {
  const walk = (node: HastNode) => {
    if (!node.children) return;
    node.children = node.children.map((c) => (c.type === 'raw' ? { type: 'text', value: c.value ?? '' } : c));
    node.children.forEach(walk);
  };
  return (tree: HastNode) => walk(tree);
}

interface MdastNode {
  type: string;
  value?: string;
  children?: MdastNode[];
}

/**
 * A line break typed in a message (Shift+Enter) is a line break, as in any chat and as export and
 * `teamdeck thread` show it; markdown alone would join the lines into one paragraph. Code keeps
 * its own newlines (it is not a `text` node).
 */
export function remarkLineBreaks() {
  const walk = (node: MdastNode) => {
    if (!node.children) return;
    node.children = node.children.flatMap((c): MdastNode[] => {
      if (c.type !== 'text' || !c.value?.includes('\n')) return [c];
      return c.value.split(/\r?\n/).flatMap((part, i) => (i === 0 ? [{ type: 'text', value: part }] : [{ type: 'break' }, { type: 'text', value: part }]));
    });
    node.children.forEach(walk);
  };
  return (tree: MdastNode) => walk(tree);
}

export function isExternalUrl(href: string | undefined): href is string {
  return !!href && /^https?:\/\//i.test(href);
}

export interface MarkdownProps {
  text: string;
  onOpenLink: (url: string) => void;
}

function makeComponents(onOpenLink: (url: string) => void): Components {
  return {
    a({ href, children }) {
      if (!isExternalUrl(href)) return <span className="md-link-inert">{children}</span>;
      const open = (e: MouseEvent) => {
        e.preventDefault();
        onOpenLink(href);
      };
      return (
        <a
          href={href}
          title={`${href} (opens in your browser)`}
          rel="noreferrer noopener"
          onClick={open}
          onAuxClick={(e) => e.preventDefault()}
          className="md-link"
        >
          {children}
        </a>
      );
    },
    img({ src, alt }) {
      // Never fetch images from message text; offer the link instead.
      const label: ReactNode = `image: ${alt || (typeof src === 'string' ? src : '')}`;
      return isExternalUrl(typeof src === 'string' ? src : undefined) ? (
        <a href={src as string} className="md-link" onClick={(e) => (e.preventDefault(), onOpenLink(src as string))}>
          [{label}]
        </a>
      ) : (
        <span>[{label}]</span>
      );
    },
  };
}

const componentCache = new WeakMap<(url: string) => void, Components>();

/** Text that renders the same as markdown and as plain text: one line, no markup characters. */
export function isPlainText(text: string): boolean {
  return !/[\n\\`*_[\]<>#|~&]|https?:|^\s*([-+]|\d+[.)])\s|^\s*>/.test(text);
}

// Virtualized lists mount and unmount rows constantly while scrolling; the rendered element tree
// of a message never changes, so keep recent ones instead of re-parsing markdown on every mount.
const RENDERED_MAX = 600;
const rendered = new Map<string, ReactNode>();

function renderMarkdown(text: string, components: Components): ReactNode {
  const hit = rendered.get(text);
  if (hit !== undefined) {
    rendered.delete(text);
    rendered.set(text, hit);
    return hit;
  }
  const out = isPlainText(text) ? (
    <p>{text}</p>
  ) : (
    // The synchronous Markdown is a plain function of its props (no hooks), so its output can be cached.
    ReactMarkdown({ children: text, remarkPlugins: [remarkLineBreaks], rehypePlugins: [rehypeRawAsText, rehypeSanitize], components })
  );
  rendered.set(text, out);
  if (rendered.size > RENDERED_MAX) rendered.delete(rendered.keys().next().value as string);
  return out;
}

export const Markdown = memo(function Markdown({ text, onOpenLink }: MarkdownProps) {
  let components = componentCache.get(onOpenLink);
  if (!components) {
    componentCache.set(onOpenLink, (components = makeComponents(onOpenLink)));
    rendered.clear();
  }
  return <div className="md">{renderMarkdown(text, components)}</div>;
});
