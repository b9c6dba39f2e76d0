import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it, onTestFinished } from 'vitest';
import { checkSigningKeys, CURRENT_SIGNING_KEY_CONTEXT, recordCurrentSigningKey, rotationTarget } from '../../infra/signingKeyGuard';

const run = promisify(execFile);
const ROOT = new URL('../..', import.meta.url).pathname;

describe('the synth-time check of the signing keys', () => {
  it('refuses fewer keys than the generation of the key that signs now, or retiring it; allows the rest', () => {
    expect(() => checkSigningKeys({ signingKeys: 1, currentSigningKey: 2 })).toThrow(/Refusing to deploy with -c signingKeys=1: signing key 2 signs now.*every command would fail.*-c signingKeys=2 or more/);
    // No -c signingKeys at all is a stack of one key.
    expect(() => checkSigningKeys({ currentSigningKey: 3 })).toThrow(/signingKeys=1/);
    expect(() => checkSigningKeys({ signingKeys: 3, retiredSigningKeys: 3, currentSigningKey: 3 })).toThrow(/retiredSigningKeys=3.*Retire at most 2/);
    expect(() => checkSigningKeys({ signingKeys: 2, currentSigningKey: 2 })).not.toThrow();
    expect(() => checkSigningKeys({ signingKeys: 3, retiredSigningKeys: 1, currentSigningKey: '2' })).not.toThrow();
    // Before any rotation there is no marker, and nothing to protect beyond the first key.
    expect(() => checkSigningKeys({ signingKeys: 1 })).not.toThrow();
    expect(() => checkSigningKeys({ signingKeys: 5, currentSigningKey: 'two' })).toThrow(/must be a whole number/);
  });

  it('reads the marker the rotation writes into cdk.context.json, keeping the file\'s other values, never lowering it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'i35-ops-context-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const file = join(dir, 'cdk.context.json');
    recordCurrentSigningKey(2, file);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ [CURRENT_SIGNING_KEY_CONTEXT]: 2 });
    writeFileSync(file, JSON.stringify({ 'availability-zones:account=1:region=eu-west-1': ['a'], [CURRENT_SIGNING_KEY_CONTEXT]: 2 }));
    recordCurrentSigningKey(3, file);
    recordCurrentSigningKey(1, file);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ 'availability-zones:account=1:region=eu-west-1': ['a'], [CURRENT_SIGNING_KEY_CONTEXT]: 3 });
  });

  it('a rotation records the position of the key it rotated to in SigningKeyArns, not how many rotations there were (1 → 3 records 3)', () => {
    const keys = 'arn:k1,arn:k2,arn:k3';
    // The first rotation, straight to the third key: the ring has one statement, the key that signs is the stack's third.
    expect(rotationTarget({ keys, to: 'arn:k3' })).toEqual({ initial: 'arn:k1', generation: 3 });
    expect(() => checkSigningKeys({ signingKeys: 2, currentSigningKey: rotationTarget({ keys, to: 'arn:k3' }).generation })).toThrow(/signing key 3 signs now/);
    expect(rotationTarget({ keys: ' arn:k1, arn:k2 ', initial: 'arn:k1', to: 'arn:k2' })).toEqual({ initial: 'arn:k1', generation: 2 });
    // A key outside the stack, or an --initial that is not the first, is refused before anything is rotated.
    expect(() => rotationTarget({ keys, to: 'arn:elsewhere' })).toThrow(/not one of the stack's signing keys/);
    expect(() => rotationTarget({ keys, initial: 'arn:k2', to: 'arn:k3' })).toThrow(/not the first key/);
    // Without the list, the position is unknown: nothing is recorded rather than a guess.
    expect(rotationTarget({ initial: 'arn:k1', to: 'arn:k3' })).toEqual({ initial: 'arn:k1' });
  });

  it('stops the CDK app (what cdk deploy runs) before it builds anything, with the reason', async () => {
    // The CLI hands the app cdk.context.json and the -c values as CDK_CONTEXT_JSON.
    const out = mkdtempSync(join(tmpdir(), 'i35-ops-cdkout-'));
    onTestFinished(() => rmSync(out, { recursive: true, force: true }));
    const env = { ...process.env, CDK_CONTEXT_JSON: JSON.stringify({ [CURRENT_SIGNING_KEY_CONTEXT]: 2, signingKeys: '1' }), CDK_OUTDIR: out };
    const failed = await run(process.execPath, ['--import', 'tsx', 'infra/app.ts'], { cwd: ROOT, env, timeout: 120_000 }).then(
      () => undefined,
      (error: { code?: number; stderr?: string }) => error,
    );
    expect(failed?.code).not.toBe(0);
    expect(failed?.stderr).toMatch(/Refusing to deploy with -c signingKeys=1: signing key 2 signs now/);
  });
});
