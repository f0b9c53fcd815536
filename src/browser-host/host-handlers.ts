// What the browser host needs from the API layer (ApiHandlers provides it): the server and the
// index page both take it, so it sits apart from both.
import type { AppEvent, Result } from '../shared/contract.js';

export interface HostHandlers {
  /** Validates and runs one untrusted call; never throws. */
  dispatch(name: unknown, args: unknown): Promise<Result<unknown>>;
  onEvent(listener: (event: AppEvent) => void): () => void;
  /** Starts reading the team the page opens first, before its roster is asked for; resolves once it is read. Never rejects. */
  prepare?(team: string): Promise<void>;
}
