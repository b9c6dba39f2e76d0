package org.arbiter.kit;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * A beacon game (docs/beacon.md §5) checked as far as plain Java can: the chain is quicknet,
 * field by field, or one the user pinned by its hash; every pending commit waits for the first
 * round at least one period after it was recorded; the next commit is its reveal (same pending
 * seq and round, by the server, commandId {@code beacon/<n>}); no other commit draws dice; no
 * entropy after the first pending roll; and, once the game is sealed, every die of every reveal
 * follows from the revealed seed and the beacon (§3).
 *
 * What it does not check, and says so in every result: the beacons' BLS signatures (the kit has
 * no BLS12-381), and that the reveal's events follow from the rules (the kit has no rulesets).
 * The CLI ({@code arbiter verify}) and the web verify page check both.
 */
public final class BeaconVerifier {
    private BeaconVerifier() {}

    public static final String BLS_NOT_CHECKED = "beacon signatures: not checked by this kit (BLS); check them with npx arbiter verify, node verifier.mjs verify, or the web verify page";
    public static final String RULES_NOT_CHECKED = "reveal events: not replayed by this kit (it has no rulesets); the CLI replays them";
    private static final Pattern SIGNATURE = Pattern.compile("^[0-9a-f]{96}$");
    private static final Pattern SEED = Pattern.compile("^[0-9a-f]{64}$");
    /** Events of the game itself, which a reveal never holds (it holds what the ruleset decided). */
    private static final Set<Object> GAME_EVENTS = Set.of("GameCreated", "BeaconRollPending", "EntropyContributed", "GameSealed", "TokenReissued", "TokenRevoked");

    public static final class Result {
        /** False for a game created without a beacon: nothing here applies to it. */
        public final boolean beaconGame;
        /** The chain's name as the game records it, or null. */
        public final String chain;
        /** Pending commits followed by their reveal. */
        public final int revealed;
        /** Dice re-derived from the seed and the beacons (0 until the game is sealed). */
        public final int diceChecked;
        public final boolean sealed;
        public final List<String> problems;
        public final List<String> notes;

        Result(boolean beaconGame, String chain, int revealed, int diceChecked, boolean sealed, List<String> problems, List<String> notes) {
            this.beaconGame = beaconGame;
            this.chain = chain;
            this.revealed = revealed;
            this.diceChecked = diceChecked;
            this.sealed = sealed;
            this.problems = Collections.unmodifiableList(problems);
            this.notes = Collections.unmodifiableList(notes);
        }

        public boolean ok() {
            return problems.isEmpty();
        }

        /** One chat line: what was checked, or loudly the first thing that failed; and always what was not checked. */
        public String summary() {
            String line;
            if (!beaconGame) line = problems.isEmpty() ? "not a beacon game" : "✗✗ ARBITER BEACON CHECK FAILED ✗✗ " + problems.get(0);
            else if (!problems.isEmpty()) line = "✗✗ ARBITER BEACON CHECK FAILED ✗✗ " + problems.get(0) + (problems.size() > 1 ? " (and " + (problems.size() - 1) + " more)" : "") + "; " + BLS_NOT_CHECKED;
            else line = "✓ beacon game on " + chain + ": " + revealed + " roll" + (revealed == 1 ? "" : "s") + ", each revealed by the round it named when accepted; "
                    + (sealed ? diceChecked + " dice follow from the revealed seed and the beacons" : "dice checkable once the game is sealed") + "; " + BLS_NOT_CHECKED;
            return TextLine.escape(line);
        }
    }

    /**
     * Checks an export (fairness-v1 §7): every commit's hash, signature and link as {@link Verifier}
     * does (from #1, no gap), then the beacon rules above. {@code pinnedChainHashes}: chains the
     * user trusts besides quicknet (e.g. a private deployment's), by chain hash.
     */
    public static Result verifyExport(Map<String, Object> export, TrustedKeys keys, Collection<String> pinnedChainHashes) {
        List<String> problems = new ArrayList<>();
        List<Receipt> commits = new ArrayList<>();
        Object list = export == null ? null : export.get("commits");
        if (!(list instanceof List)) return new Result(false, null, 0, 0, false, new ArrayList<>(List.of("the export has no commits")), new ArrayList<>());
        Verifier chain = new Verifier(keys);
        long expected = 1;
        for (Object c : (List<?>) list) {
            if (!(c instanceof Map)) {
                problems.add("#" + expected + ": not a commit");
                expected++;
                continue;
            }
            try {
                @SuppressWarnings("unchecked")
                Receipt r = Receipt.of((Map<String, Object>) c);
                Verifier.Check check = chain.check(r);
                if (r.seq != expected) problems.add("#" + expected + ": the export holds #" + r.seq + " in its place");
                if (!check.ok()) problems.add("#" + r.seq + ": " + String.join("; ", check.problems));
                commits.add(r);
            } catch (Receipt.MalformedReceipt e) {
                problems.add("#" + expected + ": " + e.getMessage());
            }
            expected++;
        }
        Object seed = export.get("serverSeed");
        Result beacon = check(commits, pinnedChainHashes, seed instanceof String ? (String) seed : null);
        problems.addAll(beacon.problems);
        return new Result(beacon.beaconGame, beacon.chain, beacon.revealed, beacon.diceChecked, beacon.sealed, problems, new ArrayList<>(beacon.notes));
    }

