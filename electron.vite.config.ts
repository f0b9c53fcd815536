import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';

/**
 * The dev server injects CSS as <style> elements, which the page's CSP (style-src 'self',
 * src/renderer/index.html) refuses; the built app has no inline style. Only the page the dev
 * server serves allows them, as the main process's dev policy does.
 */
const devInlineStyles = {
  name: 'teamdeck-dev-inline-styles',
  apply: 'serve' as const,
  transformIndexHtml: (html: string) => html.replace("style-src 'self';", "style-src 'self' 'unsafe-inline';"),
};

export default defineConfig({
  main: {
    build: {
      rollupOptions: { input: { index: resolve('src/main/index.ts') } },
    },
  },
  preload: {
    build: {
      // A sandboxed preload cannot require local chunks: bundle it into one CommonJS file.
      rollupOptions: { input: { index: resolve('src/preload/index.ts') }, output: { format: 'cjs', entryFileNames: '[name].cjs' } },
    },
  },
  renderer: {
    root: resolve('src/renderer'),
    build: { minify: true, rollupOptions: { input: { index: resolve('src/renderer/index.html') } } },
    plugins: [react(), tailwindcss(), devInlineStyles],
  },
});
