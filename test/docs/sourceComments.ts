import { readdirSync } from 'node:fs';
import { extname, join } from 'node:path';
import ts from 'typescript';

export interface SourceComment {
  /** 1-based line of the comment's first character. */
  line: number;
  text: string;
}

export interface Citation {
  /** 1-based line of the citation itself. */
  line: number;
  document: string;
}

const SCRIPT_KINDS = new Map<string, ts.ScriptKind>([
  ['.ts', ts.ScriptKind.TS],
  ['.mts', ts.ScriptKind.TS],
  ['.cts', ts.ScriptKind.TS],
  ['.tsx', ts.ScriptKind.TSX],
  ['.js', ts.ScriptKind.JS],
  ['.mjs', ts.ScriptKind.JS],
  ['.cjs', ts.ScriptKind.JS],
]);
/** Languages with C's comments and no regular-expression literals: a plain scan tells comments from strings. */
const C_LIKE = new Set(['.java', '.pml', '.css']);

export const COMMENTED_EXTENSIONS: ReadonlySet<string> = new Set([...SCRIPT_KINDS.keys(), ...C_LIKE]);

/** Every file with comments under `dir`, skipping dependencies and hidden folders. */
export function commentedFiles(dir: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) found.push(...commentedFiles(path));
    else if (COMMENTED_EXTENSIONS.has(extname(entry.name))) found.push(path);
  }
  return found;
}

/**
 * The comments of a source file. TypeScript and JavaScript are parsed, so that a `//` inside
 * a string, a template or a regular expression is not taken for a comment.
 */
export function commentsOf(fileName: string, text: string): SourceComment[] {
  const kind = SCRIPT_KINDS.get(extname(fileName));
  const ranges = kind === undefined ? scannedRanges(text) : parsedRanges(fileName, text, kind);
  const lineOf = lineCounter(text);
  return [...ranges.values()].sort((a, b) => a.pos - b.pos).map((range) => ({ line: lineOf(range.pos), text: text.slice(range.pos, range.end) }));
}

/** The 1-based line of a position, for positions asked in increasing order. */
function lineCounter(text: string): (pos: number) => number {
  let line = 1;
  let counted = 0;
  return (pos) => {
    for (; counted < pos; counted++) if (text.charCodeAt(counted) === 10) line++;
    return line;
  };
}

function parsedRanges(fileName: string, text: string, kind: ts.ScriptKind): Map<number, ts.CommentRange> {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, false, kind);
  const ranges = new Map<number, ts.CommentRange>();
  const collect = (at: number) => {
    // Trailing ranges are those before the first line break, leading ones those after it.
    for (const range of [...(ts.getTrailingCommentRanges(text, at) ?? []), ...(ts.getLeadingCommentRanges(text, at) ?? [])]) ranges.set(range.pos, range);
  };
  const visit = (node: ts.Node) => {
    const children = node.getChildren(source);
    if (children.length === 0) collect(node.getFullStart());
    for (const child of children) visit(child);
  };
  visit(source);
  collect(source.endOfFileToken.getFullStart());
  return ranges;
}

function scannedRanges(text: string): Map<number, ts.CommentRange> {
  const scanner = ts.createScanner(ts.ScriptTarget.Latest, false, ts.LanguageVariant.Standard, text);
  const ranges = new Map<number, ts.CommentRange>();
  for (let kind = scanner.scan(); kind !== ts.SyntaxKind.EndOfFileToken; kind = scanner.scan()) {
    if (kind === ts.SyntaxKind.SingleLineCommentTrivia || kind === ts.SyntaxKind.MultiLineCommentTrivia) {
      ranges.set(scanner.getTokenStart(), { pos: scanner.getTokenStart(), end: scanner.getTokenEnd(), kind });
    }
  }
  return ranges;
}

/**
 * A cited document: a name ending in `.md`, with or without a path (`trust.md`,
 * `docs/push.md`, `../docs/fairness.md`). Part of a web address is not a citation: the
 * character before the name may not be a letter, digit, `.`, `/`, `-` or `_`.
 */
const CITED = /(?<![\w./-])((?:\.{1,2}\/)*[\w-][\w.-]*(?:\/[\w.-]+)*\.md)(?![\w-])/g;

export function citationsIn(comment: SourceComment): Citation[] {
  const found: Citation[] = [];
  comment.text.split(/\r?\n/).forEach((line, offset) => {
    for (const match of line.matchAll(CITED)) found.push({ line: comment.line + offset, document: match[1] });
  });
  return found;
}
