// The layers of the source tree, checked by `npm run lint` (dependency-cruiser): no import
// cycle anywhere outside tests (type-only imports count), and imports go one way only.
//
//   shared  <-  engine  <-  shells (main: Electron, browser-host, cli)
//   shared  <-  renderer          (the page talks to a shell through the contract only)
//   engine  <-  sim               (the simulator writes Claude's files with the engine's rules)
//
// Inside the engine, each folder may import only the folders before it in ENGINE_LAYERS (and
// its own); docs/architecture.md draws the same picture.

/** The engine's folders, lowest first. Folders on one line may not import each other. */
const ENGINE_LAYERS = [
  ['files'],
  ['claude', 'terminals', 'usage'],
  ['journal'],
  ['team', 'search'],
  ['history'],
  ['delivery'],
  ['ingest'],
  ['teams', 'live'],
  ['service'],
  ['api'],
  ['socket'],
];

const TESTS = '(\\.test\\.tsx?$|\\.spec\\.ts$|^test/|^e2e/)';

function engineRules() {
  const rules = [];
  for (let i = 0; i < ENGINE_LAYERS.length; i++) {
    const higher = [...ENGINE_LAYERS.slice(i + 1).flat(), ...ENGINE_LAYERS[i]];
    for (const folder of ENGINE_LAYERS[i]) {
      const forbidden = higher.filter((f) => f !== folder).map((f) => `src/engine/${f}/`);
      if (forbidden.length === 0) continue;
      rules.push({
        name: `engine-layer-${folder}`,
        comment: `src/engine/${folder} sits below ${forbidden.map((f) => f.slice('src/engine/'.length, -1)).join(', ')}: it may not import them`,
        severity: 'error',
        from: { path: `^src/engine/${folder}/`, pathNot: TESTS },
        to: { path: `^(${forbidden.join('|')})` },
      });
    }
  }
  return rules;
}

/** `from` may not import any of `to` (outside tests). */
function never(name, from, to, comment) {
  return { name, comment, severity: 'error', from: { path: from, pathNot: TESTS }, to: { path: to } };
}

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'An import cycle (type-only imports included) makes modules impossible to read, test or move alone.',
      severity: 'error',
      from: { pathNot: TESTS },
      to: { circular: true, pathNot: TESTS },
    },
    never('shared-is-shared', '^src/shared/', '^src/(engine|main|preload|renderer|browser-host|cli|sim)/', 'src/shared runs everywhere: it imports nothing of the app'),
    never('engine-never-imports-a-shell', '^src/engine/', '^src/(main|preload|renderer|browser-host|cli|sim)/', 'The engine is hosted by the shells, never the other way round'),
    never('renderer-only-talks-to-the-contract', '^src/renderer/', '^src/(engine|main|preload|browser-host|cli|sim)/', 'The page reaches the engine through the contract only'),
    never('no-electron-outside-the-electron-shell', '^src/(engine|shared|renderer|browser-host|cli|sim)/', '^node_modules/electron/', 'Only src/main and src/preload may import electron'),
    never('browser-host-is-a-shell', '^src/browser-host/', '^src/(main|preload|cli|renderer)/', 'The browser host stands beside the other shells'),
    never('electron-shell-is-a-shell', '^src/main/', '^src/(browser-host|cli|renderer|preload)/', 'The Electron shell stands beside the other shells'),
    never('sim-below-the-shells', '^src/sim/', '^src/(main|preload|renderer|browser-host|cli)/', 'The simulator is used by the shells and tests, never the other way round'),
    ...engineRules(),
  ],
  options: {
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.node.json' },
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^out/|^dist/|node_modules)' },
    enhancedResolveOptions: { extensions: ['.ts', '.tsx', '.mts', '.js', '.mjs', '.cjs', '.json'] },
  },
};
