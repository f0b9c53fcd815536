import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['out/**', 'dist/**', 'node_modules/**', 'test-results/**', 'playwright-report/**', 'bench/results/**'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // Only the Electron shell (src/main, src/preload) imports electron; the engine is plain Node,
    // tested without it. (The layers themselves are checked by dependency-cruiser: .dependency-cruiser.cjs.)
    files: ['src/engine/**/*.ts', 'src/browser-host/**/*.ts', 'src/shared/**/*.ts', 'src/cli/**/*.ts', 'src/sim/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { paths: [{ name: 'electron', message: 'Only the Electron shell (src/main, src/preload) may import electron.' }] }],
    },
  },
  {
    // The renderer only talks to the contract: no Node built-ins.
    files: ['src/renderer/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['node:*', 'electron', 'fs', 'path', 'child_process'], message: 'The renderer may only use the contract API.' }] }],
    },
  },
);
