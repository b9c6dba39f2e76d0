import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = new URL('../..', import.meta.url).pathname;

function markdownFiles(folder: string): string[] {
  return readdirSync(join(ROOT, folder), { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? markdownFiles(join(folder, entry.name)) : entry.name.endsWith('.md') ? [join(folder, entry.name)] : [],
  );
}

describe("the docs name the verifier's command as people can run it", () => {
  it('never a bare `arbiter verify|trust|export`, which no one has: `node verifier.mjs …` downloaded, `npx arbiter …` in a clone', () => {
    const bare = /(?<!npx |[\w./-])arbiter (verify|trust|export|--help)\b/g;
    const found: string[] = [];
    for (const file of ['README.md', ...markdownFiles('docs')]) {
      const lines = readFileSync(join(ROOT, file), 'utf8').split('\n');
      lines.forEach((line, i) => {
        for (const match of line.matchAll(bare)) found.push(`${file}:${i + 1}: ${match[0]}`);
      });
    }
    expect(found).toEqual([]);
  });
});
