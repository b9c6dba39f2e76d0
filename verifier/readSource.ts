import { open } from 'node:fs/promises';

/** Exports larger than this are refused (a file before a byte is read); --max-bytes or $ARBITER_MAX_BYTES change it. */
export const MAX_INPUT_BYTES = 50 * 1024 * 1024;

/** Input that cannot be used (exit code 2), said in words. */
export class UnusableInput extends Error {}

export class MissingFile extends UnusableInput {}

const READ_CHUNK_BYTES = 1024 * 1024;
const NEWLINE = 0x0a;

export function isUrl(source: string): boolean {
  return /^https?:\/\//i.test(source);
}

/** A local file as text: its size is checked before it is read, and it must be UTF-8. */
export async function readFileText(path: string, limit = MAX_INPUT_BYTES): Promise<string> {
  return wholeText(fileBytes(path, limit), JSON.stringify(path));
}

/** GET a URL as text, with an optional bearer token; the body is cut off at the limit. */
export async function fetchText(url: URL, token: string | undefined, limit = MAX_INPUT_BYTES, wait?: ExportWait): Promise<string> {
  return wholeText(urlBytes(url, token, limit, wait), url.href);
}

/** The bytes of a file or a URL, a chunk at a time, refused once they pass the limit. */
export function sourceBytes(source: string | URL, token: string | undefined, limit = MAX_INPUT_BYTES): AsyncGenerator<Uint8Array> {
  return source instanceof URL ? urlBytes(source, token, limit) : fileBytes(source, limit);
}

/** A file's bytes: its size is checked before it is read, and again as it is read (it may grow). */
export async function* fileBytes(path: string, limit = MAX_INPUT_BYTES): AsyncGenerator<Uint8Array> {
  const name = JSON.stringify(path);
  let handle;
  try {
    handle = await open(path, 'r');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new MissingFile(`there is no file ${name}`);
    if (code === 'EACCES' || code === 'EPERM') throw new UnusableInput(`${name} cannot be read: permission denied`);
    throw new UnusableInput(`${name} cannot be opened (${code ?? 'error'})`);
  }
  try {
    let size = 0;
    try {
      const stat = await handle.stat();
      if (!stat.isFile()) throw new UnusableInput(`${name} is not a file`);
      if (stat.size > limit) throw new UnusableInput(`${name} is ${megabytes(stat.size)}; files over ${megabytes(limit)} are refused`);
    } catch (error) {
      throw readError(error, name);
    }
    for (;;) {
      let chunk: Uint8Array;
      try {
        const buffer = Buffer.allocUnsafe(READ_CHUNK_BYTES);
        const { bytesRead } = await handle.read(buffer, 0, READ_CHUNK_BYTES, null);
        chunk = buffer.subarray(0, bytesRead);
      } catch (error) {
        throw readError(error, name);
      }
      if (chunk.byteLength === 0) return;
      size += chunk.byteLength;
      if (size > limit) throw new UnusableInput(`${name} is over ${megabytes(limit)}; files over ${megabytes(limit)} are refused`);
      yield chunk;
    }
  } finally {
    await handle.close();
  }
}

/**
 * A URL's body, with an optional bearer token. fetch undoes gzip, deflate and brotli, so
 * the limit counts the bytes as they come out of it: a small compressed body that would
 * unpack to gigabytes is cut off at the limit.
 */
export async function* urlBytes(url: URL, token: string | undefined, limit = MAX_INPUT_BYTES, wait: ExportWait = {}): AsyncGenerator<Uint8Array> {
  let response = await get(url, token);
  // A tournament export is made by a job: 202 and where to ask again, until a 303 to the file (which fetch follows).
  const deadline = Date.now() + (wait.maxMs ?? EXPORT_WAIT_MS);
  for (let looks = 0; response.status === 202; looks++) {
    await response.body?.cancel().catch(() => undefined);
    const location = response.headers.get('location');
    let next: URL;
    try {
      next = new URL(location ?? '', url);
    } catch {
      throw new UnusableInput(`${url.href} answers 202 without a usable Location`);
    }
    // The token goes to the server it was given for, never to another origin.
    if (!location || next.origin !== url.origin) throw new UnusableInput(`${url.href} answers 202 without a Location on the same server`);
    const seconds = Math.min(Math.max(Number(response.headers.get('retry-after')) || 1, 1), MAX_RETRY_AFTER_SECONDS);
    if (looks >= MAX_EXPORT_LOOKS || Date.now() + seconds * 1000 > deadline) {
      throw new UnusableInput(`${url.href} was still making the export after ${Math.round((wait.maxMs ?? EXPORT_WAIT_MS) / 60_000)} minutes: run the command again later (the export being made is not lost)`);
    }
    wait.onWait?.(seconds);
    await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
    response = await get(next, token);
  }
  const declared = Number(response.headers.get('content-length'));
  if (declared > limit) {
    await response.body?.cancel().catch(() => undefined);
    throw new UnusableInput(`${url.href} answers ${megabytes(declared)}; over ${megabytes(limit)} is refused`);
  }
  if (!response.ok) {
    const answered = await wholeText(bodyBytes(response, url, Math.min(limit, 64 * 1024)), url.href).catch(() => '');
    // A server that echoes the token it was sent does not get it printed.
    const said = token ? answered.replaceAll(token, '…') : answered;
    throw new UnusableInput(refusal(url, response, said, token !== undefined && token !== ''));
  }
  if (/^text\/html\b/i.test(response.headers.get('content-type') ?? '')) {
    await response.body?.cancel().catch(() => undefined);
    throw new UnusableInput(`${url.href} answers a web page, not an export: is ${url.origin} an Arbiter server? Give a game's link as the web app shows it (…/#/games/{id}?token=…), or an export file`);
  }
  yield* bodyBytes(response, url, limit);
}

