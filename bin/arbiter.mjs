#!/usr/bin/env node
// `npx arbiter verify <file|url>`, `arbiter trust …`, `arbiter export …`: runs the
// TypeScript verifier (verifier/) through tsx, no build step.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../verifier/main.ts');
process.exitCode = await main(process.argv.slice(2));
