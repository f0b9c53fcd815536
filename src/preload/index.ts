// The renderer's only door to main: exactly the contract's calls as named functions, plus one
// event subscription that returns its unsubscribe. No ipcRenderer, no Node, nothing else.
// Bundled into one CommonJS file because a sandboxed preload cannot load local modules.
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import { CHANNELS, type AppEvent, type CallName, type TeamdeckApi, type TeamdeckCalls } from '../shared/contract';

function call<N extends CallName>(name: N, ...args: Parameters<TeamdeckCalls[N]>): ReturnType<TeamdeckCalls[N]> {
  return ipcRenderer.invoke(CHANNELS.invoke(name), ...args) as ReturnType<TeamdeckCalls[N]>;
}

const api = {
  getSnapshot: () => call('getSnapshot'),
  getRoster: (team: string) => call('getRoster', team),
  getThread: (team: string, member: string) => call('getThread', team, member),
  getFeed: (team: string) => call('getFeed', team),
  send: (req: Parameters<TeamdeckCalls['send']>[0]) => call('send', req),
  getSettings: () => call('getSettings'),
  setSettings: (patch: Parameters<TeamdeckCalls['setSettings']>[0]) => call('setSettings', patch),
  startDemo: () => call('startDemo'),
  openExternal: (url: string) => call('openExternal', url),
  getActivity: (team: string) => call('getActivity', team),
  getTimeline: (team: string, member: string, limit?: number) => call('getTimeline', team, member, limit),
  getTasks: (team: string) => call('getTasks', team),
  getNeeds: () => call('getNeeds'),
  getChannels: (team: string, member: string) => call('getChannels', team, member),
  launchTeam: (req: Parameters<TeamdeckCalls['launchTeam']>[0]) => call('launchTeam', req),
  getTerminals: () => call('getTerminals'),
  attachTerminal: (id: string, cols: number, rows: number) => call('attachTerminal', id, cols, rows),
  terminalInput: (id: string, data: string) => call('terminalInput', id, data),
  resizeTerminal: (id: string, cols: number, rows: number) => call('resizeTerminal', id, cols, rows),
  detachTerminal: (id: string) => call('detachTerminal', id),
  closeTerminal: (id: string) => call('closeTerminal', id),
  exportConversation: (req: Parameters<TeamdeckCalls['exportConversation']>[0]) => call('exportConversation', req),
  search: (req: Parameters<TeamdeckCalls['search']>[0]) => call('search', req),
  onEvent: (listener: (event: AppEvent) => void): (() => void) => {
    // The IPC event object (sender, ports) never reaches the page: only the payload does.
    const handler = (_e: IpcRendererEvent, event: AppEvent) => listener(event);
    ipcRenderer.on(CHANNELS.event, handler);
    return () => {
      ipcRenderer.removeListener(CHANNELS.event, handler);
    };
  },
} satisfies TeamdeckApi;

export type PreloadApi = typeof api;

contextBridge.exposeInMainWorld('teamdeck', api);
