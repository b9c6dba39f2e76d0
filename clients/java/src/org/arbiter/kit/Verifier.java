package org.arbiter.kit;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Checks receipts one by one as a game log shows them: each receipt's hash and signature
 * (against {@link TrustedKeys}), and its place in the chain against every receipt of the same
 * game seen before — a missing seq is a gap (a commit the server made that this log never
 * showed: a roll made and discarded), two commits for one seq or a broken prevHash link is a
 * fork. Only receipts whose hash and signature pass are remembered, so a forgery cannot
 * poison the chain. Thread-safe: one instance per module, fed by the log as it is read.
 */
public final class Verifier {
    public static final String GENESIS_PREV_HASH = "0000000000000000000000000000000000000000000000000000000000000000";

    public enum Status {
        /** hash, signature by a pinned key, and its links to the receipts already seen all pass. */
        OK,
        /** authentic, but earlier seqs of this game never appeared in this log. */
        GAP,
        /** authentic, but it contradicts a receipt already seen: two histories. */
        FORK,
        /** not a genuine receipt: bad hash, bad or untrusted signature, or malformed. */
        INVALID
    }

    public static final class Check {
        public final Receipt receipt;
        public final Status status;
        public final List<String> problems;
        public final List<String> notes;
        public final String signerFingerprint;
        /** How the signer is trusted: 0 = pinned by the module, n = reached through key log statement n, -1 = not trusted. */
        public final int signerVia;

        Check(Receipt receipt, Status status, List<String> problems, List<String> notes, TrustedKeys.SignatureCheck sig) {
            this.receipt = receipt;
            this.status = status;
            this.problems = Collections.unmodifiableList(problems);
            this.notes = Collections.unmodifiableList(notes);
            this.signerFingerprint = sig == null ? null : sig.fingerprint;
            this.signerVia = sig == null || !sig.ok() ? -1 : sig.via;
        }

        public boolean ok() {
            return status == Status.OK;
        }
    }

    private final TrustedKeys keys;
    private final Map<String, TreeMap<Long, Receipt>> seen = new ConcurrentHashMap<>();

    public Verifier(TrustedKeys keys) {
        this.keys = keys;
    }

    public TrustedKeys keys() {
        return keys;
    }

    /** A check of text that is not even a receipt (bad JSON, a missing field). */
    public static Check malformed(String problem) {
        List<String> problems = new ArrayList<>();
        problems.add(problem);
        return new Check(null, Status.INVALID, problems, new ArrayList<>(), null);
    }

    public synchronized Check check(Receipt r) {
        List<String> problems = new ArrayList<>();
        List<String> notes = new ArrayList<>();
        String computed;
        try {
            computed = r.computeHash();
        } catch (Canonical.CanonicalException e) {
            problems.add("cannot be put in canonical form: " + e.getMessage());
            return new Check(r, Status.INVALID, problems, notes, null);
        }
        if (!computed.equals(r.hash)) problems.add("hash mismatch: the record hashes to " + computed.substring(0, 8) + "…, not the " + Canonical.escapeForMessage(shortOf(r.hash)) + "… it carries (a field was changed)");
        TrustedKeys.SignatureCheck sig = keys.check(r.kid, r.hash, r.signature);
        if (!sig.ok()) problems.add(sig.problem);
        if (r.seq == 1 && !GENESIS_PREV_HASH.equals(r.prevHash)) problems.add("commit #1 must have a prevHash of 64 zeros");
        if (!problems.isEmpty()) return new Check(r, Status.INVALID, problems, notes, sig);

        TreeMap<Long, Receipt> chain = seen.computeIfAbsent(r.gameId, g -> new TreeMap<>());
        Status status = Status.OK;
        Receipt same = chain.get(r.seq);
        if (same != null) {
            if (same.hash.equals(r.hash)) {
                notes.add("#" + r.seq + " was already shown in this log");
                return new Check(r, Status.OK, problems, notes, sig);
            }
            problems.add("fork: #" + r.seq + " was already shown with hash " + shortOf(same.hash) + "…; this one is " + shortOf(r.hash) + "… (two histories of one game)");
            return new Check(r, Status.FORK, problems, notes, sig);
        }
        Receipt before = chain.get(r.seq - 1);
        if (before != null && !before.hash.equals(r.prevHash)) {
            problems.add("fork: #" + r.seq + " does not follow the #" + before.seq + " shown earlier (prevHash " + shortOf(r.prevHash) + "… ≠ " + shortOf(before.hash) + "…)");
            return new Check(r, Status.FORK, problems, notes, sig);
        }
        Receipt after = chain.get(r.seq + 1);
        if (after != null && !after.prevHash.equals(r.hash)) {
            problems.add("fork: the #" + after.seq + " shown earlier does not follow this #" + r.seq);
            return new Check(r, Status.FORK, problems, notes, sig);
        }
        if (r.seq > 1 && before == null) {
            Long lower = chain.lowerKey(r.seq);
            long from = lower == null ? 1 : lower + 1;
            String missing = from == r.seq - 1 ? "#" + from : "#" + from + "–#" + (r.seq - 1);
            problems.add("gap: " + missing + " never appeared in this log (the server made " + (r.seq - from == 1 ? "that commit" : "those commits") + "; a roll made and not shown?)");
            status = Status.GAP;
        }
        if (after != null) notes.add("fills the gap before #" + after.seq);
        chain.put(r.seq, r);
        return new Check(r, status, problems, notes, sig);
    }

    /** The seqs below the highest seen that this log never showed, for one game. */
    public synchronized List<Long> missing(String gameId) {
        List<Long> out = new ArrayList<>();
        TreeMap<Long, Receipt> chain = seen.get(gameId);
        if (chain == null || chain.isEmpty()) return out;
        for (long s = 1; s < chain.lastKey(); s++) if (!chain.containsKey(s)) out.add(s);
        return out;
    }

    /** The games whose receipts this log showed (a VASSAL game normally shows one), sorted. */
    public synchronized List<String> gameIds() {
        List<String> out = new ArrayList<>(seen.keySet());
        out.sort(null);
        return out;
    }

    /** The last receipt seen of a game, or null. */
    public synchronized Receipt last(String gameId) {
        TreeMap<Long, Receipt> chain = seen.get(gameId);
        return chain == null || chain.isEmpty() ? null : chain.lastEntry().getValue();
    }

    static String shortOf(String hash) {
        return hash == null ? "?" : hash.length() > 8 ? hash.substring(0, 8) : hash;
    }
}
