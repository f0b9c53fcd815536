// Rendered to a string in Node: checks what reaches the DOM without needing one.
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { Markdown, isPlainText } from './Markdown';

const html = (text: string) => renderToStaticMarkup(createElement(Markdown, { text, onOpenLink: () => {} }));

describe('Markdown', () => {
  it('shows raw HTML as literal text instead of elements', () => {
    const out = html('look <img src=x onerror=alert(1)> here');
    expect(out).not.toContain('<img');
    expect(out).toContain('&lt;img src=x onerror=alert(1)&gt;');
  });

  it('renders code blocks and lists', () => {
    const out = html('- one\n- two\n\n```ts\nconst a = 1;\n```');
    expect(out).toContain('<li>one</li>');
    expect(out).toMatch(/<pre><code class="language-ts">const a = 1;\n<\/code><\/pre>/);
  });

  it('keeps http links clickable and makes other schemes inert', () => {
    expect(html('[ok](https://example.com)')).toContain('href="https://example.com"');
    const js = html('[bad](javascript:alert(1))');
    expect(js).not.toContain('javascript:');
    expect(js).not.toContain('<a');
  });

  it('keeps a line break typed with Shift+Enter, in text, lists and quotes; code keeps its newlines (issue 28, item 4)', () => {
    expect(html('please check\ntwo lines')).toBe('<div class="md"><p>please check<br/>\ntwo lines</p></div>');
    expect(html('- a\n  b')).toContain('a<br/>');
    expect(html('**first**\nsecond')).toContain('</strong><br/>');
    expect(html('```\nx\ny\n```')).toContain('<code>x\ny\n</code>');
  });

  it('never loads images', () => {
    const out = html('![chart](https://example.com/c.png)');
    expect(out).not.toContain('<img');
    expect(out).toContain('[image: chart]');
  });
});

describe('isPlainText', () => {
  it('takes the fast path only when markdown would render the same', () => {
    expect(isPlainText('Yes, on it.')).toBe(true);
    expect(isPlainText('Answer 12: looks fine.')).toBe(true);
    for (const t of ['a\nb', '`x`', '**b**', '- item', '1. item', '> quote', 'see https://x.y', '<b>', 'a & b', '# h', 'snake_case']) {
      expect(isPlainText(t)).toBe(false);
    }
  });

  it('renders plain text the same either way', () => {
    expect(html('Yes, on it.')).toBe('<div class="md"><p>Yes, on it.</p></div>');
  });
});
