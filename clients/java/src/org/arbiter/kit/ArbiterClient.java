package org.arbiter.kit;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.HttpURLConnection;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The Arbiter HTTP API with java.net.HttpURLConnection only (VASSAL's jlinked runtime has no
 * java.net.http). A command's commandId is chosen before the first attempt and sent again
 * unchanged on every retry, so a retry after a timeout returns the stored commit: it can never
 * roll again. Retries are bounded: I/O failures (refused, timed out) and 503 (honouring
 * Retry-After, up to a cap), and in a beacon game 409 beacon_pending (another roll waits for its
 * beacon: nothing was stored; sent again after Retry-After, up to a total). Call it off the UI
 * thread: it blocks.
 */
public final class ArbiterClient {
    private static final Pattern ID = Pattern.compile("^[A-Za-z0-9._:-]{1,128}$");
    private static final int MAX_BODY = 8 * 1024 * 1024;

    private final String baseUrl;
    private int connectTimeoutMs = 5_000;
    private int readTimeoutMs = 15_000;
    private int maxAttempts = 4;
    private int maxRetryAfterSeconds = 10;
    private long backoffMs = 250;
    private long maxBeaconPendingWaitMs = 30_000;
    private volatile int lastAttempts;
    private volatile int lastBeaconPendingWaits;

    /** An answer of the server that is not a success: status, error code and message. */
    public static class ArbiterException extends Exception {
        private static final long serialVersionUID = 1L;
        public final int status;
        public final String code;

        public ArbiterException(int status, String code, String message) {
            super(message);
            this.status = status;
            this.code = code;
        }
    }

    /** The server could not be reached or stayed unavailable through every retry: nothing is known to have happened. */
    public static final class Unavailable extends ArbiterException {
        private static final long serialVersionUID = 1L;

        public Unavailable(String message) {
            super(0, "unavailable", message);
        }
    }

    public ArbiterClient(String baseUrl) {
        if (!baseUrl.startsWith("http://") && !baseUrl.startsWith("https://")) throw new IllegalArgumentException("the Arbiter URL must be http:// or https://");
        this.baseUrl = baseUrl.endsWith("/") ? baseUrl.substring(0, baseUrl.length() - 1) : baseUrl;
    }

    public ArbiterClient timeouts(int connectMs, int readMs) {
        this.connectTimeoutMs = connectMs;
        this.readTimeoutMs = readMs;
        return this;
    }

    /** At most {@code attempts} requests per call; waits at most {@code maxRetryAfterSeconds} for one Retry-After. */
    public ArbiterClient retries(int attempts, int maxRetryAfterSeconds, long backoffMs) {
        if (attempts < 1) throw new IllegalArgumentException("attempts must be at least 1");
        this.maxAttempts = attempts;
        this.maxRetryAfterSeconds = maxRetryAfterSeconds;
        this.backoffMs = backoffMs;
        return this;
    }

    /**
     * In a beacon game, an append while another roll waits for its beacon is answered 409
     * {@code beacon_pending} with Retry-After (beacon.md §2.2): the same request is sent again
     * after it, for at most {@code maxTotalSeconds} in all; then the 409 is the answer.
     */
    public ArbiterClient beaconPendingWait(int maxTotalSeconds) {
        if (maxTotalSeconds < 0) throw new IllegalArgumentException("maxTotalSeconds must be at least 0");
        this.maxBeaconPendingWaitMs = maxTotalSeconds * 1000L;
        return this;
    }

    /** How many times the last call waited for another roll's beacon (409 beacon_pending). */
    public int lastBeaconPendingWaits() {
        return lastBeaconPendingWaits;
    }

    /** How many requests the last call made (1 = no retry). */
    public int lastAttempts() {
        return lastAttempts;
    }

    /** A fresh commandId; choose it once per roll, before sending, and keep it for every retry. */
    public static String newCommandId() {
        return "vassal-" + UUID.randomUUID();
    }

    /** POST /games: returns the answer (gameId, sides, commitment, tokens — shown once). */
    public Map<String, Object> createGame(String ruleset, String optionsJson) throws ArbiterException {
        return createGame(ruleset, optionsJson, null);
    }

    /** As {@link #createGame(String, String)}; with {@code beaconChain} ("quicknet", or a chain the operator configured), a beacon game (docs/beacon.md). */
    public Map<String, Object> createGame(String ruleset, String optionsJson, String beaconChain) throws ArbiterException {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("ruleset", ruleset);
        if (optionsJson != null) body.put("options", parse(optionsJson));
        if (beaconChain != null) body.put("randomness", Map.of("beacon", beaconChain));
        return object(request("POST", "/games", null, body, "application/json"));
    }

