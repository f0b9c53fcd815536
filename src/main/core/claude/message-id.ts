import { createHash, randomUUID } from 'node:crypto';

/** Claude identifies a message by from|timestamp|text; this is that identity as a stable id. */
export function deriveMessageId(from: string, timestamp: string, text: string): string {
  return 'h-' + createHash('sha256').update(`${from}\u0000${timestamp}\u0000${text}`).digest('hex').slice(0, 32);
}

export function newMessageId(): string {
  return randomUUID();
}
