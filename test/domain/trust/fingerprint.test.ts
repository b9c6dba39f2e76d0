import { createHash, generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { fingerprintOf, isFingerprint } from '../../../domain/trust/fingerprint';

describe('fingerprintOf (trust.md §1)', () => {
  it('gives the RFC 7638 thumbprint of the RFC 8037 A.3 example key', () => {
    // RFC 8037 appendix A.3: this Ed25519 key's thumbprint is kPrK_qmxVWaYVA9wwBF6Iuo3vVzz7TxHCTwXBygrS4k.
    expect(fingerprintOf({ x: '11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo' })).toBe('ed25519:kPrK_qmxVWaYVA9wwBF6Iuo3vVzz7TxHCTwXBygrS4k');
  });

  it('is SHA-256 of the fixed members in base64url, 43 characters, for any key', () => {
    for (let i = 0; i < 20; i++) {
      const x = generateKeyPairSync('ed25519').publicKey.export({ format: 'jwk' }).x!;
      const bytes = Buffer.from(`{"crv":"Ed25519","kty":"OKP","x":"${x}"}`, 'utf8');
      const digest = createHash('sha256').update(bytes).digest('base64').replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
      const fingerprint = fingerprintOf({ x });
      expect(fingerprint).toBe(`ed25519:${digest}`);
      expect(isFingerprint(fingerprint)).toBe(true);
    }
  });

  it('depends on the key only, never on its kid or other members', () => {
    const x = '11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo';
    const withExtras = { x, kid: 'anything', kty: 'OKP', crv: 'Ed25519', use: 'sig', fingerprint: 'ed25519:lies' };
    expect(fingerprintOf(withExtras)).toBe(fingerprintOf({ x }));
  });

  it('recognizes the written form only', () => {
    for (const text of ['kPrK_qmxVWaYVA9wwBF6Iuo3vVzz7TxHCTwXBygrS4k', 'ed25519:kPrK', 'ed25519:kPrK_qmxVWaYVA9wwBF6Iuo3vVzz7TxHCTwXBygrS4k=', 'ED25519:kPrK_qmxVWaYVA9wwBF6Iuo3vVzz7TxHCTwXBygrS4k', 'ed25519:kPrK+qmxVWaYVA9wwBF6Iuo3vVzz7TxHCTwXBygrS4k', 42]) {
      expect(isFingerprint(text), String(text)).toBe(false);
    }
  });
});
