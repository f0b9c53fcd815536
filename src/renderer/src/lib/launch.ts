// The launch dialog's words and request: permission modes as the user reads them, and the
// LaunchRequest the contract takes (optional fields left out when empty).
import type { LaunchRequest, PermissionModeChoice } from '../../../shared/types';

export const PERMISSION_WORDS: Record<PermissionModeChoice, string> = {
  default: 'Ask before actions (default)',
  acceptEdits: 'Accept edits',
  plan: 'Plan first',
  auto: 'Auto (classifier)',
  bypassPermissions: 'Skip all permission prompts',
};

export interface LaunchFields {
  cwd: string;
  prompt: string;
  model: string;
  mode: PermissionModeChoice;
}

/** The request for these fields; the default permission mode is Claude's own and is not sent. */
export function launchRequest(f: LaunchFields): LaunchRequest {
  const prompt = f.prompt.replace(/\s+$/, '');
  const model = f.model.trim();
  return {
    cwd: f.cwd.trim(),
    ...(prompt.trim() ? { prompt } : {}),
    ...(model ? { model } : {}),
    ...(f.mode !== 'default' ? { permissionMode: f.mode } : {}),
  };
}
