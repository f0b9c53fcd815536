#!/usr/bin/env node
// Builds the `teamdeck` command into out/cli/teamdeck.cjs: one CommonJS file holding the CLI's
// TypeScript (src/cli and the core, shared and sim code it imports) and its pure-JavaScript
// dependencies, so a command starts by reading one file instead of compiling TypeScript or
// resolving ~120 modules from node_modules (zod alone is 95 files). bin/teamdeck.mjs runs it
// with a V8 code cache (see that file). Native modules stay outside the bundle and are loaded
// only by the code that needs them; the build refuses a bundle whose start-up code loads one.
//
//   node scripts/build-cli.mjs           build (rewrites the bundle only when it changes)
//   node scripts/build-cli.mjs --quiet   the same, printing nothing when all went well
//   node scripts/build-cli.mjs --no-fail a failed build is reported but exits 0 (`npm install`'s
//                                        prepare step: the command builds itself on first use)
import { build } from 'esbuild';
import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Script } from 'node:vm';

const REPO = fileURLToPath(new URL('..', import.meta.url));
export const CLI_DIR = join(REPO, 'out', 'cli');
export const CLI_BUNDLE = join(CLI_DIR, 'teamdeck.cjs');
/** Code caches that bin/teamdeck.mjs writes, one per command; stale once the bundle changes. */
export const CLI_CACHE_DIR = join(CLI_DIR, 'cache');
/** First line of the bundle: a hash of the rest, which names its code caches. */
export const BUILD_ID_PREFIX = '// teamdeck-cli build ';

/**
 * Loaded from node_modules at run time rather than bundled: native addons (a compiled .node
 * file cannot be bundled), the optional native speed-ups `ws` looks for, Electron, and the
 * search index's SQLite (its loader finds its .wasm file next to itself).
 */
const NATIVE = ['@lydell/node-pty', 'bufferutil', 'utf-8-validate', 'electron', 'node-sqlite3-wasm'];

/**
 * `teamdeck` must start without any of these: a command that needs one loads it itself, in an
 * `await import()` on its own path (see the command list in src/cli/main.ts).
 */
const NOT_AT_START = ['@lydell/node-pty', 'electron', 'node-sqlite3-wasm'];

/**
 * A module loaded on demand (`await import('./x.js')`) that is not there fails where it is
 * imported, when that code runs, as it would without a bundle, instead of failing the whole
 * build: the other commands keep working while such a module is being written. The build
 * warns about each one (and the typecheck fails on it).
 */
const missingOnDemand = {
  name: 'missing-on-demand',
  setup(b) {
    b.onResolve({ filter: /^\.\.?\// }, async (a) => {
      if (a.kind !== 'dynamic-import' || a.pluginData?.probing) return undefined;
      const found = await b.resolve(a.path, { kind: a.kind, importer: a.importer, resolveDir: a.resolveDir, pluginData: { probing: true } });
      if (found.errors.length === 0) return found;
      const importer = relative(REPO, a.importer);
      return { path: `${importer} -> ${a.path}`, namespace: 'missing', pluginData: { importer, wanted: a.path }, warnings: [{ text: `cannot find ${a.path} (imported on demand): the command fails there when it runs` }] };
    });
    b.onLoad({ filter: /.*/, namespace: 'missing' }, (a) => ({
      contents: `throw Object.assign(new Error(${JSON.stringify(`Cannot find module ${a.pluginData.wanted} imported from ${a.pluginData.importer} (it was missing when the command was built)`)}), { code: 'ERR_MODULE_NOT_FOUND' });`,
      loader: 'js',
    }));
  },
};

/** The bundle's own location, for the code that locates files next to its source (import.meta.url). */
const BANNER = "const __teamdeck_module_url = require('node:url').pathToFileURL(__filename).href;";

/**
 * `import.meta.url` in a source file stays that file's URL in the bundle (found from the
 * bundle's own location, so a moved checkout still works): `new URL('../../out/renderer',
 * import.meta.url)` means the same folder as when the file runs from source, at any depth.
 */
