import { readFileSync } from 'node:fs';

/** The test vector and the real quicknet beacons of beacon.md, read from docs/beacon.md itself so the published ones are the tested ones. */
const doc = readFileSync(new URL('../../../docs/beacon.md', import.meta.url), 'utf8');
const block = doc.split('## Test vector')[1].split('```')[1];
const beaconsBlock = doc.split('## Real quicknet beacons')[1].split('```')[1];

const after = (label: string) => {
  const at = block.indexOf(label);
  if (at < 0) throw new Error(`"${label}" missing from the published vector`);
  return block.slice(at + label.length).split('\n')[0].trim();
};

export const BEACON_VECTOR = {
  serverSeed: after('serverSeed'),
  gameId: after('gameId'),
  chainHash: after('chainHash'),
  round: Number(after('round')),
  signature: after('signature'),
  randomness: after('randomness'),
  message: after('message'),
  beaconKey: after('beaconKey'),
  block0n2: after('block(0) for n = 2:'),
  n2d6: after('n = 2, ten d6:').split(/\s+/).map(Number),
  n3d20: after('n = 3, five d20:').split(/\s+/).map(Number),
};

export const QUICKNET_BEACONS: { round: number; signature: string }[] = beaconsBlock
  .trim()
  .split('\n')
  .map((line) => line.match(/^round (\d+)\s+([0-9a-f]{96})$/))
  .filter((m): m is RegExpMatchArray => m !== null)
  .map((m) => ({ round: Number(m[1]), signature: m[2] }));
