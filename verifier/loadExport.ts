import { parseStrictJson } from '../domain/json/parseStrictJson';
import { fetchText, isUrl, readFileText, UnusableInput } from './readSource';

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
export async function exportText(source: string, token: string | undefined): Promise<string> {
  return isUrl(source) ? fetchText(exportUrl(source), token) : readFileText(source);
}

/** The parsed export, read strictly (duplicate keys, lone surrogates and deep nesting refused). */
export async function loadExport(source: string, token: string | undefined): Promise<unknown> {
  return parseExport(await exportText(source, token), source);
}

export function parseExport(text: string, source: string): unknown {
  try {
    return parseStrictJson(text);
  } catch (error) {
    throw new UnusableInput(`${JSON.stringify(source)} is not valid JSON: ${(error as Error).message}`);
  }
}