    /** The beacon rules over a game's commits in seq order (their signatures checked elsewhere). */
    public static Result check(List<Receipt> commits, Collection<String> pinnedChainHashes, String exportSeed) {
        List<String> problems = new ArrayList<>();
        List<String> notes = new ArrayList<>();
        if (commits.isEmpty()) return new Result(false, null, 0, 0, false, new ArrayList<>(List.of("no commits")), notes);
        Map<String, Object> created = firstEvent(commits.get(0), "GameCreated");
        Map<?, ?> createdData = created == null ? null : asMap(created.get("data"));
        if (createdData == null) {
            problems.add("#1 is not GameCreated");
            return new Result(false, null, 0, 0, false, problems, notes);
        }
        Object record = createdData.get("beacon");
        if (record == null) return notBeacon(commits);
        BeaconChain chain;
        try {
            chain = BeaconChain.of(record);
        } catch (BeaconChain.MalformedChain e) {
            problems.add("#1: " + e.getMessage());
            return new Result(true, null, 0, 0, false, problems, notes);
        }
        // A pin is a chain hash, trusting the key the file records for it, or HASH:PUBLICKEY, binding the key.
        Set<String> pinned = new LinkedHashSet<>();
        if (pinnedChainHashes != null) for (String h : pinnedChainHashes) pinned.add(h.trim().toLowerCase(java.util.Locale.ROOT));
        boolean pinnedHash = pinned.contains(chain.chainHash);
        boolean pinnedWithKey = false;
        boolean pinnedOtherKey = false;
        for (String pin : pinned) {
            if (!pin.startsWith(chain.chainHash + ":")) continue;
            if (pin.equals(chain.chainHash + ":" + chain.publicKey)) pinnedWithKey = true;
            else pinnedOtherKey = true;
        }
        if ("quicknet".equals(chain.name) || chain.chainHash.equals(BeaconChain.QUICKNET.chainHash)) {
            if (!chain.sameAs(BeaconChain.QUICKNET) || !"quicknet".equals(chain.name)) problems.add("#1: the game names quicknet (by name or hash), but its chain record differs from quicknet's (name, hash, key, period, genesis or scheme): a verifier never trusts chain data the file brings");
        } else if (pinnedOtherKey && !pinnedWithKey) {
            problems.add("#1: the game's chain " + Canonical.escapeForMessage(chain.name) + " has the hash you pinned but another public key than the one you pinned with it");
        } else if (pinnedWithKey) {
            notes.add("chain " + chain.name + " (" + chain.chainHash + ") trusted because you pinned its hash and public key");
        } else if (pinnedHash) {
            notes.add("chain " + chain.name + " (" + chain.chainHash + ") trusted because you pinned its hash (its public key is the file's: pin HASH:PUBLICKEY to bind it)");
        } else {
            problems.add("#1: the game's chain " + Canonical.escapeForMessage(chain.name) + " (" + chain.chainHash + ") is not quicknet and you did not pin it");
        }
        notes.add(BLS_NOT_CHECKED);
        notes.add(RULES_NOT_CHECKED);

        List<Reveal> reveals = new ArrayList<>();
        List<Object> entropy = new ArrayList<>();
        Receipt pending = null;
        long pendingRound = 0;
        boolean rolled = false;
        String sealSeed = null;
        for (int i = 1; i < commits.size(); i++) {
            Receipt c = commits.get(i);
            String at = "#" + c.seq + ": ";
            if (pending != null) {
                Reveal reveal = revealOf(c, pending, pendingRound, at, problems);
                pending = null;
                if (reveal != null) reveals.add(reveal);
                if (reveal != null || "RevealBeacon".equals(c.commandType)) {
                    for (Map<String, Object> event : c.events()) {
                        if (GAME_EVENTS.contains(event.get("type"))) problems.add(at + "a reveal holds the game event " + Canonical.escapeForMessage(String.valueOf(event.get("type"))) + "; it holds the ruleset's events only");
                        // beacon.md §4: never expected; only a verifier that replays the rules can tell an honest one from a roll voided.
                        if ("BeaconRollRefused".equals(event.get("type"))) problems.add(at + "the reveal records that the rules refused the roll: this kit does not replay rules, so it cannot tell whether that is true; check the game with the CLI (npx arbiter verify)");
                    }
                    if (reveal != null) {
                        try {
                            if (BeaconChain.parseIso(c.recordedAt) < chain.roundTimeMs(pendingRound)) problems.add(at + "the reveal is recorded before its round's time (" + chain.roundAt(pendingRound) + "): the server could not have had the beacon");
                        } catch (BeaconChain.MalformedChain e) {
                            problems.add(at + "recordedAt is " + e.getMessage());
                        }
                    }
                    continue;
                }
                // Not the reveal: a problem already; the commit is still read below for what it says.
            } else if ("RevealBeacon".equals(c.commandType)) {
                problems.add(at + "a reveal, but no commit was waiting for a beacon");
                continue;
            }
            boolean isPending = false;
            for (Map<String, Object> event : c.events()) {
                Object type = event.get("type");
                Map<?, ?> data = asMap(event.get("data"));
                if ("BeaconRollPending".equals(type)) {
                    isPending = true;
                    Long round = data == null ? null : longOf(data.get("round"));
                    if (round == null || round < 1) {
                        problems.add(at + "a pending roll without a round");
                        continue;
                    }
                    pending = c;
                    pendingRound = round;
                    rolled = true;
                    checkPendingRound(c, chain, round, data.get("roundAt"), at, problems);
                    if (c.events().size() != 1) problems.add(at + "a pending commit holds other events than BeaconRollPending");
                    if ("server".equals(c.actor)) problems.add(at + "a pending commit sent by the server itself");
                } else if ("EntropyContributed".equals(type)) {
                    if (rolled) problems.add(at + "entropy added after the first pending roll (it is locked from then on)");
                    else if (data != null) entropy.add(List.of(String.valueOf(data.get("by")), String.valueOf(data.get("entropy"))));
                } else if ("GameSealed".equals(type)) {
                    Object s = data == null ? null : data.get("serverSeed");
                    sealSeed = s instanceof String ? (String) s : null;
                }
            }
            if (!c.dice.isEmpty()) problems.add(at + (isPending ? "a pending commit draws dice" : "draws dice outside a reveal (in a beacon game only the server's reveals draw dice)"));
        }
        if (pending != null) notes.add("#" + pending.seq + " still waits for its beacon (round " + pendingRound + ")");

        int diceChecked = 0;
        String seed = sealSeed != null ? sealSeed : exportSeed;
        if (sealSeed != null && exportSeed != null && !sealSeed.equals(exportSeed)) problems.add("the export's serverSeed is not the one the seal revealed");
        boolean sealed = seed != null;
        if (sealed) {
            if (!SEED.matcher(seed).matches()) {
                problems.add("the revealed server seed is not 32 bytes in lowercase hex");
            } else if (!Crypto.hex(Crypto.sha256(Crypto.hexBytes(seed))).equals(createdData.get("commitment"))) {
                problems.add("the revealed server seed does not hash to the commitment of #1");
            } else {
                byte[] gameKey = gameKey(seed, commits.get(0).gameId, entropy);
                for (Reveal r : reveals) {
                    DiceStream stream = new DiceStream(beaconKey(gameKey, chain.chainHash, r.round, r.signature), r.pendingSeq);
                    StringBuilder expected = new StringBuilder();
                    boolean same = true;
                    for (int[] die : r.commit.dice) {
                        int value = stream.roll(die[0]);
                        expected.append(expected.length() == 0 ? "" : " ").append(value);
                        same &= value == die[1];
                    }
                    if (same) diceChecked += r.commit.dice.size();
                    else problems.add("#" + r.commit.seq + ": the reveal shows dice " + r.commit.dieFaces() + "; the seed and round " + r.round + "'s beacon give " + expected);
                }
            }
        } else {
            notes.add("dice: checkable once the game is sealed (the seed is secret until then)");
        }
        return new Result(true, chain.name, reveals.size(), diceChecked, sealed, problems, notes);
    }

