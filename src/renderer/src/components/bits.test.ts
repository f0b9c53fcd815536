// Rendered to a string in Node: what a relative time puts in the DOM before anyone points at it.
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { DeckProvider } from '../state/context';
import { createDeckStore } from '../state/store';
import { scriptedApi } from '../testing/scripted-api';
import { RelTime } from './bits';

describe('RelTime', () => {
  it('renders the relative time and leaves the exact one (a date formatter) until it is pointed at', () => {
    const store = createDeckStore(scriptedApi(), { storage: null, tickMs: 1_000_000 });
    const t = store.getState().now - 5 * 60_000;
    const out = renderToStaticMarkup(createElement(DeckProvider, { store, children: createElement(RelTime, { t }) }));
    expect(out).toBe(`<time dateTime="${new Date(t).toISOString()}">5 min ago</time>`);
  });
});
