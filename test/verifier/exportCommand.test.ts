import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { honestExport, newKey } from '../domain/verify/signedExports';
import { cli, tempDir } from './cliHarness';
import { loopbackServer } from './loopbackServer';

const a = newKey('key-a');
// Pretty-printed with a line separator inside a string, as a server may send it.
const exported = JSON.stringify({ ...honestExport(a), note: 'line\u2028separator' }, null, 2);
let server: Awaited<ReturnType<typeof loopbackServer>>;

beforeAll(async () => {
  server = await loopbackServer((request) => {
    if (request.headers.authorization !== 'Bearer tok-1') return { status: 401, body: '{"error":{"code":"unauthorized"}}' };
    return request.url === '/games/g-test/export' ? { status: 200, body: exported } : { status: 404, body: '{}' };
  });
});
afterAll(async () => {
  await server?.close();
});

describe('arbiter export URL --token T [-o FILE]', () => {
  it('writes GET /games/{id}/export to a file, byte for byte, from the game\'s URL or the export\'s', async () => {
    for (const url of [`${server.url}/games/g-test`, `${server.url}/games/g-test/export`]) {
      const file = join(tempDir(), 'game.json');
      const run = await cli(['export', url, '--token', 'tok-1', '-o', file]);
      expect(run.code).toBe(0);
      expect(readFileSync(file, 'utf8')).toBe(exported);
      expect(run.stderr).toBe(`wrote ${Buffer.byteLength(exported)} bytes from ${server.url}/games/g-test/export to ${file}`);
    }
  });

  it('writes it to stdout without raw line separators, still the same JSON', async () => {
    const run = await cli(['export', `${server.url}/games/g-test`], { env: { ARBITER_TOKEN: 'tok-1' } });
    expect(run.code).toBe(0);
    expect(run.written).not.toContain('\u2028');
    expect(JSON.parse(run.written)).toEqual(JSON.parse(exported));
  });

  it('exits 2 with the server\'s answer when it refuses', async () => {
    const run = await cli(['export', `${server.url}/games/g-test`, '--token', 'wrong']);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      `arbiter: ${server.url}/games/g-test/export answers HTTP 401 ({"error":{"code":"unauthorized"}}): the token was refused. A link's token may have been revoked or reissued, or the link cut short: ask your organizer for a new one`,
    );
  });
});

describe('arbiter verify URL', () => {
  it('fetches the export with the token, then verifies it like a file', async () => {
    const run = await cli(['verify', `${server.url}/games/g-test`, '--token', 'tok-1', '--trust', a.fingerprint]);
    expect(run.code).toBe(0);
    expect(run.lines.at(-1)).toBe('OK');
    const refused = await cli(['verify', `${server.url}/games/g-test`, '--trust', a.fingerprint]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('answers HTTP 401');
  });
});
