#!/usr/bin/env node
// meshscope CLI: runs the compiled bundle of server/cli/main.ts (scripts/build-cli.mjs rebuilds it when a
// source it was built from is newer; MESHSCOPE_CLI_TSX=1 runs the TypeScript through tsx instead). The
// bundle loads each command's chunk only when that command runs.
import { cliModule } from '../scripts/build-cli.mjs';

const { main } = await import(await cliModule());
const code = await main(process.argv.slice(2));
// Let stdout drain before exiting (large config dumps piped to another process).
process.exitCode = code;
