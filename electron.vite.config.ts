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

/**
 * The app's code (start.ts and what it imports) is loaded on demand by the page's small entry,
 * after the host's first screen has painted (src/renderer/src/main.tsx). Linked in the page's head
 * as modulepreload, it is fetched and compiled while the page still arrives, so that import only
 * runs it; the browser host sends these files before the start-up data (index-page.ts).
 */
const preloadApp = {
  name: 'teamdeck-preload-app',
  apply: 'build' as const,
  transformIndexHtml: {
    order: 'post' as const,
    handler(_html: string, ctx: { bundle?: Record<string, { type: string; fileName: string; isEntry?: boolean; facadeModuleId?: string | null; imports?: string[] }> }) {
      const bundle = ctx.bundle ?? {};
      const app = Object.values(bundle).find((c) => c.type === 'chunk' && c.facadeModuleId?.endsWith('/src/renderer/src/start.ts'));
      if (!app) throw new Error('teamdeck-preload-app: no chunk for src/renderer/src/start.ts');
      // (Not the entry itself, which the page loads as its script.)
      const files = [app.fileName, ...(app.imports ?? []).filter((f) => !bundle[f]?.isEntry)];
      return files.map((f) => ({ tag: 'link', attrs: { rel: 'modulepreload', crossorigin: true, href: `./${f}` }, injectTo: 'head' as const }));
    },
  },
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
    plugins: [react(), tailwindcss(), devInlineStyles, preloadApp],
  },
});