const sourceFileUrls = {
  name: 'source-file-urls',
  setup(b) {
    b.onLoad({ filter: /[\\/]src[\\/].*\.ts$/ }, async (a) => {
      const text = await readFile(a.path, 'utf8');
      if (!text.includes('import.meta.url')) return undefined;
      const fromBundle = relative(CLI_DIR, a.path).split(sep).join('/');
      return { contents: text.replaceAll('import.meta.url', `new URL(${JSON.stringify(fromBundle)}, __teamdeck_module_url).href`), loader: 'ts' };
    });
  },
};

/** The browser host's first screen (src/renderer/src/first-screen.tsx), bundled for Node. */
export const FIRST_SCREEN_BUNDLE = join(CLI_DIR, 'first-screen.cjs');

/**
 * For the first screen's bundle: React's string renderer alone (react-dom/server would bring its
 * streaming renderer too, 300 KB more), and the app's on-demand modules (the terminal, markdown)
 * left out, since one render of the first screen never loads them.
 */
const firstScreenOnly = {
  name: 'first-screen-only',
  setup(b) {
    b.onResolve({ filter: /^react-dom\/server$/ }, () => ({ path: join(REPO, 'node_modules', 'react-dom', 'cjs', 'react-dom-server-legacy.node.production.js') }));
    b.onResolve({ filter: /.*/ }, (a) => (a.kind === 'dynamic-import' ? { path: a.path, external: true } : undefined));
  },
};

/** Builds out/cli/first-screen.cjs; resolves with its text, rejects with esbuild's errors. */
async function buildFirstScreen() {
  const result = await build({
    absWorkingDir: REPO,
    entryPoints: ['src/renderer/src/first-screen.tsx'],
    outfile: FIRST_SCREEN_BUNDLE,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    jsx: 'automatic',
    // Class names are all the markup needs; the page loads the style itself.
    loader: { '.css': 'empty' },
    define: { 'process.env.NODE_ENV': '"production"' },
    plugins: [firstScreenOnly],
    write: false,
    logLevel: 'silent',
  });
  const text = result.outputFiles.find((f) => f.path === FIRST_SCREEN_BUNDLE)?.text;
  if (text === undefined) throw new Error('esbuild produced no first-screen bundle');
  return text;
}

/** Writes a file through a temporary name when its contents changed; says whether they did. */
async function writeIfChanged(file, contents) {
  // Not there yet (or unreadable): it is written.
  const old = await readFile(file, 'utf8').catch(() => undefined);
  if (old === contents) return false;
  await mkdir(CLI_DIR, { recursive: true });
  const tmp = `${file}.tmp.${process.pid}`;
  await writeFile(tmp, contents);
  await rename(tmp, file);
  return true;
}

/** Builds the bundle; resolves with what happened, rejects with esbuild's errors. */
export async function buildCli({ quiet = false } = {}) {
  const started = performance.now();
  const firstScreen = buildFirstScreen();
  // (Awaited below; a failure there fails the build after the CLI's own errors are known.)
  firstScreen.catch(() => undefined);
  const result = await build({
    absWorkingDir: REPO,
    entryPoints: ['src/cli/main.ts'],
    outfile: CLI_BUNDLE,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    external: NATIVE,
    plugins: [missingOnDemand, sourceFileUrls],
    // `import()` becomes a lazy require: the commands' modules run only when used, and the
    // bundle needs no module loader of its own (bin/teamdeck.mjs runs it as a plain script).
    supported: { 'dynamic-import': false },
    // The dependencies' own import.meta.url (none use it today): the bundle's.
    define: { 'import.meta.url': '__teamdeck_module_url' },
    banner: { js: BANNER },
    metafile: true,
    write: false,
    logLevel: 'silent',
  });
  const warnings = result.warnings.map((w) => `${w.location ? `${w.location.file}:${w.location.line}: ` : ''}${w.text}`);
  for (const w of warnings) process.stderr.write(`build-cli: warning: ${w}\n`);
  const problems = startupProblems(result.metafile);
  if (problems.length) throw new Error(`the CLI would load native modules at start-up:\n${problems.join('\n')}`);

  const built = result.outputFiles.find((f) => f.path === CLI_BUNDLE)?.text;
  if (built === undefined) throw new Error('esbuild produced no bundle');
  const text = asciiOnly(built);
  const id = createHash('sha256').update(text).digest('hex').slice(0, 16);
  const contents = `${BUILD_ID_PREFIX}${id}\n${text}`;
  // The script bin/teamdeck.mjs will compile, compiled once here: a bad escape fails the build.
  new Script(`(function (exports, require, module, __filename, __dirname) {${contents}\n})`, { filename: CLI_BUNDLE });
  const changed = await writeIfChanged(CLI_BUNDLE, contents);
  // The caches belong to the old bundle; their names would not match the new one anyway.
  if (changed) await rm(CLI_CACHE_DIR, { recursive: true, force: true });
  await writeIfChanged(FIRST_SCREEN_BUNDLE, await firstScreen);
  const ms = Math.round(performance.now() - started);
  const notes = commandsLoading(result.metafile, NOT_AT_START);
  if (!quiet) {
    const kb = Math.round(Buffer.byteLength(contents) / 1024);
    process.stdout.write(`build-cli: ${changed ? 'wrote' : 'unchanged'} out/cli/teamdeck.cjs (${kb} KB, ${ms} ms)\n`);
    for (const n of notes) process.stdout.write(`build-cli: note: ${n}\n`);
  }
  return { changed, id, ms, notes, warnings };
}

