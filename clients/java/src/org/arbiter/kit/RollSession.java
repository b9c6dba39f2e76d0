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
    /** The game's drand chain, once #1 was read (a beacon game), for the sender's check. */
    private BeaconChain chain;
    private long revealWaitMs = 30_000;
    /** The kids of the keys lines this seat has put in the log (or was told are there). */
    private final Set<String> kidsInLog = new HashSet<>();

    private static final class Pending {
        final String commandId;
        final String type;
        final String payloadJson;
        final String what;
        /** Attempts that got no answer: a later answer's arrival time says nothing of the acceptance's. */
        int unanswered;
        /** A beacon game's roll accepted (202) and already in the log: only its reveal is awaited. */
        Receipt accepted;

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
        /** Lines to show (and send) in chat after the log lines: the sender's check of a beacon roll (beacon.md §6), a reveal that is late. */
        public final List<String> chatLines = new ArrayList<>();
        /** A beacon game's roll was accepted and waits for its beacon: call {@link RollSession#awaitReveal} (off the UI thread). */
        public boolean awaitingReveal;
        /** The HTTP status when the server refused the command (e.g. 401: the token no longer works), else 0. */
        public int refusedStatus;

        public boolean ok() {
            return failureChatLine == null;
        }
    }

    public RollSession(ArbiterClient client, String gameId, String token) {
        this.client = client;
        this.gameId = gameId;
        this.token = token;
    }

    /** How long {@link #awaitReveal} waits for a beacon roll's reveal (quicknet reveals within a few seconds). */
    public synchronized RollSession revealWait(long ms) {
        this.revealWaitMs = ms;
        return this;
    }

    /** The game's drand chain (from #1 of a beacon game), when known; set by {@link #history} or by the module. */
    public synchronized RollSession useChain(BeaconChain chain) {
        this.chain = chain;
        return this;
    }

    public synchronized BeaconChain chain() {
        return chain;
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
        if (pending != null && !attempt(pending, outcome)) {
            if (!outcome.awaitingReveal) return outcome;
            // A beacon roll of this seat still waits: its reveal first (bounded), then the new command.
            Outcome waited = awaitReveal();
            outcome.logLines.addAll(waited.logLines);
            outcome.receipts.addAll(waited.receipts);
            outcome.chatLines.addAll(waited.chatLines);
            outcome.awaitingReveal = waited.awaitingReveal;
            if (pending != null) {
                outcome.failureChatLine = TextLine.escape("✗ Arbiter: " + what + " not sent: #" + pending.accepted.seq + " still waits for its beacon; try again in a moment");
                return outcome;
            }
        }
        Pending next = new Pending(ArbiterClient.newCommandId(), type, payloadJson, what);
        pending = next;
        attempt(next, outcome);
        return outcome;
    }

    /**
     * Waits (bounded) for the reveal of the beacon roll {@link #send} left awaiting: its log line,
     * or a chat line saying it is late. A late reveal is fetched by the next call first.
     */
    public synchronized Outcome awaitReveal() {
        Outcome outcome = new Outcome();
        if (pending == null || pending.accepted == null) return outcome;
        Receipt accepted = pending.accepted;
        try {
            Receipt reveal = client.waitForReveal(gameId, token, accepted, revealWaitMs);
            if (reveal != null) {
                logReceipt(reveal, outcome);
                pending = null;
            } else {
                outcome.awaitingReveal = true;
                outcome.chatLines.add(TextLine.escape("⚠ #" + accepted.seq + " " + pending.what + " still waits for its beacon after " + revealWaitMs / 1000
                        + " s (the server must reveal it; a drand relay may be slow). This module asks for it again before the next roll."));
            }
        } catch (ArbiterClient.Unavailable e) {
            outcome.awaitingReveal = true;
            outcome.chatLines.add(LogLine.unavailableLine("the reveal of #" + accepted.seq + " " + pending.what, e.getMessage()));
        } catch (ArbiterClient.ArbiterException | Canonical.CanonicalException e) {
            outcome.awaitingReveal = true;
            outcome.chatLines.add(TextLine.escape("✗ Arbiter: cannot read the reveal of #" + accepted.seq + ": " + e.getMessage()));
        }
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
                if (r.seq == 1) learnChain(r);
                try {
                    lines.add(LogLine.encode(r));
                } catch (Canonical.CanonicalException e) {
                    throw new ArbiterClient.ArbiterException(200, "bad_answer", "a commit cannot be put in canonical form: " + e.getMessage());
                }
                after = r.seq;
            }
        }
    }

    private synchronized void learnChain(Receipt created) {
        List<Map<String, Object>> events = created.events();
        Object data = events.isEmpty() ? null : events.get(0).get("data");
        Object beacon = data instanceof Map ? ((Map<?, ?>) data).get("beacon") : null;
        if (beacon == null) return;
        try {
            chain = BeaconChain.of(beacon);
        } catch (BeaconChain.MalformedChain e) {
            chain = null; // the verifier says so; the sender's check then uses the answer's roundAt
        }
    }

    private boolean attempt(Pending p, Outcome outcome) {
        try {
            ArbiterClient.CommandAnswer answer = client.submit(gameId, token, p.commandId, p.type, p.payloadJson, null);
            if (p.accepted == null) logReceipt(answer.commit, outcome);
            if (answer.reveal != null) {
                logReceipt(answer.reveal, outcome);
            } else if (answer.pending()) {
                if (p.accepted == null) {
                    p.accepted = answer.commit;
                    outcome.chatLines.add(senderCheck(answer, p));
                }
                pending = p;
                outcome.awaitingReveal = true;
                return false;
            }
            pending = null;
            return true;
        } catch (ArbiterClient.Unavailable e) {
            p.unanswered++;
            outcome.failureChatLine = LogLine.unavailableLine(p.what, e.getMessage());
            return false;
        } catch (ArbiterClient.ArbiterException e) {
            // The server answered and refused: nothing was rolled, nothing is pending.
            pending = null;
            outcome.refusedStatus = e.status;
            outcome.failureChatLine = TextLine.escape("✗ Arbiter refused " + p.what + ": " + e.status + " " + e.code + " — " + e.getMessage());
            return false;
        } catch (Canonical.CanonicalException e) {
            pending = null;
            outcome.failureChatLine = TextLine.escape("✗ Arbiter answered " + p.what + " with a commit that cannot be checked: " + e.getMessage());
            return false;
        }
    }

    /** beacon.md §6 on the first answer to reach this module; after a lost answer, a past round proves nothing either way. */
    private String senderCheck(ArbiterClient.CommandAnswer answer, Pending p) {
        BeaconChain known = chain != null ? chain : "quicknet".equals(answer.chain) ? BeaconChain.QUICKNET : null;
        SenderCheck check = SenderCheck.of(known, answer.round, answer.roundAt, answer.receivedAtMs);
        if (!check.inFuture && p.unanswered > 0 && check.line.startsWith("⚠ round " + answer.round + " was already published")) {
            return TextLine.escape("⚠ round " + answer.round + ": this module cannot tell whether it was still in the future when the server accepted (the first answer was lost; this one came after the round)");
        }
        return check.line;
    }

    private void logReceipt(Receipt r, Outcome outcome) throws Canonical.CanonicalException {
        outcome.receipts.add(r);
        if (!kidsInLog.contains(r.kid)) {
            try {
                outcome.logLines.add(keysLine()); // a new key (a rotation): its key log goes first
            } catch (ArbiterClient.ArbiterException e) {
                // The receipt is posted anyway; a client that cannot reach its key says so loudly.
            }
        }
        outcome.logLines.add(LogLine.encode(r));
    }
}
