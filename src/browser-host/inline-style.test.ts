import { describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { useTempDirs } from '../../test/helpers/tmp.js';
import { allowStyle, inlineStylesheet } from './inline-style.js';
import { hostContentSecurityPolicy } from './server.js';

const tempDir = useTempDirs();
const META = `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'self'; style-src 'self'; object-src 'none'" />`;
const LINK = '<link rel="stylesheet" crossorigin href="./assets/index-abc.css">';
const head = (links = LINK) => `<!doctype html><html><head>${META}<script async type="module" crossorigin src="./assets/index.js"></script>${links}</head><body>`;
const hashOf = (css: string) => `'sha256-${createHash('sha256').update(css, 'utf8').digest('base64')}'`;

async function assets(files: Record<string, string>): Promise<string> {
  const dir = join(await tempDir(), 'assets');
  await mkdir(dir, { recursive: true });
  for (const [name, text] of Object.entries(files)) await writeFile(join(dir, name), text);
  return dir;
}

describe("the browser host's inlined stylesheet", () => {
  it("puts the page's one stylesheet in its head and allows exactly that text in the page's own policy", async () => {
    const css = '.a{color:red}\n.b::after{content:"x"}\n';
    const out = await inlineStylesheet(head(), await assets({ 'index-abc.css': css }));
    expect(out.styleHash).toBe(hashOf(css));
    expect(out.head).not.toContain('rel="stylesheet"');
    expect(out.head).toContain(`<style>${css}</style>`);
    expect(out.head).toContain(`style-src 'self' ${hashOf(css)};`);
    // The script and the rest of the head are as they were.
    expect(out.head).toContain('<script async type="module" crossorigin src="./assets/index.js"></script>');
    expect(out.head.indexOf(META.slice(0, 40))).toBeLessThan(out.head.indexOf('<style>'));
  });

  it("adds the same hash to the header's policy, and nothing else", () => {
    const policy = hostContentSecurityPolicy(4000);
    const allowed = allowStyle(policy, "'sha256-AAAA'");
    expect(allowed).toBe(policy.replace("style-src 'self'", "style-src 'self' 'sha256-AAAA'"));
    expect(allowStyle(policy, undefined)).toBe(policy);
  });

  it('leaves the head linking its style when it cannot inline it safely', async () => {
    const dir = await assets({ 'index-abc.css': '.a{}', 'ends.css': '.a{}</style><script>alert(1)</script>', 'crlf.css': '.a{}\r\n.b{}', 'two.css': '.b{}' });
    const cases: Array<[string, string]> = [
      ['a file that is not there', head('<link rel="stylesheet" href="./assets/gone.css">')],
      ['a text that would end the element', head('<link rel="stylesheet" href="./assets/ends.css">')],
      ['CR LF line ends (the parser changes them, the hash would not match)', head('<link rel="stylesheet" href="./assets/crlf.css">')],
      ['two stylesheets', head(`${LINK}<link rel="stylesheet" href="./assets/two.css">`)],
      ['a path out of the assets folder', head('<link rel="stylesheet" href="./assets/../secret.css">')],
      ['a head without its own style-src', head().replace("style-src 'self'; ", '')],
    ];
    for (const [what, h] of cases) {
      const out = await inlineStylesheet(h, dir);
      expect(out, what).toEqual({ head: h });
    }
  });
});