/** How long `verify` and `export` wait for a tournament export being made, at most (a 200-game round takes well under a minute). */
export const EXPORT_WAIT_MS = 10 * 60_000;
/** A server's Retry-After is followed up to this many seconds, and asked at most this many times. */
const MAX_RETRY_AFTER_SECONDS = 30;
const MAX_EXPORT_LOOKS = 600;

export interface ExportWait {
  /** Default EXPORT_WAIT_MS. */
  maxMs?: number;
  /** Told before each wait, in seconds (a message for the person waiting). */
  onWait?: (seconds: number) => void;
}

async function get(url: URL, token: string | undefined): Promise<Response> {
  try {
    return await fetch(url, { headers: token ? { authorization: `Bearer ${token}` } : {}, signal: AbortSignal.timeout(60_000) });
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause?.code;
    throw new UnusableInput(`cannot reach ${url.href}${cause ? ` (${cause})` : ''}`);
  }
}

/** A refused request in words: the server's own message when it gives one (Arbiter's `{ error: { code, message } }`). */
function refusal(url: URL, response: Response, said: string, tokenGiven: boolean): string {
  let message = said.slice(0, 300);
  try {
    const error = (JSON.parse(said) as { error?: { code?: unknown; message?: unknown } } | null)?.error;
    if (typeof error?.message === 'string') message = `${typeof error.code === 'string' ? `${error.code}: ` : ''}${error.message.slice(0, 300)}`;
  } catch {
    if (/^\s*</.test(said)) message = 'a web page';
  }
  const answer = `${url.href} answers HTTP ${response.status}${message ? ` (${message})` : ''}`;
  if (response.status === 401 && !tokenGiven) return `${answer}: it needs a token: give the link with its token (…/#/games/{id}?token=…), or --token, or $ARBITER_TOKEN`;
  if (response.status === 401 || response.status === 403) return `${answer}: the token was refused. A link's token may have been revoked or reissued, or the link cut short: ask your organizer for a new one`;
  if (response.status === 404) return `${answer}: there is no such game or tournament on this server`;
  return answer;
}

async function* bodyBytes(response: Response, url: URL, limit: number): AsyncGenerator<Uint8Array> {
  if (!response.body) return;
  let size = 0;
  let complete = false;
  const reader = response.body.getReader();
  try {
    for (;;) {
      let next: Awaited<ReturnType<typeof reader.read>>;
      try {
        next = await reader.read();
      } catch (error) {
        const cause = (error as { cause?: { code?: string } }).cause?.code ?? (error as { code?: string }).code;
        throw new UnusableInput(`${url.href} broke off its answer${cause ? ` (${cause})` : ''}`);
      }
      if (next.done) {
        complete = true;
        return;
      }
      size += next.value.byteLength;
      if (size > limit) throw new UnusableInput(`${url.href} answers more than ${megabytes(limit)} (counted unpacked), which is refused`);
      yield next.value;
    }
  } finally {
    if (!complete) await reader.cancel().catch(() => undefined);
  }
}

/**
 * The lines of a text, decoded from UTF-8 one at a time, without their '\n': only one
 * line is held. A '\n' byte never occurs inside a multi-byte UTF-8 character, so cutting
 * at it first decodes exactly as the whole text would.
 */
export async function* utf8Lines(chunks: AsyncIterable<Uint8Array>, name: string): AsyncGenerator<string> {
  const firstLine = new TextDecoder('utf-8', { fatal: true });
  const laterLines = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  let pending: Uint8Array[] = [];
  let first = true;
  const decode = (parts: Uint8Array[]) => {
    const decoder = first ? firstLine : laterLines;
    first = false;
    try {
      return decoder.decode(parts.length === 1 ? parts[0] : Buffer.concat(parts));
    } catch {
      throw new UnusableInput(`${name} is not UTF-8 text`);
    }
  };
  for await (const chunk of chunks) {
    let start = 0;
    for (let end = chunk.indexOf(NEWLINE); end !== -1; end = chunk.indexOf(NEWLINE, start)) {
      pending.push(chunk.subarray(start, end));
      yield decode(pending);
      pending = [];
      start = end + 1;
    }
    if (start < chunk.byteLength) pending.push(chunk.subarray(start));
  }
  yield decode(pending);
}

async function wholeText(chunks: AsyncIterable<Uint8Array>, name: string): Promise<string> {
  const lines: string[] = [];
  for await (const line of utf8Lines(chunks, name)) lines.push(line);
  return lines.join('\n');
}

function readError(error: unknown, name: string): UnusableInput {
  if (error instanceof UnusableInput) return error;
  return new UnusableInput(`${name} cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
}

export function megabytes(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1).replace(/\.0$/, '')} MB`;
}
