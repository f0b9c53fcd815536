// The compatibility run: the contract suite against the pinned Claude Code and the newest
// published native builds, one whole suite per version, and docs/compatibility.md from the results.
//   npm run claude:compat                       # the pin and the newest 3 published versions
//   npm run claude:compat -- --newest 5
//   npm run claude:compat -- --versions 2.1.335,2.1.336
// Each version is fetched into the binary cache first (harness/binary.ts). Release dates come from
// `npm view @anthropic-ai/claude-code-linux-x64 time --json`: the platform package, never the
// launcher package, whose version lags (docs/claude-contract.md#versions). CI runs the pin only.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compareClaudeVersions, parseClaudeVersion } from '../../src/shared/claude-versions.js';
import { ensureClaudeBinary, PINNED_CLAUDE_CODE_VERSION } from './harness/binary.js';

const PLATFORM_PACKAGE = '@anthropic-ai/claude-code-linux-x64';
const REPO = join(import.meta.dirname, '..', '..');
const OUT = join(REPO, 'docs', 'compatibility.md');

interface Outcome {
  version: string;
  released?: string;
  passed: number;
  total: number;
  failed: string[];
  skipped: number;
  /** Why the suite did not run at all (no binary, the run crashed). */
  error?: string;
  seconds: number;
}

function args(argv: string[]): { versions?: string[]; newest: number } {
  let versions: string[] | undefined;
  let newest = 3;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const value = () => {
      const v = a.includes('=') ? a.slice(a.indexOf('=') + 1) : argv[++i];
      if (v === undefined) throw new Error(`${a} needs a value`);
      return v;
    };
    if (a.startsWith('--versions')) versions = value().split(',').map((v) => v.trim()).filter(Boolean);
    else if (a.startsWith('--newest')) newest = Number(value());
    else throw new Error(`unknown argument ${a} (use --versions A,B,… or --newest N)`);
  }
  for (const v of versions ?? []) if (!parseClaudeVersion(v)) throw new Error(`"${v}" is not a version like 2.1.337`);
  if (!Number.isInteger(newest) || newest < 0) throw new Error('--newest takes a whole number');
  return { versions, newest };
}

/** Publication time of each version of the platform package; empty when the registry cannot be asked. */
function releaseTimes(): Map<string, string> {
  const r = spawnSync('npm', ['view', PLATFORM_PACKAGE, 'time', '--json'], { encoding: 'utf8', timeout: 120_000 });
  const out = new Map<string, string>();
  if (r.status !== 0) {
    process.stderr.write(`[compat] npm view ${PLATFORM_PACKAGE} time failed: ${(r.stderr || r.error?.message || '').trim().split('\n')[0]}\n`);
    return out;
  }
  const times = JSON.parse(r.stdout) as Record<string, string>;
  for (const [v, t] of Object.entries(times)) if (parseClaudeVersion(v) && /^\d+\.\d+\.\d+$/.test(v)) out.set(v, t);
  return out;
}

