import { hash, randomUUID } from 'node:crypto';

/**
 * Claude identifies a message by from|timestamp|text; this is that identity as a stable id (the
 * one-shot hash: a Hash object per message was a tenth of a first read's time).
 */
export function deriveMessageId(from: string, timestamp: string, text: string): string {
  return 'h-' + hash('sha256', `${from}\u0000${timestamp}\u0000${text}`, 'hex').slice(0, 32);
}

export function newMessageId(): string {
  return randomUUID();
}
