import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { citationsIn, commentedFiles, commentsOf } from './sourceComments';

const ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)));
/** The code whose comments cite documents: every folder of the project but tests, benchmarks and the docs themselves. */
const SCANNED = ['domain', 'functions', 'infra', 'verifier', 'web', 'bin', 'clients'];

function markdownUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return markdownUnder(path);
    return entry.name.endsWith('.md') ? [path] : [];
  });
}

const isFileInRepo = (path: string) => (path === ROOT || path.startsWith(ROOT + sep)) && existsSync(path) && statSync(path).isFile();

/** A document exists when the cited path does (from the citing file, the repository root or docs/), or a bare name is README.md or a page of docs/. */
function documentExists(citingFile: string, document: string, docsByName: ReadonlySet<string>): boolean {
  const candidates = [resolve(dirname(citingFile), document), resolve(ROOT, document), resolve(ROOT, 'docs', document)];
  if (candidates.some(isFileInRepo)) return true;
  return !document.includes('/') && docsByName.has(document);
}

describe('documents cited in comments', () => {
  it('are read from comments only: not from strings, templates, regular expressions or web addresses', () => {
    const source = [
      "const page = 'strings.md'; // see trust.md §4",
      'const pattern = /["\'`]\\/\\/ regex.md/; /* and docs/push.md */',
      'const note = `template.md ${page} // still-template.md`;',
      '/**',
      ' * The spec: https://example.com/specs/remote.md, and ../docs/fairness.md.',
      ' */',
      'export const x = [pattern, note]; // README.md',
    ].join('\n');
    const cited = commentsOf('sample.ts', source).flatMap(citationsIn);
    expect(cited).toEqual([
      { line: 1, document: 'trust.md' },
      { line: 2, document: 'docs/push.md' },
      { line: 5, document: '../docs/fairness.md' },
      { line: 7, document: 'README.md' },
    ]);
  });

  it('are read from the comments of Java and Promela too', () => {
    const java = ['// see vassal.md', 'String s = "// not.md"; char c = \'"\';', '/* trust.md §3 */ int n = 1 / 2; // http-api.md'].join('\n');
    expect(commentsOf('Kit.java', java).flatMap(citationsIn)).toEqual([
      { line: 1, document: 'vassal.md' },
      { line: 3, document: 'trust.md' },
      { line: 3, document: 'http-api.md' },
    ]);
  });

  it('exist in the repository: docs/, README.md, or the path the comment gives', () => {
    const docsByName = new Set([...markdownUnder(join(ROOT, 'docs')).map((path) => path.slice(path.lastIndexOf(sep) + 1)), 'README.md']);
    const missing: string[] = [];
    let citations = 0;
    for (const folder of SCANNED) {
      for (const file of commentedFiles(join(ROOT, folder))) {
        for (const comment of commentsOf(file, readFileSync(file, 'utf8'))) {
          for (const { line, document } of citationsIn(comment)) {
            citations++;
            if (!documentExists(file, document, docsByName)) missing.push(`${relative(ROOT, file)}:${line} cites ${document}, which is not in the repository`);
          }
        }
      }
    }
    // The scan saw the comments: the code cites its specifications in many places.
    expect(citations).toBeGreaterThan(0);
    expect(missing).toEqual([]);
  });
});
