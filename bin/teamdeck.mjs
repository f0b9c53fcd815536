#!/usr/bin/env node
// The `teamdeck` command. It runs the TypeScript sources through tsx so that the
// command works straight after `npm install`, with no build step.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
