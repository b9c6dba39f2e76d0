import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** Every .java file under `dir`, at any depth: what the kit's, the proof's and VASSAL's builds hand javac. */
export function javaFiles(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? javaFiles(path) : name.endsWith('.java') ? [path] : [];
  });
}
