// Rendered to a string in Node, before the markdown chunk has loaded: the fallback a message
// shows meanwhile.
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { Markdown, PlainMessage } from './LazyMarkdown';

describe('LazyMarkdown', () => {
  it('shows a message as its plain text while the markdown code loads, markup as text', () => {
    const out = renderToStaticMarkup(createElement(Markdown, { text: '**bold** <img src=x onerror=alert(1)>\nnext', onOpenLink: () => {} }));
    expect(out).toBe('<div class="md"><p class="whitespace-pre-wrap">**bold** &lt;img src=x onerror=alert(1)&gt;\nnext</p></div>');
    expect(renderToStaticMarkup(createElement(PlainMessage, { text: '<script>x</script>' }))).not.toContain('<script>');
  });
});
