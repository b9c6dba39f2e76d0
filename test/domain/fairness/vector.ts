import { readFileSync } from 'node:fs';

/**
 * The test vector of fairness-v1 §4, read from docs/fairness.md itself, so that
 * the published vector and the tested one cannot drift apart.
 */
const doc = readFileSync(new URL('../../../docs/fairness.md', import.meta.url), 'utf8');
const block = doc.split('### Test vector')[1].split('```')[1];

const hexAfter = (label: string, from = 0) => {
  const at = block.indexOf(label, from);
  if (at < 0) throw new Error(`"${label}" missing from the published vector`);
  return block.slice(at + label.length).trim().split(/\s/)[0];
};
const numbersAfter = (label: string, from: number) => {
  const at = block.indexOf(label, from);
  if (at < 0) throw new Error(`"${label}" missing from the published vector`);
  return block.slice(at + label.length).split('\n')[0].trim().split(/\s+/).map(Number);
};
const withEntropyAt = block.indexOf('entropy [[');

export const VECTOR = {
  serverSeed: hexAfter('serverSeed'),
  commitment: hexAfter('commitment'),
  gameId: hexAfter('gameId'),
  noEntropy: {
    message: block.match(/message (\{.*\})/)![1],
    gameKey: hexAfter('gameKey'),
    block2_0: hexAfter('block(2,0) of seq 2:'),
    seq2d6: numbersAfter('seq 2, ten d6:', 0),
    seq3d20: numbersAfter('seq 3, five d20:', 0),
    seq4d1000: numbersAfter('seq 4, five d1000:', 0),
  },
  withEntropy: {
    entropy: JSON.parse(block.slice(withEntropyAt + 'entropy '.length).split(':\n')[0]) as [string, string][],
    gameKey: hexAfter('gameKey', withEntropyAt),
    seq2d6: numbersAfter('seq 2, ten d6:', withEntropyAt),
    seq3d20: numbersAfter('seq 3, five d20:', withEntropyAt),
    seq4d1000: numbersAfter('seq 4, five d1000:', withEntropyAt),
  },
};
