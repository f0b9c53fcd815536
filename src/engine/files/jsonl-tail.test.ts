// The JSON-lines tail behind the transcript watcher: appended rows only, a torn line held, a
// rewritten file read again, never a link.
import { appendFile, mkdir, symlink, truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTempDirs } from '../../../test/helpers/tmp.js';
import { JsonlTail } from './jsonl-tail.js';

const tempDir = useTempDirs();

describe('JsonlTail', () => {
  it('reads appended rows only, holds a torn last line until its newline, and rereads a truncated file', async () => {
    const path = join(await tempDir(), 't.jsonl');
    await writeFile(path, '{"a":1}\n{"a":2}\n');
    const tail = new JsonlTail(path);
    expect(await tail.read()).toEqual([{ a: 1 }, { a: 2 }]);
    await appendFile(path, '{"a":3}\n{"a":');
    expect(await tail.read()).toEqual([{ a: 3 }]);
    await appendFile(path, '4}\nnot json\n[1]\n');
    expect(await tail.read()).toEqual([{ a: 4 }]);
    expect(await tail.read()).toEqual([]);
    // Rewritten shorter: read once more from the start.
    await truncate(path, 0);
    await writeFile(path, '{"b":1}\n');
    expect(await tail.read()).toEqual([{ b: 1 }]);
  });

  it('reads rows with multi-byte characters whole, a character torn between two reads too, and passes blank lines', async () => {
    const path = join(await tempDir(), 'u.jsonl');
    const row = Buffer.from('{"t":"héllo ✓ 😀"}\n', 'utf8');
    // Torn inside the emoji's four bytes.
    const cut = row.indexOf(Buffer.from('😀')) + 2;
    await writeFile(path, Buffer.concat([Buffer.from('\n{"t":"ü"}\n\n'), row.subarray(0, cut)]));
    const tail = new JsonlTail(path);
    expect(await tail.read()).toEqual([{ t: 'ü' }]);
    await appendFile(path, Buffer.concat([row.subarray(cut), Buffer.from('{"t":"∑"}\n')]));
    expect(await tail.read()).toEqual([{ t: 'héllo ✓ 😀' }, { t: '∑' }]);
    expect(tail.position().offset).toBe(Buffer.from('\n{"t":"ü"}\n\n').length + row.length + Buffer.from('{"t":"∑"}\n').length);
  });

  it('never follows a symbolic link (a transcript could point anywhere)', async () => {
    const dir = await tempDir();
    await mkdir(join(dir, 'outside'));
    await writeFile(join(dir, 'outside', 'secret.jsonl'), '{"type":"user","message":{"content":"secret"}}\n');
    await symlink(join(dir, 'outside', 'secret.jsonl'), join(dir, 'link.jsonl'));
    expect(await new JsonlTail(join(dir, 'link.jsonl')).read()).toEqual([]);
  });
});
