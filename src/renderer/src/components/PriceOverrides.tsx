// The Settings' price overrides (docs/usage.md#prices): the JSON of `<state>/prices.json`, model
// name to its four prices per million tokens, merged over Claude's own defaults. Saved on its own
// button: the host checks it and answers in words.
import { useEffect, useState } from 'react';
import type { ModelPrice } from '../../../shared/usage-types';
import { useActions } from '../state/context';

const EXAMPLE = '{"claude-opus-4-5": {"inputPerMTok": 5, "outputPerMTok": 25, "cacheWritePerMTok": 6.25, "cacheReadPerMTok": 0.5}}';

export function PriceOverrides() {
  const actions = useActions();
  const [text, setText] = useState<string>();
  const [note, setNote] = useState<{ ok: boolean; text: string }>();
  useEffect(() => {
    void actions.loadPrices().then((r) => {
      if (typeof r === 'string') setNote({ ok: false, text: r });
      else {
        setText(Object.keys(r.overrides).length ? JSON.stringify(r.overrides, null, 2) : '');
        if (r.problem) setNote({ ok: false, text: r.problem });
      }
    });
  }, [actions]);
  const save = async () => {
    let table: Record<string, ModelPrice>;
    try {
      table = (text ?? '').trim() ? (JSON.parse(text!) as Record<string, ModelPrice>) : {};
    } catch (e) {
      setNote({ ok: false, text: `not JSON: ${(e as Error).message}` });
      return;
    }
    const err = await actions.savePrices(table);
    setNote(err ? { ok: false, text: err } : { ok: true, text: 'Saved: costs are counted at these prices now.' });
  };
  return (
    <details className="mt-4 text-sm text-zinc-800 dark:text-zinc-200" data-testid="settings-prices">
      <summary className="cursor-pointer font-medium">Prices per million tokens</summary>
      <p className="mt-1 text-xs text-zinc-500 dark:text-zinc-400">Over Claude Code’s own table; a model with no price shows its tokens and no cost. For example: <span className="font-mono">{EXAMPLE}</span></p>
      <textarea
        aria-label="Price overrides (JSON)"
        value={text ?? ''}
        disabled={text === undefined}
        onChange={(e) => setText(e.target.value)}
        rows={5}
        spellCheck={false}
        className="input mt-1 font-mono text-xs"
      />
      <div className="mt-1 flex items-center gap-2">
        <button type="button" className="btn-secondary px-2 py-0.5 text-xs" onClick={() => void save()}>Save prices</button>
        {note && <span role={note.ok ? 'status' : 'alert'} className={`text-xs ${note.ok ? 'text-emerald-700 dark:text-emerald-400' : 'text-red-700 dark:text-red-400'}`}>{note.text}</span>}
      </div>
    </details>
  );
}
