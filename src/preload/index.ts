// The renderer's only door to main: exactly the contract's calls as named functions, plus one
// event subscription that returns its unsubscribe. No ipcRenderer, no Node, nothing else.
// Bundled into one CommonJS file because a sandboxed preload cannot load local modules.
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import { CALL_NAMES, CHANNELS, type AppEvent, type TeamdeckApi, type TeamdeckCalls } from '../shared/contract';

// One function per call in the contract's table, each invoking that call's channel only.
const calls = Object.fromEntries(
  CALL_NAMES.map((name) => [name, (...args: unknown[]) => ipcRenderer.invoke(CHANNELS.invoke(name), ...args)]),
) as TeamdeckCalls;

const api: TeamdeckApi = {
  ...calls,
  onEvent: (listener) => {
    // The IPC event object (sender, ports) never reaches the page: only the payload does.
    const handler = (_e: IpcRendererEvent, event: AppEvent) => listener(event);
    ipcRenderer.on(CHANNELS.event, handler);
    return () => {
      ipcRenderer.removeListener(CHANNELS.event, handler);
    };
  },
};

contextBridge.exposeInMainWorld('teamdeck', api);
