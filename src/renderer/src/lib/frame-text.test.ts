import { describe, expect, it } from 'vitest';
import { describeFrame, isShutdownApproval } from '../../../shared/frame-text';
import type { Frame, FrameType } from '../../../shared/types';

const f = (type: FrameType, fields: Record<string, unknown> = {}): Frame => ({ type, fields: { type, ...fields } });

describe('describeFrame', () => {
  it('describes idle notifications with the task they completed', () => {
    expect(describeFrame(f('idle_notification', { idleReason: 'available', completedTaskId: '3', completedStatus: 'resolved' }))).toBe('went idle · task 3 resolved');
    expect(describeFrame(f('idle_notification', { idleReason: 'interrupted' }))).toBe('went idle (interrupted)');
  });

  it('describes the shutdown and plan handshakes', () => {
    expect(describeFrame(f('shutdown_approved', { requestId: 'r' }))).toBe('shutdown approved');
    expect(describeFrame(f('shutdown_response', { approve: true }))).toBe('shutdown approved');
    expect(describeFrame(f('shutdown_request', { reason: 'done' }))).toBe('shutdown requested: done');
    expect(describeFrame(f('plan_approval_request', { planContent: 'x' }))).toBe('plan approval requested');
    expect(describeFrame(f('plan_approval_response', { approved: false, feedback: 'too broad' }))).toBe('plan rejected: too broad');
    expect(describeFrame(f('task_assignment', { taskId: 7, subject: 'Write docs' }))).toBe('task 7 assigned: Write docs');
  });

  it('still gives one line for a frame type it does not know', () => {
    expect(describeFrame({ type: 'brand_new_thing' as FrameType, fields: {} })).toBe('brand new thing');
  });
});

describe('isShutdownApproval', () => {
  it('accepts both spellings of an approval and nothing else', () => {
    expect(isShutdownApproval(f('shutdown_approved'))).toBe(true);
    expect(isShutdownApproval(f('shutdown_response', { approve: true }))).toBe(true);
    expect(isShutdownApproval(f('shutdown_response', { approve: false }))).toBe(false);
    expect(isShutdownApproval(f('shutdown_request'))).toBe(false);
    expect(isShutdownApproval(undefined)).toBe(false);
  });
});
