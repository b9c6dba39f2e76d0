import { JSON_LIMITS, parseStrictJson, type JsonLimits } from '../domain/json/parseStrictJson';
import { isTournamentHeader } from '../domain/verify/tournamentExport';
import { exportSource, type ExportSource } from './exportSource';
import { fileBytes, MAX_INPUT_BYTES, readFileText, fetchText, UnusableInput, urlBytes, utf8Lines, type ExportWait } from './readSource';

/** The URL of an export: a game's or a tournament's URL gains `/export`, a web app link becomes its export's URL. */
export function exportUrl(source: string): URL {
  const resolved = exportSource(source, undefined);
  if (resolved.kind !== 'url') throw new UnusableInput(`${resolved.shown} is not a URL`);
  return resolved.url;
}

/** The raw text of an export, from a file or a URL. */
export async function exportText(source: ExportSource, limit = MAX_INPUT_BYTES, wait?: ExportWait): Promise<string> {
  return source.kind === 'url' ? fetchText(source.url, source.token, limit, wait) : readFileText(source.path, limit);
}

/** `shown`: the export's name in messages, quoted if it is a file's. */
export function parseExport(text: string, shown: string, limits: JsonLimits = JSON_LIMITS): unknown {
  try {
    return parseStrictJson(text, limits);
  } catch (error) {
    throw new UnusableInput(`${shown} is not valid JSON: ${(error as Error).message}`);
  }
}

/** One game's export, parsed; or a tournament's, as lines still to be read (the header first). */
export type OpenedExport = { kind: 'game'; bundle: unknown } | { kind: 'tournament'; lines: AsyncIterable<string> };

/**
 * Reads an export from a file or a URL, at most `limit` bytes (unpacked). The first line
 * decides: a tournament header leaves the rest to be read a line at a time; otherwise the
 * export is one JSON value, parsed whole (a text on one line is parsed once).
 */
export async function openExport(source: ExportSource, limit = MAX_INPUT_BYTES, wait?: ExportWait): Promise<OpenedExport> {
  const bytes = source.kind === 'url' ? urlBytes(source.url, source.token, limit, wait) : fileBytes(source.path, limit);
  const lines = utf8Lines(bytes, source.kind === 'url' ? source.url.href : source.shown);
  const limits = jsonLimitsFor(limit);
  const first = await lines.next();
  const firstLine = first.done ? '' : first.value;
  if (looksLikeHtml(firstLine)) throw notAnExportButAPage(source.shown);
  let parsedFirst: { value: unknown } | { error: unknown };
  try {
    parsedFirst = { value: parseStrictJson(firstLine, limits) };
  } catch (error) {
    parsedFirst = { error };
  }
  if ('value' in parsedFirst && isTournamentHeader(parsedFirst.value)) return { kind: 'tournament', lines: prepended(firstLine, lines) };
  const rest: string[] = [];
  for await (const line of lines) rest.push(line);
  if (rest.every((line) => /^[ \t\r]*$/.test(line))) {
    if ('value' in parsedFirst) return { kind: 'game', bundle: parsedFirst.value };
    throw new UnusableInput(`${source.shown} is not valid JSON: ${(parsedFirst.error as Error).message}`);
  }
  const text = [firstLine, ...rest].join('\n');
  if (looksLikeHtml(text)) throw notAnExportButAPage(source.shown);
  return { kind: 'game', bundle: parseExport(text, source.shown, limits) };
}

function looksLikeHtml(text: string): boolean {
  return /^\uFEFF?\s*</.test(text);
}

function notAnExportButAPage(shown: string): UnusableInput {
  return new UnusableInput(`${shown} is a web page (HTML), not an export: save the export itself (the Download button of the game's page, or GET /games/{id}/export), or give the game's link`);
}

/** The parser's limits, raised in proportion when --max-bytes allows more than 50 MB. */
export function jsonLimitsFor(limit: number): JsonLimits {
  const scale = Math.max(1, limit / MAX_INPUT_BYTES);
  return { ...JSON_LIMITS, maxContainers: Math.ceil(JSON_LIMITS.maxContainers * scale), maxValues: Math.ceil(JSON_LIMITS.maxValues * scale) };
}

async function* prepended(first: string, rest: AsyncIterable<string>): AsyncGenerator<string> {
  yield first;
  yield* rest;
}
