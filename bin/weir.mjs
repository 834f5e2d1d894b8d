#!/usr/bin/env node
// The CLI runs the compiled bundle (`npm run build`, or built here on first use and whenever a
// source changed: bin/cli-bundle.mjs). WEIR_DEV=1 or a leading --dev runs the TypeScript sources
// through tsx instead, as does an install where the bundle can be neither found nor built.
import { pathToFileURL } from 'node:url';
import { cliBundle } from './cli-bundle.mjs';

const argv = process.argv.slice(2);
const dev = argv[0] === '--dev' || process.env.WEIR_DEV === '1';
if (argv[0] === '--dev') argv.shift();
const bundle = dev ? null : cliBundle();
let main;
if (bundle) {
  ({ main } = await import(pathToFileURL(bundle).href));
} else {
  const { register } = await import('tsx/esm/api');
  register();
  ({ main } = await import('../engine/cli/main.ts'));
}
process.exitCode = await main(argv);
