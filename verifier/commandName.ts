import { isAbsolute, relative, sep } from 'node:path';

/** In a clone of the repository: package.json's "bin" names `arbiter`, and npx finds it from any folder of the clone. */
export const CLONE_COMMAND = 'npx arbiter';

/**
 * How the person runs the CLI, for the usage and every command line it suggests: `npx arbiter`
 * through the clone's bin, when they stand inside the clone; otherwise `node` and the script
 * as they can reach it from where they are (`node verifier.mjs` for the file downloaded from
 * GET /verifier.mjs into the current folder).
 */
export function commandName(script: string, cwd: string, clone?: string): string {
  if (clone !== undefined && isInside(cwd, clone)) return CLONE_COMMAND;
  const path = relative(cwd, script);
  const reachable = path !== '' && !path.startsWith(`..${sep}`) && !isAbsolute(path) ? path : script;
  return `node ${shellWord(reachable)}`;
}

function isInside(folder: string, root: string): boolean {
  const path = relative(root, folder);
  return path === '' || (!path.startsWith(`..${sep}`) && path !== '..' && !isAbsolute(path));
}

/** A word as the shell takes it, quoted only when it needs to be. */
export function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/**
 * A failure reason of the domain's verifier with its suggestion in this CLI's words: the
 * domain, shared with the web app, writes the command as `arbiter trust add`.
 */
export function inCommandWords(reason: string, command: string): string {
  return reason.replaceAll('arbiter trust add', `${command} trust add`);
}
