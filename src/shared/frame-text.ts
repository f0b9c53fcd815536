// Pure, display-side helpers for protocol frames. Lives in shared so the renderer can describe
// frames without reaching into the Node-side core; the core re-exports these from frames.ts.
import type { Frame } from './types.js';

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
    default:
      // A frame type this build does not know yet (a host newer than the UI): still one calm line.
      return String((frame as Frame).type).replace(/_/g, ' ');
  }
}
