#!/usr/bin/env node
// The CLI runs the TypeScript sources directly through tsx's loader, so `npx weir` needs no build.
import { register } from 'tsx/esm/api';
register();
const { main } = await import('../engine/cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
