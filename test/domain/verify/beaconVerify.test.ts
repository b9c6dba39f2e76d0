import { describe, expect, it } from 'vitest';
import { beaconSignatureValid } from '../../../domain/beacon/blsSignature';
import { NO_BLS_CHECK } from '../../../domain/verify/checkBeacons';
import { verifyExport } from '../../../domain/verify/verifyExport';
import { buildBeaconGame } from '../../support/beaconGame';
import { honestExport, newKey } from './signedExports';

describe('verifyExport on beacon games: the BLS check comes from the caller (domain/verify carries no BLS code)', () => {
  const { bundle, fingerprint } = buildBeaconGame();

  it('fails a beacon game checked without a BLS check, saying why', () => {
    const report = verifyExport(bundle, { trusted: [fingerprint] });
    expect(report.exitCode).toBe(1);
    expect(report.failures).toEqual([{ seq: 1, check: 'beacon', reason: NO_BLS_CHECK }]);
    expect(report.beacons).toEqual({ checked: 0, chain: 'quicknet' });
  });

  it('checks each distinct round once, through the check it is given', () => {
    const asked: number[] = [];
    const report = verifyExport(bundle, { trusted: [fingerprint], beacon: { check: (chain, round, signature) => (asked.push(round), beaconSignatureValid(chain, round, signature)) } });
    expect(report.exitCode).toBe(0);
    expect(asked.sort((a, b) => a - b)).toEqual([42, 1000, 5928395, 12040883]);
    expect(report.beacons).toEqual({ checked: 4, chain: 'quicknet' });
  });

  it('a game of no beacon needs no check, and its report has no beacons', () => {
    const key = newKey('key-a');
    const report = verifyExport(honestExport(key), { trusted: [key.fingerprint] });
    expect(report.exitCode).toBe(0);
    expect(report).not.toHaveProperty('beacons');
  });

  it('fails a non-beacon game whose creation asked for a beacon the GameCreated event does not record', () => {
    const asked = JSON.parse(JSON.stringify(bundle));
    delete asked.commits[0].events[0].data.beacon;
    const report = verifyExport(asked, { trusted: [fingerprint], beacon: { check: beaconSignatureValid } });
    expect(report.failures).toContainEqual({ seq: 1, check: 'rules', reason: 'the creation asks for the drand chain "quicknet", but GameCreated records none' });
  });
});
