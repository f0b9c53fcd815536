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
    // The core is plain Node, tested without Electron: keep it that way.
    files: ['src/main/core/**/*.ts', 'src/shared/**/*.ts', 'src/cli/**/*.ts', 'src/sim/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { paths: [{ name: 'electron', message: 'The core, CLI, simulator and shared code must not import electron.' }] }],
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
