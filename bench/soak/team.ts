// The soak's team: the lead and seven teammates, four of which prune what they read (Claude
// 2.1.19x) and three flag it read (2.1.8x); every one of them is a target of the stream.
import { LEAD_NAME } from '../../src/sim/simulator.js';

export const TEAM = 'soak';
export const PRUNE = ['ann', 'bob', 'cy', 'dan'];
export const FLAG = ['eve', 'fay', 'gus'];
/** The lead is the eighth member; it prunes, like a current Claude Code. */
export const TARGETS = [LEAD_NAME, ...PRUNE, ...FLAG];
export const MODE = new Map<string, 'prune' | 'flag'>([[LEAD_NAME, 'prune'], ...PRUNE.map((m) => [m, 'prune'] as const), ...FLAG.map((m) => [m, 'flag'] as const)]);
