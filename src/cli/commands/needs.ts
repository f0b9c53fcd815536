import { noPositionals } from '../args.js';
import type { Command } from '../command.js';
import { duration } from '../format.js';
import { openService } from '../service.js';

export const needsCommand: Command = {
  name: 'needs',
  summary: 'what the teams need from you, across all teams, newest first (permission prompts, plans, stuck messages)',
  usage: 'teamdeck needs',
  help: ['  (--json prints the NeedItem list)'],
  options: {},
  async run(p, io) {
    noPositionals(p);
    const s = await openService(p.common, io, { watch: false, readOnly: true });
    try {
      const needs = await s.service.needs();
      if (p.common.json) {
        io.out(JSON.stringify(needs));
        return 0;
      }
      if (needs.length === 0) {
        io.out(`Nothing needs you in ${s.teamsRoot}.`);
        return 0;
      }
      const now = Date.now();
      const width = Math.max(...needs.map((n) => n.team.length));
      for (const n of needs) {
        io.out(`${n.team.padEnd(width)}  ${n.title} · ${duration(now - n.since)}`);
        if (n.detail) io.out(`${' '.repeat(width)}  ${n.detail}`);
        if (n.kind === 'permission' && n.answer?.available) io.out(`${' '.repeat(width)}  or: teamdeck answer ${n.id} --allow | --deny [--reason TEXT]`);
      }
      return 0;
    } finally {
      await s.close();
    }
  },
};
