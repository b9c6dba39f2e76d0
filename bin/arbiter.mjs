#!/usr/bin/env node
// `npx arbiter verify <file|link|url>`, `npx arbiter trust …`, `npx arbiter export …` in a
// clone (package.json "bin"): runs the TypeScript verifier (verifier/) through tsx, no build step.
import { fileURLToPath } from 'node:url';
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../verifier/main.ts');
const { commandName } = await import('../verifier/commandName.ts');
const { processIo } = await import('../verifier/io.ts');
const clone = fileURLToPath(new URL('..', import.meta.url));
process.exitCode = await main(process.argv.slice(2), processIo(commandName(fileURLToPath(import.meta.url), process.cwd(), clone)));
