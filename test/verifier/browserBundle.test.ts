import { transform } from 'esbuild';
import { createContext, runInContext, type Context } from 'node:vm';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseStrictJson } from '../../domain/json/parseStrictJson';
import type { ExportBundle } from '../../domain/verify/exportBundle';
import { verifyExport } from '../../domain/verify/verifyExport';
import { buildBrowserVerifier, bundleForBrowser } from '../../verifier/browserBundle';
import { MAX_VERIFIER_BYTES } from '../../verifier/bundle';
import { copyOf, forged, newKey, rotatedExport } from '../domain/verify/signedExports';
import { serviceExport } from '../support/serviceExport';

let source: string;
let page: Context;
let real: ExportBundle;
let serverFingerprint: string;


/** The bundle's report in the page, as JSON text crosses from it; and Node's, for the same text. */
function verifyInPage(bundle: unknown, trusted: string[]) {
  page.text = JSON.stringify(bundle);
  page.trusted = JSON.stringify(trusted);
  const inPage = JSON.parse(runInContext('JSON.stringify(verifier.verifyExport(verifier.parseStrictJson(text), { trusted: JSON.parse(trusted) }))', page));
  const inNode = verifyExport(parseStrictJson(JSON.stringify(bundle)), { trusted });
  expect(inPage).toEqual(JSON.parse(JSON.stringify(inNode)));
  return inPage as ReturnType<typeof verifyExport>;
}

beforeAll(async () => {
  source = await buildBrowserVerifier();
  ({ bundle: real, fingerprint: serverFingerprint } = await serviceExport('browser'));
  // The ES module as a script, so that node:vm can run it without its module loader.
  const script = (await transform(source, { format: 'iife', globalName: 'verifier' })).code;
  // What a browser page offers, and nothing of Node's: no require, process, Buffer or crypto module.
  page = createContext({ TextEncoder, TextDecoder, console });
  runInContext(script, page);
});

describe('the browser verifier (verifier/browserBundle.ts)', () => {
  it('runs where there is no require, process, Buffer or Node module', () => {
    expect(runInContext('[typeof require, typeof process, typeof Buffer, typeof crypto, typeof module]', page)).toEqual(['undefined', 'undefined', 'undefined', 'undefined', 'undefined']);
    expect(runInContext('Object.keys(verifier).sort()', page)).toEqual(['examineExport', 'parseStrictJson', 'verifyExport']);
  });

  it('verifies a real export whose fingerprint is trusted: exit 0, every die re-derived', () => {
    const report = verifyInPage(real, [serverFingerprint]);
    expect(report).toMatchObject({ ok: true, exitCode: 0, commits: 9, dice: 18, sealed: true, failures: [] });
  });

  it('refuses a copy re-signed with a fresh key (exit 1), and a changed die', () => {
    const forgery = forged(real, newKey(real.keys.keys[0].kid));
    const report = verifyInPage(forgery, [serverFingerprint]);
    expect(report.exitCode).toBe(1);
    expect(report.failures[0]).toMatchObject({ seq: 1, check: 'trust' });
    expect(verifyInPage(forgery, []).exitCode).toBe(3);
    const tampered = copyOf(real);
    const roll = tampered.commits.find((c) => c.dice.length > 0)!;
    roll.dice[0].value = (roll.dice[0].value % 6) + 1;
    expect(verifyInPage(tampered, [serverFingerprint]).exitCode).toBe(1);
  });

  it('follows a key log in the page as in Node', () => {
    const a = newKey('a');
    expect(verifyInPage(rotatedExport(a, newKey('b'), 5), [a.fingerprint])).toMatchObject({ ok: true, exitCode: 0 });
    expect(verifyInPage(rotatedExport(a, newKey('b'), 5, { keyLog: false }), [a.fingerprint]).exitCode).toBe(1);
  });

  it('cannot be built with anything that imports a Node module', async () => {
    await expect(bundleForBrowser("import { createHash } from 'node:crypto'; export const h = createHash;")).rejects.toThrow(/node:crypto/);
    await expect(bundleForBrowser("import { readFileSync } from 'fs'; export const r = readFileSync;")).rejects.toThrow(/"fs"/);
    await expect(bundleForBrowser("export { sha256 } from './domain/crypto/primitives.ts';")).resolves.not.toMatch(/createHash/);
  });

  it('stays small', () => {
    const bytes = Buffer.byteLength(source);
    console.log(`browser verifier: ${(bytes / 1024).toFixed(1)} KB minified`);
    expect(bytes).toBeLessThanOrEqual(MAX_VERIFIER_BYTES);
  });
});
