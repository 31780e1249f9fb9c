#!/usr/bin/env node
// meshscope CLI: registers tsx's ESM loader, then runs the TypeScript entry (server/cli/main.ts).
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../server/cli/main.ts');
const code = await main(process.argv.slice(2));
// Let stdout drain before exiting (large config dumps piped to another process).
process.exitCode = code;
