// `teamdeck export`: a member's thread (--with) or the whole team as Markdown or JSON, on stdout
// or into a file. The file is written whole or not at all (a temporary file beside it, then
// linked or renamed into place), and an existing file is replaced only with --force.
import { randomBytes } from 'node:crypto';
import { link, lstat, rename, rm, stat, writeFile } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import type { ExportFormat } from '../../shared/contract.js';
import { TeamdeckError } from '../../engine/errors.js';
import { noPositionals, requireOpt, stringOpt, UsageError } from '../args.js';
import type { Command } from '../command.js';
import { withTeam } from '../service.js';

function isTimeZone(z: string): boolean {
  if (!/^[A-Za-z0-9_+\-/]{1,64}$/.test(z)) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: z });
    return true;
  } catch {
    return false;
  }
}

/** A file this command will not write: exit 2 with the reason. */
class OutputRefused extends TeamdeckError {
  constructor(message: string) {
    super('refused', message);
  }
}

function formatOf(v: string): ExportFormat {
  if (v === 'md' || v === 'json') return v;
  throw new UsageError(`--format must be md or json, not ${JSON.stringify(v)}`);
}

/** Refuses a folder, a missing parent folder, and an existing file without --force; before the engine is opened. */
async function checkOut(out: string, force: boolean): Promise<void> {
  const st = await lstat(out).catch((e: NodeJS.ErrnoException) => {
    if (e.code === 'ENOENT') return undefined;
    throw new OutputRefused(`cannot use ${out}: ${e.code ?? e.message}`);
  });
  if (st?.isDirectory()) throw new OutputRefused(`${out} is a folder; give the file to write, e.g. ${join(out, 'thread.md')}`);
  if (st && !force) throw new OutputRefused(`${out} already exists; pass --force to replace it`);
  // The lstat above already refused a path it could not resolve: what fails here is a folder not there.
  const parent = await stat(dirname(out)).catch(() => undefined);
  if (!parent?.isDirectory()) throw new OutputRefused(`the folder ${dirname(out)} does not exist`);
}

/** Writes `text` to `out` in one step: a reader sees the old file or the whole new one, never a part. */
async function writeWhole(out: string, text: string, force: boolean): Promise<void> {
  const tmp = join(dirname(out), `.${basename(out)}.${randomBytes(6).toString('hex')}.tmp`);
  await writeFile(tmp, text, { flag: 'wx' }).catch((e: NodeJS.ErrnoException) => {
    throw new OutputRefused(`cannot write in ${dirname(out)}: ${e.code ?? e.message}`);
  });
  try {
    if (force) {
      // Nothing there that we can look at: the rename says what, if anything, is wrong.
      if ((await lstat(out).catch(() => undefined))?.isDirectory()) throw new OutputRefused(`${out} is a folder`);
      await rename(tmp, out);
      return;
    }
    // link() never replaces: a file that appeared since the check is refused, not overwritten.
    await link(tmp, out).catch(async (e: NodeJS.ErrnoException) => {
      if (e.code === 'EEXIST') throw new OutputRefused(`${out} already exists; pass --force to replace it`);
      // A file system without hard links: the check above is all there is.
      if (e.code !== 'EPERM' && e.code !== 'ENOTSUP' && e.code !== 'EOPNOTSUPP' && e.code !== 'ENOSYS') throw e;
      // Nothing there that we can look at: the rename says what, if anything, is wrong.
      if (await lstat(out).catch(() => undefined)) throw new OutputRefused(`${out} already exists; pass --force to replace it`);
      await rename(tmp, out);
    });
  } finally {
    await rm(tmp, { force: true });
  }
}

export const exportCommand: Command = {
  name: 'export',
  summary: 'a thread (--with) or the whole team as Markdown or JSON, to stdout or a file',
  usage: 'teamdeck export --team T [--with M] --format md|json [--out FILE [--force]]',
  help: [
    '  --team T        team folder name or team name',
    '  --with M        the member whose thread with you is exported (default: every message of the team)',
    '  --format F      md (for reading) or json (teamdeck-export version 1, see the README)',
    '  --out FILE      write the file (whole or not at all) instead of printing it; with --json,',
    '                  print {"path","bytes","messages"} instead of a sentence',
    '  --force         replace FILE when it exists',
    '  --time-zone Z   local times in this IANA time zone (default: this machine\'s)',
  ],
  options: { team: { type: 'string' }, with: { type: 'string' }, format: { type: 'string' }, out: { type: 'string' }, force: { type: 'boolean' }, 'time-zone': { type: 'string' } },
  async run(p, io) {
    noPositionals(p);
    const teamArg = requireOpt(p, 'team');
    const member = stringOpt(p, 'with');
    if (member === '') throw new UsageError('--with needs a member name');
    const format = formatOf(requireOpt(p, 'format'));
    const outArg = stringOpt(p, 'out');
    if (outArg === '') throw new UsageError('--out needs a file name');
    const force = p.values.force === true;
    if (force && outArg === undefined) throw new UsageError('--force only goes with --out');
    // The engine may run in another process (the app): the local times are this terminal's.
    const timeZone = stringOpt(p, 'time-zone') ?? Intl.DateTimeFormat().resolvedOptions().timeZone;
    if (!isTimeZone(timeZone)) throw new UsageError(`--time-zone must be a time zone name such as Europe/Paris or UTC, not ${JSON.stringify(timeZone)}`);
    const out = outArg === undefined ? undefined : resolve(outArg);
    if (out) await checkOut(out, force);
    return withTeam(p.common, io, teamArg, async (s, team) => {
      const file = await s.service.export({ team: team.id, format, timeZone, ...(member === undefined ? {} : { member }) });
      if (!out) {
        io.out(file.text.replace(/\n$/, ''));
        return 0;
      }
      await writeWhole(out, file.text, force);
      const bytes = Buffer.byteLength(file.text);
      if (p.common.json) io.out(JSON.stringify({ path: out, bytes, messages: file.count }));
      else io.out(`Exported ${file.count} message${file.count === 1 ? '' : 's'} to ${out} (${bytes} bytes).`);
      return 0;
    });
  },
};
