import { open } from 'node:fs/promises';

/** Exports larger than this are refused before a byte is read. */
export const MAX_INPUT_BYTES = 50 * 1024 * 1024;

/** Input that cannot be used (exit code 2), said in words. */
export class UnusableInput extends Error {}

export class MissingFile extends UnusableInput {}

const UTF8 = new TextDecoder('utf-8', { fatal: true });

export function isUrl(source: string): boolean {
  return /^https?:\/\//i.test(source);
}

/** A local file as text: its size is checked before it is read, and it must be UTF-8. */
export async function readFileText(path: string, limit = MAX_INPUT_BYTES): Promise<string> {
  let handle;
  try {
    handle = await open(path, 'r');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new MissingFile(`there is no file ${JSON.stringify(path)}`);
    if (code === 'EACCES' || code === 'EPERM') throw new UnusableInput(`${JSON.stringify(path)} cannot be read: permission denied`);
    throw new UnusableInput(`${JSON.stringify(path)} cannot be opened (${code ?? 'error'})`);
  }
  try {
    const stat = await handle.stat();
    if (!stat.isFile()) throw new UnusableInput(`${JSON.stringify(path)} is not a file`);
    if (stat.size > limit) throw new UnusableInput(`${JSON.stringify(path)} is ${megabytes(stat.size)}; files over ${megabytes(limit)} are refused`);
    return decode(await handle.readFile(), JSON.stringify(path));
  } catch (error) {
    if (error instanceof UnusableInput) throw error;
    throw new UnusableInput(`${JSON.stringify(path)} cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  } finally {
    await handle.close();
  }
}

/** GET a URL as text, with an optional bearer token; the body is cut off at the limit. */
export async function fetchText(url: URL, token: string | undefined, limit = MAX_INPUT_BYTES): Promise<string> {
  let response: Response;
  try {
    response = await fetch(url, { headers: token ? { authorization: `Bearer ${token}` } : {}, signal: AbortSignal.timeout(60_000) });
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause?.code;
    throw new UnusableInput(`cannot reach ${url.href}${cause ? ` (${cause})` : ''}`);
  }
  const declared = Number(response.headers.get('content-length'));
  if (declared > limit) {
    await response.body?.cancel();
    throw new UnusableInput(`${url.href} answers ${megabytes(declared)}; over ${megabytes(limit)} is refused`);
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (response.body) {
    for await (const chunk of response.body) {
      size += chunk.byteLength;
      if (size > limit) {
        await response.body.cancel().catch(() => undefined);
        throw new UnusableInput(`${url.href} answers more than ${megabytes(limit)}, which is refused`);
      }
      chunks.push(chunk);
    }
  }
  const text = decode(Buffer.concat(chunks), url.href);
  if (!response.ok) throw new UnusableInput(`${url.href} answers HTTP ${response.status}: ${text.slice(0, 300)}`);
  return text;
}

function decode(bytes: Uint8Array, name: string): string {
  try {
    return UTF8.decode(bytes);
  } catch {
    throw new UnusableInput(`${name} is not UTF-8 text`);
  }
}

function megabytes(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1).replace(/\.0$/, '')} MB`;
}
