#!/usr/bin/env node
// The `teamdeck` command under the path scripts and tests run (`node bin/teamdeck.mjs …`): the
// same command as bin/teamdeck.cjs, the package's bin, which starts some 20-30 ms sooner.
import './teamdeck.cjs';
