package org.arbiter.kit;

import java.nio.charset.StandardCharsets;

/**
 * fairness-v1 §4: the dice of commit {@code seq} read from block(c) = HMAC-SHA256(key,
 * ASCII("<seq>:<c>")), c = 0, 1, 2, …, as big-endian 32-bit words, one die by exact
 * rejection sampling. The key is the game key, or in a beacon game the beacon key of the
 * round that revealed the roll ({@link BeaconVerifier#beaconKey}).
 */
public final class DiceStream {
    private final byte[] key;
    private final long seq;
    private byte[] block = new byte[0];
    private int offset;
    private long counter;

    public DiceStream(byte[] key, long seq) {
        this.key = key.clone();
        this.seq = seq;
    }

    /** One die of {@code sides} faces (2 to 1000), 1..sides. */
    public int roll(int sides) {
        if (sides < 2 || sides > 1000) throw new IllegalArgumentException("a die has 2 to 1000 sides, not " + sides);
        long limit = (1L << 32) - ((1L << 32) % sides);
        long word = nextWord();
        while (word >= limit) word = nextWord();
        return (int) (word % sides) + 1;
    }

    private long nextWord() {
        if (offset >= block.length) {
            block = Crypto.hmacSha256(key, (seq + ":" + counter++).getBytes(StandardCharsets.US_ASCII));
            offset = 0;
        }
        byte[] b = block;
        int at = offset;
        offset += 4;
        return ((b[at] & 0xffL) << 24) | ((b[at + 1] & 0xffL) << 16) | ((b[at + 2] & 0xffL) << 8) | (b[at + 3] & 0xffL);
    }
}
