import { describe, expect, it } from 'vitest';
import { beaconSignatureValid } from '../../../domain/beacon/blsSignature';
import { NO_BLS_CHECK } from '../../../domain/verify/checkBeacons';
import { verifyExport } from '../../../domain/verify/verifyExport';
import type { Commit } from '../../../domain/fairness/hashChain';
import { buildBeaconGame } from '../../support/beaconGame';
import { resigned } from '../../verifier/beaconExports';
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

describe('a reveal that records a refusal it did not earn (review: a server voiding a roll it dislikes)', () => {
  const { bundle, key, fingerprint } = buildBeaconGame();
  const options = { trusted: [fingerprint], beacon: { check: beaconSignatureValid } };
  const firstReveal = (commits: Commit[]) => commits.findIndex((c) => c.command.type === 'RevealBeacon');

  for (const kept of [0, 1, 2]) {
    it(`fails a reveal cut to ${kept} of its dice and recorded as refused for want of dice`, () => {
      const forged = resigned(bundle, key, (commits) => {
        const at = firstReveal(commits);
        commits[at] = {
          ...commits[at],
          dice: commits[at].dice.slice(0, kept),
          events: [{ type: 'BeaconRollRefused', data: { code: 'insufficient_dice', message: `This needs at least ${kept + 1} dice.` } }],
        };
      });
      const report = verifyExport(forged, options);
      expect(report.exitCode).toBe(1);
      expect(report.failures).toContainEqual(expect.objectContaining({ check: 'rules', reason: expect.stringMatching(/fewer dice than the rules draw/) }));
    });
  }

  it('fails a reveal recorded as a rule refusal that the rules do not give', () => {
    const forged = resigned(bundle, key, (commits) => {
      const at = firstReveal(commits);
      commits[at] = { ...commits[at], dice: [], events: [{ type: 'BeaconRollRefused', data: { code: 'rule_violation', message: 'Not your turn.' } }] };
    });
    expect(verifyExport(forged, options).exitCode).toBe(1);
  });
});
