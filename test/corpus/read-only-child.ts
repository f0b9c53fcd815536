// Sends one message as an unprivileged process (the read-only case's fallback when it runs as
// root and files cannot be made immutable): prints the outcome as one JSON line.
import { TeamService } from '../../src/engine/service/team-service.js';

const [root, stateDir, team, to, text] = process.argv.slice(2) as [string, string, string, string, string];
const svc = new TeamService({ teamsRoot: root, stateDir, watch: false });
await svc.start();
let out: Record<string, unknown>;
try {
  const r = await svc.send({ team, to, text });
  out = { status: r.status, reason: r.reason };
} catch (e) {
  out = { error: (e as Error).message };
}
await svc.stop();
process.stdout.write(JSON.stringify(out) + '\n');
