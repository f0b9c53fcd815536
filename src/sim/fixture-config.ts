// config.json for a fixture team, laid out the way Claude writes it: the lead first, then the
// teammates still in the team (a member that approved its shutdown has been removed).
import { seededUuid, type Rng } from './prng.js';
import { LEAD, type ColorOf, type TeamPlan } from './fixture-team-plan.js';
import { PROJECTS, type Words } from './fixture-words.js';

export function configFor(plan: TeamPlan, rng: Rng, words: Words, createdAt: number, cwd: string, colorOf: ColorOf): Record<string, unknown> {
  const members: Record<string, unknown>[] = [
    {
      agentId: `${LEAD}@${plan.name}`,
      name: LEAD,
      agentType: 'team-lead',
      model: 'claude-opus-4-6',
      joinedAt: createdAt,
      tmuxPaneId: '',
      cwd,
      subscriptions: [],
    },
  ];
  plan.teammates.forEach((m, i) => {
    const joinedAt = createdAt + 30_000 + i * rng.int(4_000, 9_000);
    // The lead removes a member from the config once its shutdown is approved.
    if (plan.terminated.has(m)) return;
    const tmux = i % 3 === 2;
    const entry: Record<string, unknown> = {
      agentId: `${m}@${plan.name}`,
      name: m,
      agentType: i % 4 === 1 ? 'Explore' : 'general-purpose',
      model: rng.pick(['claude-opus-4-6', 'sonnet', 'haiku']),
      prompt: `You are part of the ${plan.name} team. ${words.request().text} Report to the lead when done.`,
      color: colorOf(m),
      planModeRequired: false,
      joinedAt,
      tmuxPaneId: tmux ? `%${i + 2}` : 'in-process',
      cwd,
      subscriptions: [],
      backendType: tmux ? 'tmux' : 'in-process',
    };
    if (tmux) entry.isActive = true;
    members.push(entry);
  });
  return {
    name: plan.name,
    description: words.pick(PROJECTS),
    createdAt,
    leadAgentId: `${LEAD}@${plan.name}`,
    leadSessionId: seededUuid(rng),
    members,
  };
}
