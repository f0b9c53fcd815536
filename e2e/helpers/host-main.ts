// The browser host as the e2e specs start it: `teamdeck serve` in its own process.
import { runServe } from '../../src/cli/serve.js';

process.exitCode = await runServe(process.argv.slice(2));
