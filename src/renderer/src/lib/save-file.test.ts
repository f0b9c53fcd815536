import { describe, expect, it, vi } from 'vitest';
import { localTimeZone, saveFile, type SaveTarget } from './save-file';

function target() {
  const blobs: Blob[] = [];
  const anchors: Record<string, unknown>[] = [];
  const later: (() => void)[] = [];
  const revoked: string[] = [];
  const t: SaveTarget = {
    createObjectURL: (b) => (blobs.push(b), `blob:file:///${blobs.length}`),
    revokeObjectURL: (u) => void revoked.push(u),
    setTimeout: (f) => void later.push(f),
    document: {
      createElement: (() => {
        const a: Record<string, unknown> = { style: {}, click: vi.fn(), remove: vi.fn() };
        anchors.push(a);
        return a;
      }) as unknown as Document['createElement'],
      body: { appendChild: vi.fn() } as unknown as HTMLElement,
    },
  };
  return { t, blobs, anchors, later, revoked };
}

describe('saveFile', () => {
  it('downloads the text under its file name and type, then lets the blob go', async () => {
    const { t, blobs, anchors, later, revoked } = target();
    saveFile({ filename: 'teamdeck-alpha-researcher-20260209-130211.md', mime: 'text/markdown; charset=utf-8', text: '# Thread with researcher\n' }, t);
    expect(anchors).toHaveLength(1);
    const a = anchors[0]!;
    expect(a).toMatchObject({ href: 'blob:file:///1', download: 'teamdeck-alpha-researcher-20260209-130211.md', rel: 'noopener' });
    expect(a.click).toHaveBeenCalledOnce();
    expect(a.remove).toHaveBeenCalledOnce();
    expect(blobs[0]!.type).toBe('text/markdown; charset=utf-8');
    expect(await blobs[0]!.text()).toBe('# Thread with researcher\n');
    expect(revoked).toEqual([]);
    later.forEach((f) => f());
    expect(revoked).toEqual(['blob:file:///1']);
  });
});

describe('localTimeZone', () => {
  it('names this runtime\'s zone when the host could take it', () => {
    const z = localTimeZone();
    expect(z === undefined || /^[A-Za-z0-9_+\-/]{1,64}$/.test(z)).toBe(true);
  });
});