    /** beacon.md §3: HMAC-SHA256(gameKey, UTF8("drand/" + chainHash + "/" + r + "/" + hex(SHA-256(signature)))). */
    public static byte[] beaconKey(byte[] gameKey, String chainHash, long round, String signatureHex) {
        String randomness = Crypto.hex(Crypto.sha256(Crypto.hexBytes(signatureHex)));
        return Crypto.hmacSha256(gameKey, ("drand/" + chainHash + "/" + round + "/" + randomness).getBytes(StandardCharsets.UTF_8));
    }

    /** fairness-v1 §3: HMAC-SHA256(serverSeed, UTF8(JCS({gameId, entropy: [[by, entropy], …]}))). */
    public static byte[] gameKey(String serverSeedHex, String gameId, List<Object> entropy) {
        Map<String, Object> message = new LinkedHashMap<>();
        message.put("gameId", gameId);
        message.put("entropy", entropy);
        try {
            return Crypto.hmacSha256(Crypto.hexBytes(serverSeedHex), Canonical.write(message).getBytes(StandardCharsets.UTF_8));
        } catch (Canonical.CanonicalException e) {
            throw new IllegalArgumentException("the game-key message cannot be written: " + e.getMessage());
        }
    }

    private static final class Reveal {
        final Receipt commit;
        final long pendingSeq;
        final long round;
        final String signature;

