import { writeFile } from 'node:fs/promises';
import { inputLimit } from './inputLimit';
import type { Io } from './io';
import { exportText, exportUrl } from './loadExport';
import { lastValue, parseArguments, UsageError } from './parseArguments';
import { printableJson } from './printable';
import { isUrl, UnusableInput } from './readSource';

/** `arbiter export URL --token T [-o FILE] [--max-bytes N]`: GET /games/{id}/export, to a file or stdout. */
export async function exportCommand(args: readonly string[], io: Io): Promise<number> {
  const parsed = parseArguments(args, { '--token': 'string', '--output': 'string', '--max-bytes': 'string' }, { '-o': '--output' });
  const [source, ...extra] = parsed.positionals;
  if (source === undefined || extra.length > 0 || !isUrl(source)) throw new UsageError('export takes the URL of one game');
  const url = exportUrl(source);
  const text = await exportText(url.href, lastValue(parsed, '--token') ?? io.env.ARBITER_TOKEN, inputLimit(lastValue(parsed, '--max-bytes'), io.env));
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
  io.err(`wrote ${Buffer.byteLength(text)} bytes from ${url.href} to ${output}`);
  return 0;
}
