package org.arbiter.kit;

/**
 * beacon.md §6, what only the sender can check: when the server answers a roll with 202 (a
 * pending commit waiting for drand round r), was round r still in the future by this
 * computer's clock? The commit's recordedAt is the server's word; a server that waited for the
 * beacon (and so could know the dice) before accepting is caught here, by its sender. Two
 * seconds are allowed for clocks that differ a little.
 */
public final class SenderCheck {
    public static final long ALLOWED_SKEW_MS = 2_000;

    public final long round;
    public final long roundAtMs;
    public final long receivedAtMs;
    public final boolean inFuture;
    /** One chat line, ✓ or ⚠. */
    public final String line;

    private SenderCheck(long round, long roundAtMs, long receivedAtMs, boolean inFuture, String line) {
        this.round = round;
        this.roundAtMs = roundAtMs;
        this.receivedAtMs = receivedAtMs;
        this.inFuture = inFuture;
        this.line = line;
    }

    /**
     * Checks round {@code round} announced for {@code roundAt} (the pending commit's), received at
     * {@code receivedAtMs} by the sender's clock. With the game's chain known (from #1), the round's
     * time is the chain's, and a roundAt that disagrees is a warning too.
     */
    public static SenderCheck of(BeaconChain chain, long round, String roundAt, long receivedAtMs) {
        long announced;
        try {
            announced = BeaconChain.parseIso(roundAt);
        } catch (BeaconChain.MalformedChain e) {
            announced = Long.MIN_VALUE;
        }
        long at = chain != null ? chain.roundTimeMs(round) : announced;
        if (at == Long.MIN_VALUE) {
            return new SenderCheck(round, at, receivedAtMs, false, TextLine.escape("⚠ round " + round + ": the server's answer gives no readable time for it, so this module cannot tell whether it was still in the future when the server accepted"));
        }
        if (chain != null && announced != at) {
            return new SenderCheck(round, at, receivedAtMs, false, TextLine.escape("⚠ round " + round + " is at " + BeaconChain.iso(at) + " on " + chain.name + ", but the server announced it for "
                    + Canonical.escapeForMessage(String.valueOf(roundAt)) + ": report the game to the organizer"));
        }
        long ahead = at - receivedAtMs;
        if (ahead > -ALLOWED_SKEW_MS) {
            return new SenderCheck(round, at, receivedAtMs, true, "round " + round + " was still in the future when the server accepted ✓");
        }
        long late = -ahead;
        return new SenderCheck(round, at, receivedAtMs, false, TextLine.escape("⚠ round " + round + " was already published " + seconds(late) + " before the server's acceptance reached this computer"
                + " (by its clock): the server may have waited for that beacon before accepting, and so could have known the dice. If this computer's clock is right, report the game to the organizer."));
    }

    private static String seconds(long ms) {
        return ms < 60_000 ? String.format(java.util.Locale.ROOT, "%.1f s", ms / 1000.0) : (ms / 1000) + " s";
    }
}
