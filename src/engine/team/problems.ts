// A team's problems, one per key (`config`, `inbox:<owner>`, `journal-compaction`): what the
// user is told is wrong with its files, replaced when the same thing goes wrong differently and
// gone once it is right again. Telling the window is the caller's (it knows whether to announce).
import type { TeamProblem } from '../../shared/types.js';

export class TeamProblems {
  private readonly byKey = new Map<string, TeamProblem>();

  /** Sets the problem under `key`; true when it is new or its message changed. */
  set(key: string, p: TeamProblem): boolean {
    const prev = this.byKey.get(key);
    this.byKey.set(key, p);
    return prev?.message !== p.message;
  }

  /** True when there was one. */
  delete(key: string): boolean {
    return this.byKey.delete(key);
  }

  values(): IterableIterator<TeamProblem> {
    return this.byKey.values();
  }
}
