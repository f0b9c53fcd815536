// The IPC side of the contract: one ipcMain.handle per call, each checking that the caller is
// the main window's own top frame showing the app's own page, then validating the arguments
// with the contract's schemas (inside ApiHandlers.dispatch) before anything runs. Handlers
// always resolve to a Result; nothing is thrown across the bridge.
import type { BrowserWindow, IpcMain, IpcMainInvokeEvent } from 'electron';
import { CALL_NAMES, CHANNELS, type Result } from '../shared/contract.js';
import { validateCall } from '../shared/contract-schema.js';
import type { ApiHandlers } from '../engine/api/api-handlers.js';

export type TrustEvent = Pick<IpcMainInvokeEvent, 'sender' | 'senderFrame'>;
type WindowLike = Pick<BrowserWindow, 'isDestroyed'> & { webContents: Pick<BrowserWindow['webContents'], 'mainFrame'> };

/** The sender is the main window's top-level frame (not a subframe, not another window) on the app's URL. */
export function isTrustedSender(event: TrustEvent, win: WindowLike | undefined, isAppUrl: (url: string) => boolean): boolean {
  if (!win || win.isDestroyed()) return false;
  if (event.sender !== (win.webContents as unknown)) return false;
  const frame = event.senderFrame;
  if (!frame) return false;
  const main = win.webContents.mainFrame;
  if (frame.processId !== main.processId || frame.routingId !== main.routingId || frame.parent !== null) return false;
  return isAppUrl(frame.url);
}

const UNTRUSTED: Result<never> = { ok: false, error: { code: 'refused', message: 'calls are accepted only from the Teamdeck window' } };

export function registerIpc(
  ipc: Pick<IpcMain, 'handle' | 'removeHandler'>,
  handlers: Pick<ApiHandlers, 'dispatch'>,
  getWindow: () => WindowLike | undefined,
  isAppUrl: (url: string) => boolean,
): () => void {
  for (const name of CALL_NAMES) {
    ipc.handle(CHANNELS.invoke(name), async (event: IpcMainInvokeEvent, ...args: unknown[]): Promise<Result<unknown>> => {
      if (!isTrustedSender(event, getWindow(), isAppUrl)) return UNTRUSTED;
      const v = validateCall(name, args);
      if (!v.ok) return { ok: false, error: v.error };
      // dispatch validates again: the same schemas guard every host's single entry point.
      return handlers.dispatch(v.name, v.args);
    });
  }
  return () => {
    for (const name of CALL_NAMES) ipc.removeHandler(CHANNELS.invoke(name));
  };
}
