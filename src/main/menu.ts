// The application menu: the platform's usual Edit and Window menus (so copy, paste and the
// shortcuts work), zoom, and developer tools only in development.
import type { MenuItemConstructorOptions } from 'electron';

export interface MenuOptions {
  isMac: boolean;
  isDev: boolean;
  appName: string;
  onStartDemo: () => void;
}

export function menuTemplate(opts: MenuOptions): MenuItemConstructorOptions[] {
  const template: MenuItemConstructorOptions[] = [];
  if (opts.isMac) {
    template.push({
      label: opts.appName,
      submenu: [{ role: 'about' }, { type: 'separator' }, { role: 'hide' }, { role: 'hideOthers' }, { role: 'unhide' }, { type: 'separator' }, { role: 'quit' }],
    });
  }
  template.push({
    label: 'File',
    submenu: [{ label: 'Start a Demo Team', click: () => opts.onStartDemo() }, { type: 'separator' }, opts.isMac ? { role: 'close' } : { role: 'quit' }],
  });
  template.push({
    label: 'Edit',
    submenu: [
      { role: 'undo' },
      { role: 'redo' },
      { type: 'separator' },
      { role: 'cut' },
      { role: 'copy' },
      { role: 'paste' },
      { role: 'selectAll' },
    ],
  });
  const view: MenuItemConstructorOptions[] = [{ role: 'resetZoom' }, { role: 'zoomIn' }, { role: 'zoomOut' }, { type: 'separator' }, { role: 'togglefullscreen' }];
  if (opts.isDev) view.unshift({ role: 'reload' }, { role: 'toggleDevTools' }, { type: 'separator' });
  template.push({ label: 'View', submenu: view });
  template.push({ role: 'windowMenu' });
  return template;
}