        Reveal(Receipt commit, long pendingSeq, long round, String signature) {
            this.commit = commit;
            this.pendingSeq = pendingSeq;
            this.round = round;
            this.signature = signature;
        }
    }

    /** The commit after a pending one must be its reveal; null (with the problem said) when it is not. */
    private static Reveal revealOf(Receipt c, Receipt pending, long round, String at, List<String> problems) {
        String waiting = "#" + pending.seq + " waits for round " + round;
        if (!"RevealBeacon".equals(c.commandType)) {
            problems.add(at + waiting + ", so this commit must be its reveal, and it is a " + Canonical.escapeForMessage(c.commandType));
            return null;
        }
        Map<?, ?> payload = asMap(c.command().get("payload"));
        Long names = payload == null ? null : longOf(payload.get("pending"));
        Long revealRound = payload == null ? null : longOf(payload.get("round"));
        Object signature = payload == null ? null : payload.get("signature");
        List<String> wrong = new ArrayList<>();
        if (names == null || names != pending.seq) wrong.add("it names commit " + names);
        if (revealRound == null || revealRound != round) wrong.add("it reveals round " + revealRound);
        if (!(signature instanceof String) || !SIGNATURE.matcher((String) signature).matches()) wrong.add("its signature is not 48 bytes in lowercase hex");
        if (!"server".equals(c.actor)) wrong.add("its actor is " + Canonical.escapeForMessage(c.actor) + ", not server");
        if (c.record.containsKey("as")) wrong.add("it is sent \"as\" someone (the server reveals for no one)");
        if (!("beacon/" + pending.seq).equals(c.commandId)) wrong.add("its commandId is " + Canonical.escapeForMessage(c.commandId) + ", not beacon/" + pending.seq);
        if (!wrong.isEmpty()) {
            problems.add(at + "the reveal of " + waiting + ", but " + String.join(", ", wrong));
            return null;
        }
        return new Reveal(c, pending.seq, round, (String) signature);
    }

    private static void checkPendingRound(Receipt c, BeaconChain chain, long round, Object roundAt, String at, List<String> problems) {
        long recorded;
        try {
            recorded = BeaconChain.parseIso(c.recordedAt);
        } catch (BeaconChain.MalformedChain e) {
            problems.add(at + "recordedAt is " + e.getMessage());
            return;
        }
        long first = chain.pendingRoundFor(recorded);
        if (round < first) {
            problems.add(at + "waits for round " + round + " (at " + chain.roundAt(round) + "), which is less than one period after the commit was recorded (" + c.recordedAt
                    + "): the server may have known that beacon when it accepted; the first round it could name is " + first);
        } else if (round > first) {
            problems.add(at + "waits for round " + round + "; the first round at least one period after " + c.recordedAt + " is " + first);
        }
        if (!chain.roundAt(round).equals(roundAt)) problems.add(at + "roundAt " + Canonical.escapeForMessage(String.valueOf(roundAt)) + " is not round " + round + "'s time, " + chain.roundAt(round));
    }

    private static Result notBeacon(List<Receipt> commits) {
        List<String> problems = new ArrayList<>();
        for (Receipt c : commits) {
            if ("RevealBeacon".equals(c.commandType)) problems.add("#" + c.seq + ": a reveal in a game created without a beacon");
            for (Map<String, Object> e : c.events()) if ("BeaconRollPending".equals(e.get("type"))) problems.add("#" + c.seq + ": a pending roll in a game created without a beacon");
        }
        return new Result(false, null, 0, 0, false, problems, new ArrayList<>());
    }

    private static Map<String, Object> firstEvent(Receipt r, String type) {
        List<Map<String, Object>> events = r.events();
        return !events.isEmpty() && type.equals(events.get(0).get("type")) ? events.get(0) : null;
    }

    private static Map<?, ?> asMap(Object o) {
        return o instanceof Map ? (Map<?, ?>) o : null;
    }

    private static Long longOf(Object o) {
        if (!(o instanceof Json.JsonNumber)) return null;
        try {
            return ((Json.JsonNumber) o).longValueExact();
        } catch (ArithmeticException e) {
            return null;
        }
    }
}
