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

/** A member's approval of its own shutdown: the one event that makes it TERMINATED. */
export function isShutdownApproval(frame: Frame | undefined): boolean {
  if (!frame) return false;
  if (frame.type === 'shutdown_approved') return true;
  return frame.type === 'shutdown_response' && (frame.fields.approve === true || frame.fields.approved === true);
}

/** A one-line, human description of a frame for the thread and the feed. */
export function describeFrame(frame: Frame): string {
  const f = frame.fields;
  const s = (k: string) => (typeof f[k] === 'string' || typeof f[k] === 'number' ? String(f[k]) : undefined);
  switch (frame.type) {
    case 'idle_notification': {
      const parts = ['went idle'];
      const reason = s('idleReason');
      if (reason && reason !== 'available') parts.push(`(${reason})`);
      if (s('completedTaskId')) parts.push(`· task ${s('completedTaskId')} ${s('completedStatus') ?? 'done'}`);
      if (s('failureReason')) parts.push(`· ${s('failureReason')}`);
      return parts.join(' ');
    }
    case 'shutdown_request':
      return `shutdown requested${s('reason') ? `: ${s('reason')}` : ''}`;
    case 'shutdown_approved':
      return 'shutdown approved';
    case 'shutdown_rejected':
      return `shutdown rejected${s('reason') ? `: ${s('reason')}` : ''}`;
    case 'shutdown_response':
      return f.approve === true || f.approved === true ? 'shutdown approved' : `shutdown rejected${s('reason') ? `: ${s('reason')}` : ''}`;
    case 'plan_approval_request':
      return 'plan approval requested';
    case 'plan_approval_response':
      return f.approved === true ? 'plan approved' : `plan rejected${s('feedback') ? `: ${s('feedback')}` : ''}`;
    case 'permission_request':
      return `permission requested${s('tool_name') ?? s('toolName') ? `: ${s('tool_name') ?? s('toolName')}` : ''}`;
    case 'permission_response':
      return 'permission answered';
    case 'sandbox_permission_request':
      return 'sandbox permission requested';
    case 'sandbox_permission_response':
      return 'sandbox permission answered';
    case 'task_assignment':
      return `task ${s('taskId') ?? '?'} assigned${s('subject') ? `: ${s('subject')}` : ''}`;
    case 'task_completed':
      return `task ${s('taskId') ?? '?'} completed`;
    case 'teammate_terminated':
      return s('message') ?? 'teammate terminated';
    case 'mode_set_request':
      return `mode change requested${s('mode') ? `: ${s('mode')}` : ''}`;
    case 'team_permission_update':
      return 'team permissions updated';
  }
}