function runSuite(version: string): Outcome {
  const started = Date.now();
  const base: Outcome = { version, passed: 0, total: 0, failed: [], skipped: 0, seconds: 0 };
  const bin = ensureClaudeBinary({ version, log: (l) => process.stderr.write(`[compat] ${l}\n`) });
  if ('skip' in bin) return { ...base, error: bin.skip };
  const scratch = mkdtempSync(join(tmpdir(), 'teamdeck-compat-'));
  const report = join(scratch, 'report.json');
  try {
    process.stderr.write(`[compat] Claude Code ${version}: running the contract suite\n`);
    const r = spawnSync('npx', ['vitest', 'run', '-c', 'vitest.claude.config.mts', '--reporter=json', `--outputFile=${report}`, '--reporter=dot'], {
      cwd: REPO,
      env: { ...process.env, TEAMDECK_CLAUDE_VERSION: version, CI: '' },
      encoding: 'utf8',
      stdio: ['ignore', 'inherit', 'inherit'],
      timeout: 45 * 60_000,
    });
    let json: { numTotalTests: number; numPassedTests: number; numPendingTests?: number; testResults: Array<{ assertionResults: Array<{ status: string; fullName: string }>; message?: string; name: string; status: string }> };
    try {
      json = JSON.parse(readFileSync(report, 'utf8'));
    } catch {
      return { ...base, error: `the suite ended (${r.error?.message ?? `exit ${r.status}`}) without a report`, seconds: (Date.now() - started) / 1000 };
    }
    const failed = json.testResults.flatMap((f) => {
      const tests = f.assertionResults.filter((a) => a.status === 'failed').map((a) => a.fullName);
      // A file that failed outside its tests (a hook): named by its file.
      return tests.length === 0 && f.status === 'failed' ? [`${f.name.slice(f.name.indexOf('test/claude/'))}: ${(f.message ?? 'failed').split('\n')[0]}`] : tests;
    });
    return { ...base, passed: json.numPassedTests, total: json.numTotalTests, skipped: json.numPendingTests ?? 0, failed, seconds: (Date.now() - started) / 1000 };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

function cell(s: string): string {
  return s.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}

function markdown(outcomes: Outcome[], ranAt: Date): string {
  const rows = outcomes.map((o) => {
    const pin = o.version === PINNED_CLAUDE_CODE_VERSION ? ' (pinned)' : '';
    const released = o.released ? o.released.slice(0, 10) : 'unknown';
    const result = o.error ? 'not run' : `${o.passed} of ${o.total} passed${o.skipped ? `, ${o.skipped} skipped` : ''}`;
    const differed = o.error ? cell(o.error) : o.failed.length ? o.failed.map(cell).join('<br>') : 'nothing';
    return `| ${o.version}${pin} | ${released} | ${result} | ${differed} | ${Math.round(o.seconds)} s |`;
  });
  return [
    '# Claude Code compatibility',
    '',
    'Which Claude Code releases Teamdeck\'s contract suite ([test/claude](../test/claude/README.md)) passed on.',
    'Each row is one whole run of the suite against that version\'s native build',
    `(\`${PLATFORM_PACKAGE}\`), offline, against the scripted Messages API. "What differed" names the`,
    'scenarios that failed. The range Teamdeck calls tested is `PROVEN_CLAUDE` in',
    '`src/shared/claude-versions.ts`; what changed between versions, rule by rule, is in',
    '[the contract](claude-contract.md#changes-2-1-337). CI runs the pinned version only; this file is',
    'written by hand with `npm run claude:compat` (see [development](development.md)).',
    '',
    `Last run: ${ranAt.toISOString().slice(0, 16).replace('T', ' ')} UTC.`,
    '',
    '| Claude Code | released | scenarios | what differed | run took |',
    '| --- | --- | --- | --- | --- |',
    ...rows,
    '',
  ].join('\n');
}

function main(): number {
  const a = args(process.argv.slice(2));
  const times = releaseTimes();
  let versions = a.versions;
  if (!versions) {
    const published = [...times.keys()].sort((x, y) => compareClaudeVersions(y, x)!);
    if (published.length === 0 && a.newest > 0) process.stderr.write('[compat] no published versions known: running the pin only\n');
    versions = published.slice(0, a.newest);
  }
  const all = [...new Set([PINNED_CLAUDE_CODE_VERSION, ...versions])].sort((x, y) => compareClaudeVersions(y, x)!);
  process.stderr.write(`[compat] versions: ${all.join(', ')}\n`);
  const outcomes: Outcome[] = [];
  for (const v of all) {
    const o = runSuite(v);
    const t = times.get(v);
    if (t) o.released = t;
    outcomes.push(o);
    process.stderr.write(`[compat] ${v}: ${o.error ?? `${o.passed}/${o.total} passed${o.failed.length ? `; failed: ${o.failed.join('; ')}` : ''}`}\n`);
    // Written after every version, so a long run that is stopped keeps what it learnt.
    writeFileSync(OUT, markdown(outcomes, new Date()));
  }
  process.stdout.write(markdown(outcomes, new Date()));
  return outcomes.every((o) => !o.error && o.failed.length === 0) ? 0 : 1;
}

process.exit(main());
