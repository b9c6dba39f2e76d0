// Entry of the standalone verifier (dist/arbiter-verify.mjs, served at GET /verifier.mjs and
// saved as verifier.mjs): `node verifier.mjs game.json --trust ed25519:…` verifies; the other commands work too.
import { commandName } from './commandName';
import { isCommandWord, main } from './main';
import { processIo } from './io';

const args = process.argv.slice(2);
const io = processIo(commandName(process.argv[1], process.cwd()));
process.exitCode = await main(args.length === 0 || isCommandWord(args[0]) ? args : ['verify', ...args], io);
