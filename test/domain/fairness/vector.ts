/** The test vector of fairness-v1 §4, as docs/fairness.md publishes it. */
export const VECTOR = {
  serverSeed: '000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f',
  commitment: '630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd',
  gameId: 'g-vector',
  noEntropy: {
    message: '{"entropy":[],"gameId":"g-vector"}',
    gameKey: 'ade47c89b8ce2fa269a3aab868730ddd1a12315fdc59eea2a71f49e9738e95ca',
    block2_0: 'b1880b7885d7e46e8d3799031f05b2b868fe126a13f15663f4f8ddb3c84959f7',
    seq2d6: [1, 3, 2, 3, 3, 2, 2, 4, 3, 1],
    seq3d20: [2, 18, 5, 18, 6],
    seq4d1000: [50, 996, 169, 245, 616],
  },
  withEntropy: {
    entropy: [
      ['player1', 'alpha'],
      ['player2', 'bravo'],
    ] as [string, string][],
    gameKey: '61c333d8bf43cf067bbf5998a6acb84deb4e19a14deaf798f7c32d458ab8a2b1',
    seq2d6: [5, 2, 4, 1, 2, 3, 3, 4, 3, 4],
    seq3d20: [11, 17, 6, 8, 1],
    seq4d1000: [686, 774, 889, 685, 589],
  },
};