    /**
     * GET /keys (trust.md §2): the server's public keys, current and retired, and its key log.
     * Learn it with {@link TrustedKeys#learnAll}: trust comes from the pins, and reaches a newer
     * key only through the log's statements, each signed by the key it retires.
     */
    public Map<String, Object> keys() throws ArbiterException {
        return object(request("GET", "/keys", null, null, "application/json"));
    }

    /** GET /games/{id}/export (any token of the game): the whole game, its keys and its {@code keyLog} ({@link TrustedKeys#learnExport}). */
    public Map<String, Object> export(String gameId, String token) throws ArbiterException {
        return object(request("GET", "/games/" + id(gameId) + "/export", token, null, "application/json"));
    }

    /**
     * POST a command and get its receipt (201 the first time, 200 for a retry of the same
     * commandId). In a beacon game a roll is answered 202 with its pending commit: that commit
     * is returned; {@link #submit} tells the cases apart.
     */
    public Receipt command(String gameId, String token, String commandId, String type, String payloadJson) throws ArbiterException {
        return command(gameId, token, commandId, type, payloadJson, null);
    }

    /** As {@link #command}, the organizer acting for side {@code as}. */
    public Receipt command(String gameId, String token, String commandId, String type, String payloadJson, String as) throws ArbiterException {
        return submit(gameId, token, commandId, type, payloadJson, as).commit;
    }

    /** A command's answer: its commit, and in a beacon game the roll's pending state or its reveal. */
    public static final class CommandAnswer {
        /** 201 (new), 200 (a retried commandId), 202 (a beacon game's pending roll, new or retried). */
        public final int status;
        /** The command's commit: in a beacon game's roll, the pending commit. */
        public final Receipt commit;
        /** The reveal of the pending commit, when a retried commandId finds it revealed (200); else null. */
        public final Receipt reveal;
        /** The drand round the roll waits for (202), else 0; and its time as the server gives it. */
        public final long round;
        public final String roundAt;
        /** The chain's name as the 202 answer gives it, or null. */
        public final String chain;
        /** When this computer received the answer (its clock): what the sender's check compares with. */
        public final long receivedAtMs;

        CommandAnswer(int status, Receipt commit, Receipt reveal, long round, String roundAt, String chain, long receivedAtMs) {
            this.status = status;
            this.commit = commit;
            this.reveal = reveal;
            this.round = round;
            this.roundAt = roundAt;
            this.chain = chain;
            this.receivedAtMs = receivedAtMs;
        }

        /** A roll that waits for its beacon: 202, no reveal yet. */
        public boolean pending() {
            return status == 202 && reveal == null;
        }
    }

    /** POST a command: its commit, and for a beacon game's roll the pending round (202) or the reveal (200 to a retry). */
    public CommandAnswer submit(String gameId, String token, String commandId, String type, String payloadJson, String as) throws ArbiterException {
        Response response = exchange("POST", "/games/" + id(gameId) + "/commands", token, commandBody(commandId, type, payloadJson, as), "application/json");
        long receivedAt = System.currentTimeMillis();
        Map<String, Object> answer = object(response.text);
        Receipt commit = receipt(answer.get("commit"), response.status);
        Receipt reveal = answer.get("reveal") == null ? null : receipt(answer.get("reveal"), response.status);
        long round = 0;
        String roundAt = null, chain = null;
        Pending p = pendingOf(commit);
        if (p != null) {
            round = p.round;
            roundAt = p.roundAt;
        }
        Object beacon = answer.get("beacon");
        if (beacon instanceof Map && ((Map<?, ?>) beacon).get("chain") instanceof String) chain = (String) ((Map<?, ?>) beacon).get("chain");
        if (response.status == 202 && p == null) throw new ArbiterException(202, "bad_answer", "the server answered 202 with a commit that waits for no beacon");
        if (reveal != null && (p == null || !revealOf(reveal, commit))) throw new ArbiterException(response.status, "bad_answer", "the answer's reveal is not the reveal of its commit");
        return new CommandAnswer(response.status, commit, reveal, round, roundAt, chain, receivedAt);
    }