/**
 * The bundle with every character outside ASCII written as a \\u escape (esbuild leaves them in
 * comments and regular expressions), so bin/teamdeck.mjs can read it as Latin-1, several
 * milliseconds faster per start than decoding UTF-8. An escape means the same character in a
 * string, a regular expression (with the u flag too: a pair of surrogate escapes is one code
 * point there) or an identifier; a character escaped with a backslash (`\\é`) takes the \\u
 * escape in its place. Only String.raw would tell, on text the sources do not give it.
 */
function asciiOnly(text) {
  return text.replace(/(\\*)([^\x00-\x7f])/g, (_, slashes, c) => `${slashes.length % 2 ? slashes.slice(1) : slashes}\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** The modules a module loads when it runs: static imports and requires, not `import()`. */
function staticImports(metafile, input) {
  return (metafile.inputs[input]?.imports ?? []).filter((i) => i.kind !== 'dynamic-import');
}

/** Every module, external ones included, that runs when `from` runs, with the chain to each. */
function staticClosure(metafile, from) {
  const chains = new Map([[from, [from]]]);
  const queue = [from];
  while (queue.length) {
    const at = queue.shift();
    for (const i of staticImports(metafile, at)) {
      if (chains.has(i.path)) continue;
      chains.set(i.path, [...chains.get(at), i.path]);
      if (!i.external) queue.push(i.path);
    }
  }
  return chains;
}

function startupProblems(metafile) {
  const chains = staticClosure(metafile, 'src/cli/main.ts');
  return NOT_AT_START.filter((m) => chains.has(m)).map((m) => `  ${chains.get(m).join(' -> ')}`);
}

/** Which commands (modules under src/cli) load a native module as soon as they run. */
function commandsLoading(metafile, modules) {
  const notes = [];
  for (const input of Object.keys(metafile.inputs)) {
    if (!/^src\/cli\/(commands\/[^/]+|serve)\.ts$/.test(input)) continue;
    const chains = staticClosure(metafile, input);
    for (const m of modules) if (chains.has(m)) notes.push(`${input} loads ${m} when it starts: ${chains.get(m).join(' -> ')}`);
  }
  return notes;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  try {
    await buildCli({ quiet: process.argv.includes('--quiet') });
  } catch (e) {
    const errors = e?.errors?.length ? e.errors.map((x) => `${x.location ? `${x.location.file}:${x.location.line}: ` : ''}${x.text}`).join('\n') : e?.message ?? String(e);
    process.stderr.write(`build-cli: failed: ${errors}\n`);
    if (process.argv.includes('--no-fail')) process.stderr.write('build-cli: `teamdeck` will try again when it first runs\n');
    else process.exit(1);
  }
}
