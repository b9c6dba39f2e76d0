import { JSON_LIMITS, parseStrictJson, type JsonLimits } from '../domain/json/parseStrictJson';
import { isTournamentHeader } from '../domain/verify/tournamentExport';
import { fetchText, isUrl, MAX_INPUT_BYTES, readFileText, sourceBytes, UnusableInput, utf8Lines } from './readSource';

/** The URL of an export: a game's or a tournament's URL gains `/export`. */
export function exportUrl(source: string): URL {
  let url: URL;
  try {
    url = new URL(source);
  } catch {
    throw new UnusableInput(`${JSON.stringify(source)} is not a URL`);
  }
  if (/\/(games|tournaments)\/[^/]+\/?$/.test(url.pathname)) url.pathname = `${url.pathname.replace(/\/$/, '')}/export`;
  return url;
}

/** The raw text of an export, from a file or a URL. */
export async function exportText(source: string, token: string | undefined, limit = MAX_INPUT_BYTES): Promise<string> {
  return isUrl(source) ? fetchText(exportUrl(source), token, limit) : readFileText(source, limit);
}

export function parseExport(text: string, source: string, limits: JsonLimits = JSON_LIMITS): unknown {
  try {
    return parseStrictJson(text, limits);
  } catch (error) {
    throw new UnusableInput(`${JSON.stringify(source)} is not valid JSON: ${(error as Error).message}`);
  }
}

/** One game's export, parsed; or a tournament's, as lines still to be read (the header first). */
export type OpenedExport = { kind: 'game'; bundle: unknown } | { kind: 'tournament'; lines: AsyncIterable<string> };

/**
 * Reads an export from a file or a URL, at most `limit` bytes (unpacked). The first line
 * decides: a tournament header leaves the rest to be read a line at a time; otherwise the
 * export is one JSON value, parsed whole (a text on one line is parsed once).
 */
export async function openExport(source: string, token: string | undefined, limit = MAX_INPUT_BYTES): Promise<OpenedExport> {
  const name = isUrl(source) ? exportUrl(source) : source;
  const lines = utf8Lines(sourceBytes(name, token, limit), isUrl(source) ? (name as URL).href : JSON.stringify(source));
  const limits = jsonLimitsFor(limit);
  const first = await lines.next();
  const firstLine = first.done ? '' : first.value;
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
    throw new UnusableInput(`${JSON.stringify(source)} is not valid JSON: ${(parsedFirst.error as Error).message}`);
  }
  return { kind: 'game', bundle: parseExport([firstLine, ...rest].join('\n'), source, limits) };
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