    /**
     * Waits for the reveal of a pending commit (beacon.md §2.3): polls GET /games/{id}/events
     * after it, holding each request on the server ({@code wait}), for at most {@code maxWaitMs}
     * in all. Returns the reveal, or null when it has not come by then (ask again later: the
     * server reveals every pending commit).
     */
    public Receipt waitForReveal(String gameId, String token, Receipt pending, long maxWaitMs) throws ArbiterException {
        if (pendingOf(pending) == null) throw new IllegalArgumentException("#" + pending.seq + " waits for no beacon");
        long deadline = System.currentTimeMillis() + maxWaitMs;
        for (;;) {
            long left = deadline - System.currentTimeMillis();
            int wait = (int) Math.max(0, Math.min(Math.min(20, readTimeoutMs / 1000 - 2), left / 1000));
            List<Receipt> next = events(gameId, token, pending.seq, 1, wait);
            if (!next.isEmpty()) {
                Receipt r = next.get(0);
                if (!revealOf(r, pending)) throw new ArbiterException(200, "bad_answer", "#" + r.seq + " follows the pending #" + pending.seq + " and is not its reveal");
                return r;
            }
            if (System.currentTimeMillis() >= deadline) return null;
            if (wait == 0) sleep(Math.min(1000, Math.max(1, deadline - System.currentTimeMillis())));
        }
    }

    /** The round a commit waits for, when it is a pending commit. */
    static final class Pending {
        final long round;
        final String roundAt;

        Pending(long round, String roundAt) {
            this.round = round;
            this.roundAt = roundAt;
        }
    }

    static Pending pendingOf(Receipt r) {
        List<Map<String, Object>> events = r.events();
        if (events.size() != 1 || !"BeaconRollPending".equals(events.get(0).get("type")) || !(events.get(0).get("data") instanceof Map)) return null;
        Map<?, ?> data = (Map<?, ?>) events.get(0).get("data");
        if (!(data.get("round") instanceof Json.JsonNumber) || !(data.get("roundAt") instanceof String)) return null;
        try {
            return new Pending(((Json.JsonNumber) data.get("round")).longValueExact(), (String) data.get("roundAt"));
        } catch (ArithmeticException e) {
            return null;
        }
    }

    /** Is {@code r} the reveal of {@code pending}: RevealBeacon, same game, next seq, naming it and its round. */
    static boolean revealOf(Receipt r, Receipt pending) {
        Pending p = pendingOf(pending);
        if (p == null || !"RevealBeacon".equals(r.commandType) || !r.gameId.equals(pending.gameId) || r.seq != pending.seq + 1) return false;
        Object payload = r.command().get("payload");
        if (!(payload instanceof Map)) return false;
        Map<?, ?> m = (Map<?, ?>) payload;
        return Json.JsonNumber.of(pending.seq).equals(m.get("pending")) && Json.JsonNumber.of(p.round).equals(m.get("round"));
    }

    private static Receipt receipt(Object commit, int status) throws ArbiterException {
        if (!(commit instanceof Map)) throw new ArbiterException(status, "bad_answer", "the answer carries no commit");
        try {
            @SuppressWarnings("unchecked")
            Map<String, Object> record = (Map<String, Object>) commit;
            return Receipt.of(record);
        } catch (Receipt.MalformedReceipt e) {
            throw new ArbiterException(status, "bad_answer", "malformed commit: " + e.getMessage());
        }
    }

    /** POST a command with {@code Accept: text/plain}: the server's chat line for it (unsigned: display only). */
    public String commandText(String gameId, String token, String commandId, String type, String payloadJson) throws ArbiterException {
        return request("POST", "/games/" + id(gameId) + "/commands", token, commandBody(commandId, type, payloadJson, null), "text/plain");
    }

    /** GET /games/{id}/events?after=N: the commits after seq {@code after}, at most {@code limit}. */
    public List<Receipt> events(String gameId, String token, long after, int limit) throws ArbiterException {
        return events(gameId, token, after, limit, 0);
    }

    /** As {@link #events}, the server holding the request up to {@code waitSeconds} (0–20) until a commit after {@code after} exists. */
    public List<Receipt> events(String gameId, String token, long after, int limit, int waitSeconds) throws ArbiterException {
        String query = "?after=" + after + "&limit=" + limit + (waitSeconds > 0 ? "&wait=" + Math.min(20, waitSeconds) : "");
        Map<String, Object> page = object(request("GET", "/games/" + id(gameId) + "/events" + query, token, null, "application/json"));
        List<Receipt> out = new ArrayList<>();
        Object commits = page.get("commits");
        if (!(commits instanceof List)) throw new ArbiterException(200, "bad_answer", "the answer carries no commits");
        for (Object c : (List<?>) commits) {
            if (!(c instanceof Map)) throw new ArbiterException(200, "bad_answer", "a commit is not an object");
            try {
                @SuppressWarnings("unchecked")
                Map<String, Object> record = (Map<String, Object>) c;
                out.add(Receipt.of(record));
            } catch (Receipt.MalformedReceipt e) {
                throw new ArbiterException(200, "bad_answer", "malformed commit: " + e.getMessage());
            }
        }
        return out;
    }

