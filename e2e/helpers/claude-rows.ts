// What a spec adds to Claude's files beside a simulated current-era team: tool-call rows in a
// teammate's transcript (the simulator's teammates only talk; real ones run tools), written with
// the simulator's own 2.1.332 row writer, and task list files shaped as TaskCreate/TaskUpdate
// write them (test/claude/activity.test.ts pins their keys).
import { readdir, writeFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { claudeSidePaths, inboxFileStem } from '../../src/sim/claude-paths.js';
import type { Simulation } from '../../src/sim/main.js';
import { newPromptState, textResult, toolUseId, Transcript, type Row } from '../../src/sim/transcript.js';

/** The teammate's transcript file, once its process has written it. */
export async function teammateTranscriptPath(sim: Simulation, member: string): Promise<string | undefined> {
  const lead = sim.lead!;
  const dir = claudeSidePaths(sim.teamsDir).subagentsDir(lead.cwd, lead.sessionId);
  const stem = `agent-a${inboxFileStem(member)}-`;
  const names = await readdir(dir).catch(() => [] as string[]);
  const name = names.find((n) => n.startsWith(stem) && n.endsWith('.jsonl'));
  return name ? join(dir, name) : undefined;
}

export interface ToolRows {
  /** The model's text and a tool call in one reply (one row per block, as Claude writes them). */
  call(name: string, input: Record<string, unknown>, at: number, text?: string): Promise<{ row: Row; id: string }>;
  /** The tool's answer to a call. */
  result(call: { row: Row; id: string }, text: string, at: number, isError?: boolean): Promise<void>;
  /** The turn's last words: an end_turn row, so the member goes idle. */
  say(text: string, at: number): Promise<void>;
}

/** Appends Claude-shaped rows to a teammate's transcript, beside what its simulated process writes. */
export function toolRows(sim: Simulation, path: string): ToolRows {
  const lead = sim.lead!;
  const agentId = path.slice(path.lastIndexOf('/agent-') + '/agent-'.length, -'.jsonl'.length);
  const t = new Transcript(path, { sessionId: lead.sessionId, cwd: lead.cwd, agentId, prompt: newPromptState() });
  return {
    async call(name, input, at, text) {
      const id = toolUseId();
      const blocks = [...(text ? [{ type: 'text' as const, text }] : []), { type: 'tool_use' as const, id, name, input }];
      const rows = await t.assistant(blocks, at);
      return { row: rows.at(-1)!, id };
    },
    async result(call, text, at, isError) {
      await t.toolResult(call.row, { ...textResult(call.id, text), ...(isError ? { is_error: true } : {}) }, isError ? `Error: ${text}` : { stdout: text, stderr: '', interrupted: false }, at);
    },
    async say(text, at) {
      await t.text(text, at);
    },
  };
}

export interface TaskFile {
  id: string;
  subject: string;
  description: string;
  status: 'pending' | 'in_progress' | 'completed';
  blocks: string[];
  blockedBy: string[];
  owner?: string;
}

/** `<config>/tasks/<list>/`, the list named after the team as inbox names are. */
export function taskListDir(sim: Simulation): string {
  return claudeSidePaths(sim.teamsDir).tasksDir(sim.teamName);
}

/** Writes task files as Claude's task tools leave them (plus the lock and high-water mark beside them). */
export async function writeTasks(sim: Simulation, tasks: TaskFile[], extra: Record<string, string> = {}): Promise<void> {
  const dir = taskListDir(sim);
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, '.lock'), '');
  await writeFile(join(dir, '.highwatermark'), String(tasks.length));
  for (const task of tasks) await writeFile(join(dir, `${task.id}.json`), JSON.stringify(task));
  for (const [name, text] of Object.entries(extra)) await writeFile(join(dir, name), text);
}
