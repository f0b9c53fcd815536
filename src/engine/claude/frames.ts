import { FRAME_TYPES, type Frame, type FrameType } from '../../shared/types.js';

const KNOWN = new Set<string>(FRAME_TYPES);

function parseObject(text: string): Record<string, unknown> | undefined {
  const t = text.replace(/^\uFEFF/, '').trim();
  if (!t.startsWith('{')) return undefined;
  try {
    const v: unknown = JSON.parse(t);
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** False when the text cannot be a frame (it does not start with `{`); cheap, for every message. */
export function mayBeFrame(text: string): boolean {
  return text.replace(/^\uFEFF/, '').trimStart().startsWith('{');
}

/** The protocol frame carried in a message's text, if it is one Claude would recognise. */
export function parseFrame(text: string): Frame | undefined {
  const obj = parseObject(text);
  if (!obj || typeof obj.type !== 'string' || !KNOWN.has(obj.type)) return undefined;
  return { type: obj.type as FrameType, fields: obj };
}

/**
 * True for any text the user must not send because a teammate could read it as a
 * protocol frame: a JSON object with a string `type`, whatever its casing, spacing
 * or BOM. Refusing every typed object (not only the known types) closes tricks like
 * "Shutdown_Request" or " shutdown_request " that a lenient reader might accept.
 */
export function looksLikeProtocolFrame(text: string): boolean {
  const obj = parseObject(text);
  if (!obj) return false;
  return Object.keys(obj).some((k) => k.trim().toLowerCase() === 'type' && typeof obj[k] === 'string');
}

// Pure display helpers live in shared so the renderer can use them too.
export { describeFrame, isShutdownApproval } from '../../shared/frame-text.js';