    /** GET /games/{id}/events as chat lines. */
    public String eventsText(String gameId, String token, long after) throws ArbiterException {
        return request("GET", "/games/" + id(gameId) + "/events?after=" + after + "&limit=1000", token, null, "text/plain");
    }

    private static Map<String, Object> commandBody(String commandId, String type, String payloadJson, String as) throws ArbiterException {
        if (commandId == null || !ID.matcher(commandId).matches()) throw new IllegalArgumentException("commandId: 1-128 letters, digits, . _ : -");
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("commandId", commandId);
        body.put("type", type);
        body.put("payload", parse(payloadJson == null ? "{}" : payloadJson));
        if (as != null) body.put("as", as);
        return body;
    }

    private static Object parse(String json) throws ArbiterException {
        try {
            return Json.parse(json);
        } catch (Json.JsonException e) {
            throw new IllegalArgumentException("not JSON: " + e.getMessage());
        }
    }

    private static String id(String gameId) {
        if (!isId(gameId)) throw new IllegalArgumentException("not a game id");
        return gameId;
    }

    /** A game id or command id as the server accepts it: 1 to 128 letters, digits or . _ : - */
    static boolean isId(String id) {
        return id != null && ID.matcher(id).matches();
    }

    private static Map<String, Object> object(String text) throws ArbiterException {
        try {
            return Json.parseObject(text);
        } catch (Json.JsonException e) {
            throw new ArbiterException(200, "bad_answer", "the server's answer is not strict JSON: " + e.getMessage());
        }
    }

    private static final class Response {
        final int status;
        final String text;

        Response(int status, String text) {
            this.status = status;
            this.text = text;
        }
    }

    private String request(String method, String path, String token, Object body, String accept) throws ArbiterException {
        return exchange(method, path, token, body, accept).text;
    }

