// Entry of the standalone verifier (dist/arbiter-verify.mjs, GET /verifier.mjs):
// `node arbiter-verify.mjs game.json --trust ed25519:…` verifies; the other commands work too.
import { main } from './main';

const COMMANDS = new Set(['verify', 'trust', 'export', 'stats', 'help', '--help', '-h']);
const args = process.argv.slice(2);
process.exitCode = await main(args.length === 0 || COMMANDS.has(args[0]) ? args : ['verify', ...args]);
