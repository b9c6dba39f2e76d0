import { writeFile } from 'node:fs/promises';
import { inputLimit } from './inputLimit';
import type { Io } from './io';
import { exportText } from './loadExport';
import { exportSource } from './exportSource';
import { lastValue, parseArguments, UsageError } from './parseArguments';
import { printableJson } from './printable';
import { isUrl, UnusableInput } from './readSource';

/** `export LINK|URL [--token T] [-o FILE] [--max-bytes N]`: GET /games/{id}/export (a web app link's token, or --token), to a file or stdout. */
export async function exportCommand(args: readonly string[], io: Io): Promise<number> {
  const parsed = parseArguments(args, { '--token': 'string', '--output': 'string', '--max-bytes': 'string' }, { '-o': '--output' });
  const [source, ...extra] = parsed.positionals;
  if (source === undefined || extra.length > 0 || !isUrl(source)) throw new UsageError("export takes one game's link or URL");
  const resolved = exportSource(source, lastValue(parsed, '--token') ?? io.env.ARBITER_TOKEN);
  if (resolved.kind !== 'url') throw new UsageError("export takes one game's link or URL");
  const text = await exportText(resolved, inputLimit(lastValue(parsed, '--max-bytes'), io.env), { onWait: (seconds) => io.err(`the server is making the export; asking again in ${seconds} s`) });
  const output = lastValue(parsed, '--output');
  if (output === undefined) {
    io.write(printableJson(text));
    return 0;
  }
  try {
    await writeFile(output, text);
  } catch (error) {
    throw new UnusableInput(`cannot write ${JSON.stringify(output)} (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  io.err(`wrote ${Buffer.byteLength(text)} bytes from ${resolved.url.href} to ${output}`);
  return 0;
}