    private static void sleep(long ms) throws Unavailable {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new Unavailable("interrupted");
        }
    }

    /** One call: the same request body on every attempt. */
    private Response exchange(String method, String path, String token, Object body, String accept) throws ArbiterException {
        byte[] bytes;
        try {
            bytes = body == null ? null : Canonical.write(body).getBytes(StandardCharsets.UTF_8);
        } catch (Canonical.CanonicalException e) {
            throw new IllegalArgumentException("the request cannot be written as JSON: " + e.getMessage());
        }
        String lastProblem = "no attempt";
        long beaconWaitedMs = 0;
        lastBeaconPendingWaits = 0;
        for (int attempt = 1; attempt <= maxAttempts; attempt++) {
            lastAttempts = attempt;
            long waitMs = backoffMs * attempt;
            HttpURLConnection http = null;
            try {
                http = (HttpURLConnection) new URL(baseUrl + path).openConnection();
                http.setRequestMethod(method);
                http.setConnectTimeout(connectTimeoutMs);
                http.setReadTimeout(readTimeoutMs);
                http.setInstanceFollowRedirects(false);
                http.setUseCaches(false);
                http.setRequestProperty("Accept", accept);
                if (token != null) http.setRequestProperty("Authorization", "Bearer " + token);
                if (bytes != null) {
                    http.setDoOutput(true);
                    http.setRequestProperty("Content-Type", "application/json");
                    http.setFixedLengthStreamingMode(bytes.length);
                    try (OutputStream out = http.getOutputStream()) {
                        out.write(bytes);
                    }
                }
                int status = http.getResponseCode();
                String text = readAll(status >= 400 ? http.getErrorStream() : http.getInputStream());
                if (status >= 200 && status < 300) return new Response(status, text);
                // An export too large for one answer is stored and linked (303): fetched from the link, without the token.
                if (status == 303 && "GET".equals(method)) return new Response(200, followLink(http.getURL(), http.getHeaderField("Location"), accept));
                if (status == 409) {
                    ArbiterException refused = error(status, text);
                    long seconds = Math.max(1, parseRetryAfter(http.getHeaderField("Retry-After")));
                    if (!"beacon_pending".equals(refused.code) || beaconWaitedMs + seconds * 1000 > maxBeaconPendingWaitMs) throw refused;
                    // Another roll waits for its beacon: nothing was stored; the same request, after it is revealed.
                    beaconWaitedMs += seconds * 1000;
                    lastBeaconPendingWaits++;
                    http.disconnect();
                    sleep(seconds * 1000);
                    attempt--;
                    continue;
                }
                if (status == 503) {
                    String retryAfter = http.getHeaderField("Retry-After");
                    long seconds = parseRetryAfter(retryAfter);
                    if (seconds > maxRetryAfterSeconds) throw new Unavailable("the server is unavailable and asks to wait " + seconds + " s");
                    waitMs = Math.max(waitMs, seconds * 1000);
                    lastProblem = "503 unavailable";
                } else {
                    throw error(status, text);
                }
            } catch (IOException e) {
                lastProblem = e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage());
            } finally {
                if (http != null) http.disconnect();
            }
            if (attempt < maxAttempts) {
                try {
                    Thread.sleep(waitMs);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new Unavailable("interrupted");
                }
            }
        }
        throw new Unavailable(lastProblem + " after " + maxAttempts + " attempts");
    }

    /** GET a stored export's time-limited link: http or https only, never with the bearer token, never further redirected. */
    private String followLink(URL from, String location, String accept) throws ArbiterException, IOException {
        if (location == null || location.isEmpty()) throw new ArbiterException(303, "bad_answer", "the server answered 303 without a link");
        URL link;
        try {
            link = from.toURI().resolve(location).toURL();
        } catch (java.net.URISyntaxException | IllegalArgumentException e) {
            throw new ArbiterException(303, "bad_answer", "the server's link is not a URL");
        }
        if (!"https".equals(link.getProtocol()) && !"http".equals(link.getProtocol())) throw new ArbiterException(303, "bad_answer", "the server's link is not http or https");
        HttpURLConnection http = (HttpURLConnection) link.openConnection();
        try {
            http.setRequestMethod("GET");
            http.setConnectTimeout(connectTimeoutMs);
            http.setReadTimeout(readTimeoutMs);
            http.setInstanceFollowRedirects(false);
            http.setUseCaches(false);
            http.setRequestProperty("Accept", accept);
            int status = http.getResponseCode();
            String text = readAll(status >= 400 ? http.getErrorStream() : http.getInputStream());
            if (status == 200) return text;
            throw new ArbiterException(status, "link_failed", "the stored export's link answered HTTP " + status);
        } finally {
            http.disconnect();
        }
    }

    static long parseRetryAfter(String value) {
        if (value == null) return 1;
        try {
            long s = Long.parseLong(value.trim());
            return s < 0 ? 1 : s;
        } catch (NumberFormatException e) {
            return 1; // an HTTP date, or garbage: wait the minimum, bounded by maxAttempts anyway
        }
    }

    private static ArbiterException error(int status, String text) {
        try {
            Map<String, Object> body = Json.parseObject(text);
            Object error = body.get("error");
            if (error instanceof Map) {
                Map<?, ?> e = (Map<?, ?>) error;
                String code = e.get("code") instanceof String ? (String) e.get("code") : "error";
                String message = e.get("message") instanceof String ? (String) e.get("message") : "";
                return new ArbiterException(status, code, message);
            }
        } catch (Json.JsonException ignored) {
            // fall through: asked with Accept: text/plain, an error is one line (docs/http-api.md "Errors as one line of text")
        }
        Matcher line = ERROR_LINE.matcher(text);
        if (line.matches()) return new ArbiterException(status, line.group(1), line.group(2));
        return new ArbiterException(status, "http_" + status, "HTTP " + status);
    }

    /** {@code <status> <code>: <message>}, ended by a line feed. */
    private static final Pattern ERROR_LINE = Pattern.compile("^\\d{3} ([a-z_]+): (.*)\n?$");

    private static String readAll(InputStream in) throws IOException {
        if (in == null) return "";
        try (InputStream stream = in) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            byte[] buffer = new byte[8192];
            int n;
            while ((n = stream.read(buffer)) > 0) {
                if (out.size() + n > MAX_BODY) throw new IOException("answer too large");
                out.write(buffer, 0, n);
            }
            return new String(out.toByteArray(), StandardCharsets.UTF_8);
        }
    }
}
