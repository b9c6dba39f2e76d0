package org.arbiter.kit;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One player's seat in one Arbiter game, as a module uses it: sends commands, turns receipts
 * into log lines, and never lets a roll that got no answer be replaced by a new one. A command
 * that got no answer stays pending with its commandId; the next call sends it again first
 * (the server returns the stored commit, never new dice) and only then the new command, so
 * every commit the player caused reaches the log. When a receipt is signed by a key whose kid
 * no keys line of this seat has put in the log yet (the server rotated its key), the seat puts
 * the server's GET /keys in the log first ({@link LogLine#encodeKeys}), so that every client and
 * every replay can walk the key log from its pins. Blocking: call it off the UI thread.
 */
public final class RollSession {
    private final ArbiterClient client;
    private final String gameId;
    private final String token;
    private Pending pending;
    /** The kids of the keys lines this seat has put in the log (or was told are there). */
    private final Set<String> kidsInLog = new HashSet<>();

    private static final class Pending {
        final String commandId;
        final String type;
        final String payloadJson;
        final String what;

        Pending(String commandId, String type, String payloadJson, String what) {
            this.commandId = commandId;
            this.type = type;
            this.payloadJson = payloadJson;
            this.what = what;
        }
    }

    /** What happened: log lines to post (in order), and a chat line when something failed. */
    public static final class Outcome {
        /** {@code ARB\t…} lines to send and log, oldest first (a recovered pending command comes first). */
        public final List<String> logLines = new ArrayList<>();
        public final List<Receipt> receipts = new ArrayList<>();
        /** Null on success; else one line to show (and send) in chat: no local roll was made. */
        public String failureChatLine;

        public boolean ok() {
            return failureChatLine == null;
        }
    }

    public RollSession(ArbiterClient client, String gameId, String token) {
        this.client = client;
        this.gameId = gameId;
        this.token = token;
    }

    /** The commandId of a command sent without an answer, or null. */
    public synchronized String pendingCommandId() {
        return pending == null ? null : pending.commandId;
    }

    /**
     * Sends a command (e.g. {@code Roll}, {@code {"dice":"2d6","purpose":"assault on 2708"}}),
     * after any pending one. {@code what} names it for people ("Roll 2d6 assault on 2708").
     */
    public synchronized Outcome send(String type, String payloadJson, String what) {
        Outcome outcome = new Outcome();
        if (pending != null && !attempt(pending, outcome)) return outcome;
        Pending next = new Pending(ArbiterClient.newCommandId(), type, payloadJson, what);
        pending = next;
        attempt(next, outcome);
        return outcome;
    }

    /** Sends the pending command again, if any (e.g. from a "retry" button). */
    public synchronized Outcome retryPending() {
        Outcome outcome = new Outcome();
        if (pending != null) attempt(pending, outcome);
        return outcome;
    }

    /**
     * The keys line to put in the log: GET /keys, with its key log. A seat that joins a game
     * posts it first; {@link #send} posts it again by itself when a receipt's kid is new.
     */
    public synchronized String keysLine() throws ArbiterClient.ArbiterException {
        Map<String, Object> doc = client.keys();
        try {
            String line = LogLine.encodeKeys(doc);
            noteKidsInLog(doc);
            return line;
        } catch (Canonical.CanonicalException e) {
            throw new ArbiterClient.ArbiterException(200, "bad_answer", "the keys document cannot be put in canonical form: " + e.getMessage());
        }
    }

    /** Tells the seat that the log already holds these keys (a keys line read from the log, or keys the module ships). */
    public synchronized void noteKidsInLog(Map<String, Object> keysDocument) {
        Object keys = keysDocument == null ? null : keysDocument.get("keys");
        if (!(keys instanceof List)) return;
        for (Object k : (List<?>) keys) if (k instanceof Map && ((Map<?, ?>) k).get("kid") instanceof String) kidsInLog.add((String) ((Map<?, ?>) k).get("kid"));
    }

    /** The log lines of every commit after {@code afterSeq}: what a player joining a game posts first, so the log holds the chain from #1. */
    public List<String> history(long afterSeq) throws ArbiterClient.ArbiterException {
        List<String> lines = new ArrayList<>();
        long after = afterSeq;
        for (;;) {
            List<Receipt> page = client.events(gameId, token, after, 1000);
            if (page.isEmpty()) return lines;
            for (Receipt r : page) {
                try {
                    lines.add(LogLine.encode(r));
                } catch (Canonical.CanonicalException e) {
                    throw new ArbiterClient.ArbiterException(200, "bad_answer", "a commit cannot be put in canonical form: " + e.getMessage());
                }
                after = r.seq;
            }
        }
    }

    private boolean attempt(Pending p, Outcome outcome) {
        try {
            Receipt r = client.command(gameId, token, p.commandId, p.type, p.payloadJson);
            outcome.receipts.add(r);
            if (!kidsInLog.contains(r.kid)) {
                try {
                    outcome.logLines.add(keysLine()); // a new key (a rotation): its key log goes first
                } catch (ArbiterClient.ArbiterException e) {
                    // The receipt is posted anyway; a client that cannot reach its key says so loudly.
                }
            }
            outcome.logLines.add(LogLine.encode(r));
            pending = null;
            return true;
        } catch (ArbiterClient.Unavailable e) {
            outcome.failureChatLine = LogLine.unavailableLine(p.what, e.getMessage());
            return false;
        } catch (ArbiterClient.ArbiterException e) {
            // The server answered and refused: nothing was rolled, nothing is pending.
            pending = null;
            outcome.failureChatLine = TextLine.escape("✗ Arbiter refused " + p.what + ": " + e.status + " " + e.code + " — " + e.getMessage());
            return false;
        } catch (Canonical.CanonicalException e) {
            pending = null;
            outcome.failureChatLine = TextLine.escape("✗ Arbiter answered " + p.what + " with a commit that cannot be checked: " + e.getMessage());
            return false;
        }
    }
}
