#!/usr/bin/env node
// The `teamdeck` command. It runs the bundle the build makes (out/cli/teamdeck.cjs, see
// scripts/build-cli.mjs): plain JavaScript, no TypeScript compiled at run time. The bundle runs
// as a script with a V8 code cache per command (out/cli/cache/), so from its second run a
// command also skips parsing and compiling the JavaScript it uses. In a checkout where the
// bundle was never built (a fresh clone before `npm install`), it is built first.
//
// This file is CommonJS on purpose: an ES module entry point costs Node its module loader,
// some 20-30 ms of every start. bin/teamdeck.mjs runs this same file, for callers of that path.
'use strict';
/* eslint-disable @typescript-eslint/no-require-imports -- a CommonJS file, for the reason above */
const { isAscii } = require('node:buffer');
const { mkdirSync, readFileSync, renameSync, writeFileSync } = require('node:fs');
const { createRequire } = require('node:module');
const { dirname, join } = require('node:path');
const { pathToFileURL } = require('node:url');
const vm = require('node:vm');

const BUNDLE = join(__dirname, '..', 'out', 'cli', 'teamdeck.cjs');
// (TEAMDECK_CLI_CACHE_DIR: elsewhere, for tests that must not share the checkout's caches.)
const CACHE_DIR = process.env.TEAMDECK_CLI_CACHE_DIR || join(dirname(BUNDLE), 'cache');
/** Emitted on `process` by the bundle just before it changes a V8 flag (V8_FLAGS_EVENT in src/engine/search/v8-flags.ts). */
const V8_FLAGS_EVENT = 'teamdeck:v8-flags';
/** The bundle's first line names its build (scripts/build-cli.mjs, BUILD_ID_PREFIX). */
const BUILD_ID = /^\/\/ teamdeck-cli build ([0-9a-f]+)\n/;

/** The bundle's text, or undefined when there is none. The build writes ASCII, which reads fastest as Latin-1. */
function readBundle() {
  try {
    const bytes = readFileSync(BUNDLE);
    return isAscii(bytes) ? bytes.latin1Slice() : bytes.toString('utf8');
  } catch (e) {
    if (e.code === 'ENOENT') return undefined;
    throw e;
  }
}

async function buildFirst() {
  process.stderr.write('teamdeck: building the command first (out/cli/teamdeck.cjs; `npm run build:cli` does it ahead)\n');
  try {
    const { buildCli } = await import(pathToFileURL(join(__dirname, '..', 'scripts', 'build-cli.mjs')).href);
    await buildCli({ quiet: true });
  } catch (e) {
    process.stderr.write(`teamdeck: cannot build the command: ${e.message}\n`);
    process.exit(1);
  }
  return readBundle();
}

/** The compiled code this command used last time, for this exact bundle (V8 itself checks little more than the source's length). */
function cacheFor(source, word) {
  const id = BUILD_ID.exec(source)?.[1];
  return id && /^[a-z][a-z-]{0,30}$/.test(word) ? join(CACHE_DIR, `${word}-${id}.v8`) : undefined;
}

function saveCache(data, file) {
  try {
    mkdirSync(CACHE_DIR, { recursive: true });
    const tmp = `${file}.tmp.${process.pid}`;
    writeFileSync(tmp, data);
    renameSync(tmp, file);
  } catch {
    // A read-only checkout: the command still works, only without the cache.
  }
}

async function run() {
  const source = readBundle() ?? (await buildFirst());
  const argv = process.argv.slice(2);
  const cacheFile = cacheFor(source, argv[0] ?? '');
  let cachedData;
  try {
    if (cacheFile) cachedData = readFileSync(cacheFile);
  } catch {
    // No cache yet for this command: it is written after this run.
  }
  const script = new vm.Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, { filename: BUNDLE, cachedData });
  const cli = { exports: {} };
  // V8 stamps a code cache with the flags in force, and a start (which runs with the defaults)
  // rejects one stamped otherwise. The bundle says when it is about to change a flag (the search
  // index's SQLite, src/engine/search/v8-flags.ts): the cache is taken then, in memory, and written
  // at exit like any other. It holds what the command compiled up to that moment.
  let taken;
  process.once(V8_FLAGS_EVENT, () => {
    taken = script.createCachedData();
  });
  script.runInThisContext()(cli.exports, createRequire(BUNDLE), cli, BUNDLE, dirname(BUNDLE));
  process.exitCode = await cli.exports.main(argv);
  // Only after a run that did its work: the cache holds what the run compiled, and one written by
  // a run that stopped at an error (no such team) held half of it and was kept for good, which
  // made every later start of that command some 15% slower.
  const ok = process.exitCode === 0;
  if (ok && cacheFile && cli.exports.COMMANDS?.has(argv[0]) && (cachedData === undefined || script.cachedDataRejected)) {
    saveCache(taken ?? script.createCachedData(), cacheFile);
  }
}

run().catch((e) => {
  process.stderr.write(`teamdeck: ${e?.stack ?? e}\n`);
  process.exitCode = 1;
});
