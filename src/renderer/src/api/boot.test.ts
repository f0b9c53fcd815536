import { describe, expect, it } from 'vitest';
import { scriptSafeJson } from '../../../shared/host-boot';
import { takeBoot } from './index';

/** Just enough of a document: one element by id, which can be removed. */
function doc(el: { tagName: string; type: string; text: string } | undefined) {
  let present = el !== undefined;
  const node = el && {
    tagName: el.tagName,
    textContent: el.text,
    getAttribute: (n: string) => (n === 'type' ? el.type : null),
    remove: () => (present = false),
  };
  return { d: { getElementById: (id: string) => (id === 'teamdeck-boot' && present ? node : null) } as unknown as Document, present: () => present };
}

describe('takeBoot', () => {
  const boot = { id: 'b1', snapshot: { teams: [{ id: 'alpha' }], now: 1 }, roster: { team: 'alpha', entries: [{ name: '</script><b>x</b>' }] } };

  it('reads the JSON element once, as data, and takes it out of the page', () => {
    const { d, present } = doc({ tagName: 'SCRIPT', type: 'application/json', text: scriptSafeJson(boot) });
    const got = takeBoot(d);
    expect(got).toMatchObject(boot);
    expect(typeof got!.receivedAt).toBe('number');
    expect(present()).toBe(false);
    expect(takeBoot(d)).toBeUndefined();
  });

  it('ignores an element of another kind, broken JSON and data of the wrong shape', () => {
    expect(takeBoot(doc({ tagName: 'SCRIPT', type: 'module', text: scriptSafeJson(boot) }).d)).toBeUndefined();
    expect(takeBoot(doc({ tagName: 'DIV', type: 'application/json', text: scriptSafeJson(boot) }).d)).toBeUndefined();
    expect(takeBoot(doc({ tagName: 'SCRIPT', type: 'application/json', text: '{"id":' }).d)).toBeUndefined();
    expect(takeBoot(doc({ tagName: 'SCRIPT', type: 'application/json', text: '{"id":"b1"}' }).d)).toBeUndefined();
    expect(takeBoot(doc(undefined).d)).toBeUndefined();
  });
});
