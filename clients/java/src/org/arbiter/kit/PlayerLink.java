package org.arbiter.kit;

import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * A player's timeline link, as the web app writes it (web/app/api.ts gameLink):
 * {@code https://arbiter.example/#/games/{gameId}?token={token}}, both parts percent-encoded. It gives the
 * server (the link's origin: the web app calls the API on its own origin), the game and the player's token.
 *
 * Parsed strictly: https, or http only to this computer (127.0.0.0/8, ::1, localhost); no user name or
 * password, no query before the '#', nothing but "token" after the game; every mistake is an
 * {@link IllegalArgumentException} in a player's words that never repeats the link (it holds the token).
 * {@link #toString()} leaves the token out as well.
 */
public final class PlayerLink {
    private static final int MAX_PART = 512;

    public final String serverUrl;
    public final String gameId;
    private final String token;

    private PlayerLink(String serverUrl, String gameId, String token) {
        this.serverUrl = serverUrl;
        this.gameId = gameId;
        this.token = token;
    }

    /** The player's token: for the Authorization header only, never for a log, a chat line or a message. */
    public String token() {
        return token;
    }

    @Override
    public String toString() {
        return "PlayerLink[" + serverUrl + ", game " + gameId + ", token hidden]";
    }

    public static PlayerLink parse(String text) {
        if (text == null || text.isBlank()) throw bad("the link is empty");
        String link = text.strip();
        if (link.length() > 4 * MAX_PART) throw bad("the link is too long");
        for (int i = 0; i < link.length(); i++) {
            char c = link.charAt(i);
            if (c <= 0x20 || c >= 0x7f) throw bad("the link has a space or a character a link cannot have (copy it again, whole)");
        }
        URI uri;
        try {
            uri = new URI(link);
        } catch (URISyntaxException e) {
            throw bad("it is not a link (copy it again, whole)");
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("https") && !scheme.equals("http")) throw bad("it must start with https://");
        String host = uri.getHost();
        if (host == null || uri.getRawAuthority() == null) throw bad("it names no server");
        if (uri.getRawUserInfo() != null) throw bad("it must not hold a user name or password before the server's name");
        if (scheme.equals("http") && !isLoopback(host)) throw bad("it must start with https:// (http:// only for a server on this computer)");
        String path = uri.getRawPath();
        if (path != null && !path.isEmpty() && !path.equals("/")) throw bad("the server part must end before the '#' (…/#/games/…)");
        if (uri.getRawQuery() != null) throw bad("the server part must end before the '#' (…/#/games/…)");
        String fragment = uri.getRawFragment();
        String prefix = "/games/";
        if (fragment == null || !fragment.startsWith(prefix)) throw bad("it is not a game's link (…/#/games/{game}?token=…); use the link of your own seat in the game");
        int q = fragment.indexOf('?');
        if (q < 0) throw bad("it has no token (…/#/games/{game}?token=…): use the link of your own seat, not the game's public page");
        String rawGame = fragment.substring(prefix.length(), q);
        String query = fragment.substring(q + 1);
        if (rawGame.isEmpty() || rawGame.contains("/")) throw bad("it is not a game's link (…/#/games/{game}?token=…)");
        if (!query.startsWith("token=") || query.indexOf('&') >= 0 || query.indexOf('#') >= 0) throw bad("after the game it must have only ?token=…");
        String gameId = decode(rawGame, "game id");
        if (!ArbiterClient.isId(gameId)) throw bad("its game id is not one the server gives (letters, digits and . _ : - only)");
        String token = decode(query.substring("token=".length()), "token");
        if (token.isEmpty()) throw bad("its token is empty");
        int port = uri.getPort();
        if (port == 0 || port > 65535) throw bad("its port number is not one a server can have (1 to 65535)");
        // URI gives an IPv6 host in its brackets already; a scheme's default port is left out, as a browser shows the origin.
        String server = scheme + "://" + host.toLowerCase(Locale.ROOT) + (port >= 0 && port != defaultPort(scheme) ? ":" + port : "");
        return new PlayerLink(server, gameId, token);
    }

    /**
     * True when both name the same server (scheme, host and port, a scheme's default port written or not, a
     * trailing '/' or not): e.g. a module's configured server URL and a player's link's. False when either is not a URL.
     */
    public static boolean sameServer(String a, String b) {
        try {
            URI x = new URI(a.strip()), y = new URI(b.strip());
            if (x.getScheme() == null || y.getScheme() == null || x.getHost() == null || y.getHost() == null) return false;
            String scheme = x.getScheme().toLowerCase(Locale.ROOT);
            return scheme.equals(y.getScheme().toLowerCase(Locale.ROOT))
                    && x.getHost().equalsIgnoreCase(y.getHost())
                    && port(x, scheme) == port(y, scheme);
        } catch (URISyntaxException e) {
            return false;
        }
    }

    private static int port(URI uri, String scheme) {
        return uri.getPort() >= 0 ? uri.getPort() : defaultPort(scheme);
    }

    private static int defaultPort(String scheme) {
        return scheme.equals("https") ? 443 : scheme.equals("http") ? 80 : -1;
    }

    static boolean isLoopback(String host) {
        String h = host.toLowerCase(Locale.ROOT);
        if (h.startsWith("[") && h.endsWith("]")) h = h.substring(1, h.length() - 1);
        if (h.equals("localhost") || h.equals("::1") || h.equals("0:0:0:0:0:0:0:1")) return true;
        String[] parts = h.split("\\.", -1);
        if (parts.length != 4 || !parts[0].equals("127")) return false;
        for (String p : parts) {
            if (!p.matches("(0|[1-9][0-9]{0,2})") || Integer.parseInt(p) > 255) return false;
        }
        return true;
    }

    /** Strict percent-decoding to UTF-8 ('+' stays '+', as encodeURIComponent writes it); no controls in the result. */
    private static String decode(String raw, String what) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        for (int i = 0; i < raw.length(); i++) {
            char c = raw.charAt(i);
            if (c == '%') {
                if (i + 2 >= raw.length() || Character.digit(raw.charAt(i + 1), 16) < 0 || Character.digit(raw.charAt(i + 2), 16) < 0) throw bad("its " + what + " has a broken %-escape");
                bytes.write(Character.digit(raw.charAt(i + 1), 16) * 16 + Character.digit(raw.charAt(i + 2), 16));
                i += 2;
            } else {
                bytes.write(c);
            }
        }
        String text;
        try {
            text = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes.toByteArray())).toString();
        } catch (CharacterCodingException e) {
            throw bad("its " + what + " is not UTF-8 text");
        }
        if (text.length() > MAX_PART) throw bad("its " + what + " is too long");
        for (int i = 0; i < text.length(); i++) {
            if (TextLine.isUnsafe(text.charAt(i)) || Character.isWhitespace(text.charAt(i))) throw bad("its " + what + " has a space or a control character");
        }
        return text;
    }

    private static IllegalArgumentException bad(String why) {
        return new IllegalArgumentException("That is not your Arbiter game link: " + why + ".");
    }
}
