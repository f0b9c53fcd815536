// The `teamdeck` command line: thin commands over the same TeamService the app uses.
import { errorCode } from '../engine/errors.js';
import { COMMON_HELP, parseCommandArgs, UsageError } from './args.js';
import { EXIT, type Command, type ParsedCommand } from './command.js';
import { processIo, type Io } from './io.js';

/** The browser host, loaded only when asked for: it pulls in the HTTP and WebSocket server. */
const serveCommand: Command = {
  name: 'serve',
  summary: 'serve the Teamdeck window to a browser on 127.0.0.1 (prints a URL with a private token)',
  runArgv: async (argv, io) => (await import('./serve.js')).runServe(argv, io),
};

/**
 * Every command, in the order `teamdeck --help` lists them, each loaded only when it runs: a
 * command's module (and what it imports) costs start-up time for that command alone. A new
 * command is one line here.
 */
export const COMMANDS: ReadonlyMap<string, () => Promise<Command>> = new Map([
  ['teams', async () => (await import('./commands/teams.js')).teamsCommand],
  ['roster', async () => (await import('./commands/roster.js')).rosterCommand],
  ['thread', async () => (await import('./commands/thread.js')).threadCommand],
  ['export', async () => (await import('./commands/export.js')).exportCommand],
  ['search', async () => (await import('./commands/search.js')).searchCommand],
  ['activity', async () => (await import('./commands/activity.js')).activityCommand],
  ['tasks', async () => (await import('./commands/tasks.js')).tasksCommand],
  ['needs', async () => (await import('./commands/needs.js')).needsCommand],
  ['usage', async () => (await import('./commands/usage.js')).usageCommand],
  ['budget', async () => (await import('./commands/budget.js')).budgetCommand],
  ['import-status', async () => (await import('./commands/import-status.js')).importStatusCommand],
  ['send', async () => (await import('./commands/send.js')).sendCommand],
  ['answer', async () => (await import('./commands/answer.js')).answerCommand],
  ['interrupt', async () => (await import('./commands/interrupt.js')).interruptCommand],
  ['launch', async () => (await import('./commands/launch.js')).launchCommand],
  ['tail', async () => (await import('./commands/tail.js')).tailCommand],
  ['watch', async () => (await import('./commands/watch.js')).watchCommand],
  ['serve', async () => serveCommand],
  ['demo', async () => (await import('./commands/demo.js')).demoCommand],
  ['sim', async () => (await import('./commands/sim.js')).simCommand],
  ['gen', async () => (await import('./commands/gen.js')).genCommand],
  ['doctor', async () => (await import('./commands/doctor.js')).doctorCommand],
]);

/** The command of that name, loaded; undefined for a name that is not one. */
export async function loadCommand(name: string): Promise<Command | undefined> {
  const load = COMMANDS.get(name);
  if (!load) return undefined;
  const command = await load();
  if (command.name !== name) throw new Error(`the command registered as ${JSON.stringify(name)} calls itself ${JSON.stringify(command.name)}`);
  return command;
}

/** Every command, loaded (for the full usage text only). */
async function allCommands(): Promise<Command[]> {
  return Promise.all([...COMMANDS.keys()].map(async (name) => (await loadCommand(name))!));
}

async function usage(): Promise<string> {
  const commands = await allCommands();
  const width = Math.max(...commands.map((c) => c.name.length));
  return [
    'usage: teamdeck <command> [options]',
    '',
    'Commands:',
    ...commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    '',
    'Every command accepts:',
    ...COMMON_HELP,
    '',
    'Run `teamdeck <command> --help` for its options; `teamdeck --version` for the version.',
  ].join('\n');
}

function commandHelp(c: ParsedCommand): string {
  return [`usage: ${c.usage}`, '', c.summary, '', 'Options:', ...c.help, ...COMMON_HELP].join('\n');
}

/** Runs one command and returns its exit code: 0 done, 1 internal error, 2 usage error or refusal. */
export async function main(argv: string[], io: Io = processIo()): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined) {
    io.err(await usage());
    return EXIT.refused;
  }
  if (name === '--version' || name === '-V' || name === 'version') {
    io.out(`teamdeck ${await packageVersion()}`);
    return EXIT.ok;
  }
  if (name === '--help' || name === '-h' || name === 'help') {
    const which = rest[0] ? await loadCommand(rest[0]) : undefined;
    if (which && 'runArgv' in which) return which.runArgv(['--help'], io);
    io.out(which ? commandHelp(which) : await usage());
    return EXIT.ok;
  }
  const command = await loadCommand(name);
  if (!command) {
    io.err(`teamdeck: unknown command ${JSON.stringify(name)}\n`);
    io.err(await usage());
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

/**
 * One line on stderr for anything a command threw, and its exit code, by the error's code:
 * what the user can act on (a refusal, an unknown team, a busy state dir) without a stack trace.
 */
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
    // A request another engine would not run (it failed validation there): a refusal like any other.
    case 'invalid':
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

/** This checkout's version, from its package.json (the bundle finds it from where its source was). */
async function packageVersion(): Promise<string> {
  const { readFile } = await import('node:fs/promises');
  const pkg = JSON.parse(await readFile(new URL('../../package.json', import.meta.url), 'utf8')) as { version?: string };
  return pkg.version ?? 'unknown';
}

function oneLine(s: string): string {
  return s.replace(/\s*\n\s*/g, ' ').trim();
}
