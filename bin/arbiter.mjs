#!/usr/bin/env node
// `npx arbiter verify <file|url>`: runs the TypeScript CLI through tsx, no build step.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../functions/cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
