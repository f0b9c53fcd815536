import { describe, expect, it } from 'vitest';
import { FRAME_TYPES } from '../../shared/types.js';
import { SAMPLE_FRAMES, T } from '../../../test/helpers/frames.js';
import { describeFrame, isShutdownApproval, looksLikeProtocolFrame, parseFrame } from './frames.js';

describe('FRAME_TYPES', () => {
  it('holds exactly the frame types of the format document', () => {
    expect([...FRAME_TYPES].sort()).toEqual(
      [
        'idle_notification',
        'shutdown_request',
        'shutdown_approved',
        'shutdown_rejected',
        'shutdown_response',
        'plan_approval_request',
        'plan_approval_response',
        'permission_request',
        'permission_response',
        'sandbox_permission_request',
        'sandbox_permission_response',
        'task_assignment',
        'task_completed',
        'teammate_terminated',
        'mode_set_request',
        'team_permission_update',
      ].sort(),
    );
  });
});

describe('parseFrame', () => {
  it.each(FRAME_TYPES.map((t) => [t]))('types a %s frame and keeps all its fields', (type) => {
    const fields = { ...SAMPLE_FRAMES[type], unknownExtra: { kept: true } };
    const frame = parseFrame(JSON.stringify(fields));
    expect(frame?.type).toBe(type);
    expect(frame?.fields).toEqual(fields);
  });

  it('reads frames written pretty, with a BOM or surrounding whitespace', () => {
    expect(parseFrame(JSON.stringify(SAMPLE_FRAMES.shutdown_request, null, 2))?.type).toBe('shutdown_request');
    expect(parseFrame('\uFEFF' + JSON.stringify(SAMPLE_FRAMES.idle_notification))?.type).toBe('idle_notification');
    expect(parseFrame('\n  ' + JSON.stringify(SAMPLE_FRAMES.task_assignment) + '  \n')?.type).toBe('task_assignment');
  });

  it.each([
    ['plain text', 'Found the bug in auth.ts'],
    ['text starting with a brace', '{not json'],
    ['a JSON array', '[{"type":"shutdown_request"}]'],
    ['an unknown type', '{"type":"broadcast","text":"hi"}'],
    ['a non-string type', '{"type":1}'],
    ['no type', '{"requestId":"x"}'],
    ['a differently cased type', '{"type":"Shutdown_Request"}'],
    ['JSON null', 'null'],
  ])('is undefined for %s', (_label, text) => {
    expect(parseFrame(text)).toBeUndefined();
  });
});

describe('isShutdownApproval (both spellings)', () => {
  it('accepts shutdown_approved as written on disk', () => {
    expect(isShutdownApproval(parseFrame(JSON.stringify(SAMPLE_FRAMES.shutdown_approved)))).toBe(true);
  });
  it('accepts shutdown_response with approve: true (the SendMessage input shape)', () => {
    expect(isShutdownApproval(parseFrame('{"type":"shutdown_response","requestId":"r","approve":true}'))).toBe(true);
  });
  it.each([
    ['shutdown_response approve:false', '{"type":"shutdown_response","requestId":"r","approve":false,"reason":"busy"}'],
    ['shutdown_response approve:"true" (a string)', '{"type":"shutdown_response","requestId":"r","approve":"true"}'],
    ['shutdown_response without approve', '{"type":"shutdown_response","requestId":"r"}'],
    ['shutdown_request', JSON.stringify(SAMPLE_FRAMES.shutdown_request)],
    ['shutdown_rejected', JSON.stringify(SAMPLE_FRAMES.shutdown_rejected)],
    ['teammate_terminated', JSON.stringify(SAMPLE_FRAMES.teammate_terminated)],
    ['idle_notification', JSON.stringify(SAMPLE_FRAMES.idle_notification)],
  ])('refuses %s', (_label, text) => {
    expect(isShutdownApproval(parseFrame(text))).toBe(false);
  });
  it('refuses no frame at all', () => {
    expect(isShutdownApproval(undefined)).toBe(false);
    expect(isShutdownApproval(parseFrame('shutdown_approved'))).toBe(false);
  });
});

describe('looksLikeProtocolFrame (what the compose box must refuse)', () => {
  it.each([
    ...FRAME_TYPES.map((t) => [t, JSON.stringify(SAMPLE_FRAMES[t])] as [string, string]),
    ['a differently cased type value', '{"type":"Shutdown_Request","requestId":"x"}'],
    ['a padded type key', '{" Type ":"shutdown_request"}'],
    ['an unknown type', '{"type":"anything"}'],
    ['a BOM and whitespace', '\uFEFF  {"type":"permission_response"}  '],
  ])('refuses %s', (_label, text) => {
    expect(looksLikeProtocolFrame(text)).toBe(true);
  });

  it.each([
    ['plain text', 'please shut down when done'],
    ['a JSON object without type', '{"requestId":"x"}'],
    ['a numeric type', '{"type":5}'],
    ['a JSON array', '[{"type":"shutdown_request"}]'],
    ['text quoting a frame after words', 'see {"type":"shutdown_request"}'],
  ])('allows %s', (_label, text) => {
    expect(looksLikeProtocolFrame(text)).toBe(false);
  });
});

describe('describeFrame', () => {
  it.each(FRAME_TYPES.map((t) => [t]))('describes %s in one non-empty line', (type) => {
    const d = describeFrame(parseFrame(JSON.stringify(SAMPLE_FRAMES[type]))!);
    expect(d.length).toBeGreaterThan(0);
    expect(d).not.toContain('\n');
    expect(d).not.toContain('{');
  });

  it('says what happened', () => {
    const d = (f: Record<string, unknown>) => describeFrame(parseFrame(JSON.stringify(f))!);
    expect(d(SAMPLE_FRAMES.shutdown_approved)).toBe('shutdown approved');
    expect(d(SAMPLE_FRAMES.shutdown_response)).toBe('shutdown approved');
    expect(d({ type: 'shutdown_response', approve: false, reason: 'busy' })).toBe('shutdown rejected: busy');
    expect(d(SAMPLE_FRAMES.shutdown_request)).toBe('shutdown requested: Work complete');
    expect(d(SAMPLE_FRAMES.task_assignment)).toBe('task 2 assigned: Analyze config');
    expect(d({ type: 'idle_notification', from: 'x', timestamp: T, idleReason: 'interrupted' })).toBe('went idle (interrupted)');
    expect(d(SAMPLE_FRAMES.teammate_terminated)).toBe('researcher has shut down.');
  });
});
