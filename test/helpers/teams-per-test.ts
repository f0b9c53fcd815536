// The set-up most engine tests share: a fresh temp teams folder (and state dir beside it) for
// each test, and the one TeamService a test keeps in `svc`, stopped after it before the folder goes.
import { afterEach, beforeEach } from 'vitest';
import type { TeamService } from '../../src/engine/service/team-service.js';
import { tempTeams, type TempTeams } from './team-fixture.js';

export interface TeamsPerTest {
  readonly base: string;
  readonly root: string;
  readonly stateDir: string;
  /** Stopped after the test, if set. */
  svc: TeamService | undefined;
}

/** Registers the hooks for the tests of the file (or describe block) it is called in. */
export function teamsPerTest(prefix?: string): TeamsPerTest {
  let current: TempTeams | undefined;
  const now = () => {
    if (!current) throw new Error('teamsPerTest: used outside a test');
    return current;
  };
  const f: TeamsPerTest = {
    get base() {
      return now().base;
    },
    get root() {
      return now().root;
    },
    get stateDir() {
      return now().stateDir;
    },
    svc: undefined,
  };
  beforeEach(async () => {
    current = await tempTeams(prefix);
  });
  afterEach(async () => {
    await f.svc?.stop();
    f.svc = undefined;
    await current?.cleanup();
    current = undefined;
  });
  return f;
}
