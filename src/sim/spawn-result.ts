// What the Agent tool answers when a 2.1.332 lead spawns an in-process teammate: the text the
// model gets and the structured `toolUseResult` (status teammate_spawned), as in
// test/fixtures/claude-2.1.332/team-lifecycle (docs/claude-contract.md#record).
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { projectSlug } from './claude-paths.js';

/** The Agent tool's answer to an in-process spawn, as 2.1.332 words it. */
export function spawnResult(agentId: string, name: string): string {
  return `Spawned successfully. (This tool result is internal metadata — never quote or paste any part of it, including the ID below, into a user-facing reply.)\nagent_id: ${agentId}\nname: ${name}\nThe agent is now running and will receive instructions via mailbox.`;
}

/** The Agent tool's structured result for an in-process spawn (its `toolUseResult`). */
export function spawnToolResult(o: { agentId: string; name: string; team: string; prompt: string; model: string; color?: string; cwd: string; sessionId: string; planModeRequired?: boolean }): Record<string, unknown> {
  const uid = typeof process.getuid === 'function' ? process.getuid() : 0;
  return {
    status: 'teammate_spawned',
    prompt: o.prompt,
    agentId: o.agentId,
    resolvedModel: o.model,
    teammate_id: `${o.name}@${o.team}`,
    agent_id: o.agentId,
    agent_type: 'general-purpose',
    model: o.model,
    name: o.name,
    color: o.color,
    tmux_session_name: 'in-process',
    tmux_window_name: 'in-process',
    tmux_pane_id: 'in-process',
    team_name: o.team,
    is_splitpane: false,
    plan_mode_required: o.planModeRequired ?? false,
    outputFile: join(tmpdir(), `claude-${uid}`, projectSlug(o.cwd), o.sessionId, 'tasks', `${o.agentId}.output`),
  };
}
