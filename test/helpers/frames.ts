// Sample protocol frames, one of every type in docs/claude-contract.md#frames, with the fields
// listed there.
import type { FrameType } from '../../src/shared/types.js';

export const T = '2026-02-17T15:30:00.000Z';

export const SAMPLE_FRAMES: Record<FrameType, Record<string, unknown>> = {
  idle_notification: { type: 'idle_notification', from: 'researcher', timestamp: T, idleReason: 'available', summary: 'done', completedTaskId: '3', completedStatus: 'resolved' },
  shutdown_request: { type: 'shutdown_request', requestId: 'shutdown-1@researcher', from: 'team-lead', reason: 'Work complete', timestamp: T },
  shutdown_approved: { type: 'shutdown_approved', requestId: 'shutdown-1@researcher', from: 'researcher', timestamp: T, paneId: 'in-process', backendType: 'in-process' },
  shutdown_rejected: { type: 'shutdown_rejected', requestId: 'shutdown-1@researcher', from: 'researcher', reason: 'still busy', timestamp: T },
  shutdown_response: { type: 'shutdown_response', requestId: 'shutdown-1@researcher', approve: true },
  plan_approval_request: { type: 'plan_approval_request', from: 'researcher', timestamp: T, planFilePath: '/p/plan.md', planContent: '# Plan', requestId: 'plan-1' },
  plan_approval_response: { type: 'plan_approval_response', requestId: 'plan-1', approved: false, feedback: 'too broad', timestamp: T },
  permission_request: { type: 'permission_request', request_id: 'perm-1', tool_name: 'Bash', input: { command: 'ls' } },
  permission_response: { type: 'permission_response', request_id: 'perm-1', subtype: 'success' },
  sandbox_permission_request: { type: 'sandbox_permission_request', requestId: 'sb-1', host: 'example.com' },
  sandbox_permission_response: { type: 'sandbox_permission_response', requestId: 'sb-1', allow: true },
  task_assignment: { type: 'task_assignment', taskId: '2', subject: 'Analyze config', description: 'Read it', assignedBy: 'team-lead', timestamp: T },
  task_completed: { type: 'task_completed', taskId: '2', from: 'researcher', timestamp: T },
  teammate_terminated: { type: 'teammate_terminated', message: 'researcher has shut down.' },
  mode_set_request: { type: 'mode_set_request', mode: 'plan', from: 'team-lead' },
  team_permission_update: { type: 'team_permission_update', permissions: { allow: ['Read'] } },
};

