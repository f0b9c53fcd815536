// The `teamdeck` command line: thin commands over the same TeamService the app uses.
import { COMMON_HELP, parseCommandArgs, UsageError } from './args.js';
import { EXIT, type Command, type ParsedCommand } from './command.js';
import { processIo, type Io } from './io.js';
import { activityCommand } from './commands/activity.js';
import { demoCommand } from './commands/demo.js';
import { genCommand } from './commands/gen.js';
import { rosterCommand } from './commands/roster.js';
import { needsCommand } from './commands/needs.js';
import { sendCommand } from './commands/send.js';
import { simCommand } from './commands/sim.js';
import { tailCommand } from './commands/tail.js';
import { tasksCommand } from './commands/tasks.js';
import { teamsCommand } from './commands/teams.js';
import { threadCommand } from './commands/thread.js';
import { watchCommand } from './commands/watch.js';

/** The browser host, loaded only when asked for: it pulls in the HTTP and WebSocket server. */
const serveCommand: Command = {
  name: 'serve',
  summary: 'serve the Teamdeck window to a browser on 127.0.0.1 (prints a URL with a private token)',
  runArgv: async (argv, io) => (await import('./serve.js')).runServe(argv, io),
};

/** Every command, in the order `teamdeck --help` lists them. */
export const COMMANDS: readonly Command[] = [
  teamsCommand,
  rosterCommand,
  threadCommand,
  activityCommand,
  tasksCommand,
  needsCommand,
  sendCommand,
  tailCommand,
  watchCommand,
  serveCommand,
  demoCommand,
  simCommand,
  genCommand,
];

function usage(): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length));
  return [
    'usage: teamdeck <command> [options]',
    '',
    'Commands:',
    ...COMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    '',
    'Every command accepts:',
    ...COMMON_HELP,
    '',
    'Run `teamdeck <command> --help` for its options.',
  ].join('\n');
}

function commandHelp(c: ParsedCommand): string {
  return [`usage: ${c.usage}`, '', c.summary, '', 'Options:', ...c.help, ...COMMON_HELP].join('\n');
}

/** Errors the user can act on without a stack trace: a refusal, an unknown team, a busy state dir. */
function errorCode(e: unknown): string | undefined {
  const code = (e as { code?: unknown })?.code;
  return typeof code === 'string' ? code : undefined;
}

/** Runs one command and returns its exit code: 0 done, 1 internal error, 2 usage error or refusal. */
export async function main(argv: string[], io: Io = processIo()): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined) {
    io.err(usage());
    return EXIT.refused;
  }
  if (name === '--help' || name === '-h' || name === 'help') {
    const which = rest[0] ? COMMANDS.find((c) => c.name === rest[0]) : undefined;
    if (which && 'runArgv' in which) return which.runArgv(['--help'], io);
    io.out(which ? commandHelp(which) : usage());
    return EXIT.ok;
  }
  const command = COMMANDS.find((c) => c.name === name);
  if (!command) {
    io.err(`teamdeck: unknown command ${JSON.stringify(name)}\n`);
    io.err(usage());
    return EXIT.refused;
  }
  try {
    if ('runArgv' in command) return await command.runArgv(rest, io);
    const parsed = parseCommandArgs(rest, command.options, command.positionals === true);
    if (parsed.common.help) {
      io.out(commandHelp(command));
      return EXIT.ok;
    }
    return await command.run(parsed, io);
  } catch (e) {
    return reportError(command, e, io);
  }
}

/** One line on stderr for anything a command threw, and its exit code. */
function reportError(command: Command, e: unknown, io: Io): number {
  const prefix = `teamdeck ${command.name}:`;
  const message = oneLine(e instanceof Error ? e.message : String(e));
  if (e instanceof UsageError) {
    io.err(`${prefix} ${message}`);
    if ('usage' in command) io.err(`usage: ${command.usage}   (--help for more)`);
    return EXIT.refused;
  }
  switch (errorCode(e)) {
    case 'refused':
      io.err(`${prefix} refused: ${message}`);
      return EXIT.refused;
    case 'not_found':
      io.err(`${prefix} ${message}`);
      return EXIT.refused;
    case 'state_busy':
      io.err(`${prefix} ${message}`);
      return EXIT.internal;
  }
  io.err(`${prefix} internal error: ${message}`);
  if (process.env.TEAMDECK_DEBUG && e instanceof Error && e.stack) io.err(e.stack);
  return EXIT.internal;
}

function oneLine(s: string): string {
  return s.replace(/\s*\n\s*/g, ' ').trim();
}
