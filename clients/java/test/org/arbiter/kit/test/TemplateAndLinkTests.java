package org.arbiter.kit.test;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.arbiter.kit.CommandTemplate;
import org.arbiter.kit.Json;
import org.arbiter.kit.PlayerLink;

/**
 * Offline: the command templates of ArbiterCommandButton (VASSAL properties substituted, JSON-escaped, never
 * able to add a field or end a string; an unknown property is an error and nothing is sent) and the player's
 * link (parsed strictly; the token never in a message or toString).
 */
public final class TemplateAndLinkTests {
    static final String TOKEN = "SECRETtok-9f8e7d";

    public static void main(String[] args) {
        T.section("a France 1944 ResolveCombat, RollAirPower and a Normandy '44 ResolveAttack from templates", TemplateAndLinkTests::rulesetCommands);
        T.section("property values are data: escaped inside strings, whole numbers only outside", TemplateAndLinkTests::hostileValues);
        T.section("an unknown property or a wrong template: an error in words, nothing to send", TemplateAndLinkTests::errors);
        T.section("the player's link: server, game and token", TemplateAndLinkTests::links);
        T.section("a wrong link is refused in words that never repeat the token", TemplateAndLinkTests::badLinks);
        System.exit(T.finish());
    }

    static CommandTemplate.Filled fill(String template, Map<String, String> properties) throws Exception {
        return CommandTemplate.parse(template).fill(properties::get);
    }

    static void rulesetCommands() throws Exception {
        CommandTemplate combat = CommandTemplate.parse("{\"type\": \"ResolveCombat\", \"payload\": {\"combatId\": \"$CombatId$\"}}");
        T.equal(combat.propertyNames(), Set.of("CombatId"), "the template names its properties");
        CommandTemplate.Filled c = combat.fill(Map.of("CombatId", "c1")::get);
        T.equal(c.type, "ResolveCombat", "France 1944: the type");
        T.equal(c.payloadJson, "{\"combatId\":\"c1\"}", "France 1944: the payload, canonical");
        CommandTemplate.Filled air = fill("{\"type\":\"RollAirPower\",\"payload\":{\"combatId\":\"$CombatId$\",\"availability\":$AirPowerAvailability$}}", Map.of("CombatId", "c1", "AirPowerAvailability", "4"));
        T.equal(air.payloadJson, "{\"availability\":4,\"combatId\":\"c1\"}", "a whole number outside a string is a number");
        CommandTemplate.Filled attack = fill("{\"type\":\"ResolveAttack\",\"payload\":{\"attackId\":\"$AttackId$\"}}", Map.of("AttackId", "a-2708"));
        T.equal(attack.type + " " + attack.payloadJson, "ResolveAttack {\"attackId\":\"a-2708\"}", "Normandy '44 ResolveAttack");
        T.equal(fill("{\"type\":\"Roll\",\"payload\":{\"dice\":\"$Dice$\",\"purpose\":\"$$5 bet on $Hex$\"}}", Map.of("Dice", "2d6", "Hex", "2708")).payloadJson,
                "{\"dice\":\"2d6\",\"purpose\":\"$5 bet on 2708\"}", "$$ is a dollar sign; several properties in one string");
        T.equal(fill("{\"type\":\"Roll\",\"payload\":{\"dice\":\"2d6\",\"purpose\":\"$Player Side$ \\\"$Hex$\\\"\"}}", Map.of("Player Side", "Allied", "Hex", "2708")).payloadJson,
                "{\"dice\":\"2d6\",\"purpose\":\"Allied \\\"2708\\\"\"}", "escaped quotes of the template stay; a property name with a space");
    }

    static void hostileValues() throws Exception {
        String template = "{\"type\":\"ResolveCombat\",\"payload\":{\"combatId\":\"$CombatId$\"}}";
        for (String value : List.of("c1\",\"extra\":\"x", "c1\"}, \"type\": \"Seal", "\\\"", "a\nb\r\tc\u0000\u001f", "\u2028\u202e end", "😀 \\u0022", "$Other$", "}")) {
            CommandTemplate.Filled f = fill(template, Map.of("CombatId", value, "Other", "never read"));
            Map<String, Object> payload = Json.parseObject(f.payloadJson);
            T.equal(payload.keySet(), Set.of("combatId"), "one field whatever the value: " + printable(value));
            T.equal(payload.get("combatId"), value, "the value arrives exactly: " + printable(value));
            T.equal(f.type, "ResolveCombat", "the type is unchanged: " + printable(value));
        }
        String number = "{\"type\":\"RollAirPower\",\"payload\":{\"combatId\":\"c1\",\"availability\":$A$}}";
        T.equal(fill(number, Map.of("A", "-3")).payloadJson, "{\"availability\":-3,\"combatId\":\"c1\"}", "a negative whole number");
        T.equal(fill("{\"type\":\"Strafe\",\"payload\":{\"targetUnitId\":\"u1\",\"flak\":$Flak$}}", Map.of("Flak", "true")).payloadJson, "{\"flak\":true,\"targetUnitId\":\"u1\"}", "true/false outside a string");
        for (String value : List.of("4, \"combatId\": \"c2\"", "4}", "1e3", "04", "", " 4", "4.5", "null", "\"4\"", "99999999999999999")) {
            T.throwsLike(CommandTemplate.TemplateException.class, "needs a whole number", "not a whole number where one is needed: " + printable(value), () -> fill(number, Map.of("A", value)));
        }
        T.equal(fill(number, Map.of("A", "-9007199254740991")).payloadJson, "{\"availability\":-9007199254740991,\"combatId\":\"c1\"}", "the largest whole number JSON carries exactly");
        T.throwsLike(CommandTemplate.TemplateException.class, "the property A is 9007199254740992, beyond the whole numbers", "a whole number beyond 2^53 - 1: refused, naming the property",
                () -> fill(number, Map.of("A", "9007199254740992")));
        T.throwsLike(CommandTemplate.TemplateException.class, "broken character", "a lone surrogate", () -> fill(template, Map.of("CombatId", "a\ud800")));
    }

    static void errors() throws Exception {
        String template = "{\"type\":\"ResolveCombat\",\"payload\":{\"combatId\":\"$CombatId$\",\"hex\":\"$Hex$\"}}";
        T.throwsLike(CommandTemplate.TemplateException.class, "no property named CombatId is set", "an unknown property", () -> fill(template, Map.of("Hex", "2708")));
        T.throwsLike(CommandTemplate.TemplateException.class, "no properties named CombatId, Hex", "two unknown properties, both named", () -> fill(template, Map.of()));
        Map<String, String> none = new HashMap<>();
        for (String[] bad : new String[][] {
            {"", "empty"},
            {"{\"type\":\"Roll\",\"payload\":{\"dice\":\"$Dice\"}}", "no closing"},
            {"{\"type\":\"Roll\",\"payload\":{\"dice\":\"2d6\"}", "not JSON"},
            {"{\"type\":\"Roll\",\"payload\":{},\"commandId\":\"x\"}", "nothing else"},
            {"{\"type\":\"Roll; DROP\",\"payload\":{}}", "command name"},
            {"{\"type\":\"Roll\",\"payload\":[1]}", "must be an object"},
            {"{\"type\":\"Roll\",\"payload\":{\"dice\":\"a\\", "ends inside a string"},
            {"[{\"type\":\"Roll\",\"payload\":{}}]", "not JSON"},
        }) {
            T.throwsLike(CommandTemplate.TemplateException.class, bad[1], "a wrong template: " + bad[1], () -> CommandTemplate.parse(bad[0]).fill(none::get));
        }
        T.throwsLike(CommandTemplate.TemplateException.class, "command name", "a property cannot make the type something else", () -> fill("{\"type\":\"$T$\",\"payload\":{}}", Map.of("T", "Roll\",\"x\":\"")));
    }

    static void links() throws Exception {
        PlayerLink link = PlayerLink.parse("https://Arbiter.Example.org/#/games/g-123abc?token=" + TOKEN);
        T.equal(link.serverUrl, "https://arbiter.example.org", "the server is the link's origin");
        T.equal(link.gameId, "g-123abc", "the game");
        T.equal(link.token(), TOKEN, "the token");
        T.check(!link.toString().contains(TOKEN), "toString leaves the token out: " + link);
        PlayerLink encoded = PlayerLink.parse("  https://arbiter.example.org:8443/#/games/g-%3Ax?token=a%2Bb%3D%3D+c  ");
        T.equal(encoded.serverUrl, "https://arbiter.example.org:8443", "a port is kept; white space around the link is ignored");
        T.equal(encoded.gameId, "g-:x", "a percent-encoded game id");
        T.equal(encoded.token(), "a+b==+c", "percent-decoding as encodeURIComponent wrote it ('+' stays '+')");
        T.equal(PlayerLink.parse("http://127.0.0.1:8787/#/games/g-1?token=t").serverUrl, "http://127.0.0.1:8787", "http to 127.0.0.1 (npm start)");
        T.equal(PlayerLink.parse("http://localhost:8787/#/games/g-1?token=t").serverUrl, "http://localhost:8787", "http to localhost");
        T.equal(PlayerLink.parse("http://[::1]:8787/#/games/g-1?token=t").serverUrl, "http://[::1]:8787", "http to ::1");
        T.equal(PlayerLink.parse("https://a.example/#/games/g-1?token=t").serverUrl, "https://a.example", "no trailing slash before '#'");
        T.equal(PlayerLink.parse("https://a.example:443/#/games/g-1?token=t").serverUrl, "https://a.example", "https's own port left out, as a browser shows the origin");
        T.equal(PlayerLink.parse("http://localhost:80/#/games/g-1?token=t").serverUrl, "http://localhost", "http's own port left out");
        T.check(PlayerLink.sameServer("https://A.example:443/", "https://a.example"), "a module's server URL with the default port and a slash names the link's server");
        T.check(PlayerLink.sameServer("http://127.0.0.1:8787", "http://127.0.0.1:8787"), "the same server");
        T.check(!PlayerLink.sameServer("https://a.example:8443", "https://a.example"), "another port: another server");
        T.check(!PlayerLink.sameServer("http://a.example", "https://a.example"), "another scheme: another server");
        T.check(!PlayerLink.sameServer("https://b.example", "https://a.example"), "another host: another server");
        T.check(!PlayerLink.sameServer("not a url", "https://a.example"), "not a URL: not the same");
    }

    static void badLinks() {
        String[][] cases = {
            {"http://arbiter.example.org/#/games/g-1?token=" + TOKEN, "https://"},
            {"http://127.0.0.1.example.org/#/games/g-1?token=" + TOKEN, "https://"},
            {"http://10.0.0.5:8787/#/games/g-1?token=" + TOKEN, "https://"},
            {"ftp://arbiter.example.org/#/games/g-1?token=" + TOKEN, "https://"},
            {"javascript:alert(1)//#/games/g-1?token=" + TOKEN, "https://"},
            {"https://user:" + TOKEN + "@arbiter.example.org/#/games/g-1?token=" + TOKEN, "user name"},
            {"https://arbiter.example.org/#/games/g-1", "no token"},
            {"https://arbiter.example.org/#/games/g-1?token=", "empty"},
            {"https://arbiter.example.org/#/games/g-1?token=" + TOKEN + "&x=1", "only ?token"},
            {"https://arbiter.example.org/#/games/g-1?as=organizer&token=" + TOKEN, "only ?token"},
            {"https://arbiter.example.org/#/verify?game=g-1&token=" + TOKEN, "not a game's link"},
            {"https://arbiter.example.org/#/tournaments/t-1?token=" + TOKEN, "not a game's link"},
            {"https://arbiter.example.org/#/games/g-1/x?token=" + TOKEN, "not a game's link"},
            {"https://arbiter.example.org/app/#/games/g-1?token=" + TOKEN, "before the '#'"},
            {"https://arbiter.example.org/?token=" + TOKEN + "#/games/g-1?token=" + TOKEN, "before the '#'"},
            {"https://arbiter.example.org/#/games/g-1?token=" + TOKEN + "%0A", "control"},
            {"https://arbiter.example.org/#/games/g-1?token=" + TOKEN + "%zz", "not a link"},
            {"https://arbiter.example.org/#/games/g-1?token=" + TOKEN + "%C3", "not UTF-8"},
            {"https://arbiter.example.org/#/games/g 1?token=" + TOKEN, "space"},
            {"g-1 " + TOKEN, "space"},
            {"http://127.0.0.1:9/#/games/g%21?token=" + TOKEN, "game id"},
            {"https://arbiter.example.org/#/games/g-%C3%A9x?token=" + TOKEN, "game id"},
            {"https://arbiter.example.org/#/games/..%2F..%2Fadmin?token=" + TOKEN, "game id"},
            {"https://arbiter.example.org/#/games/" + "g".repeat(129) + "?token=" + TOKEN, "game id"},
            {"http://localhost:99999/#/games/g-1?token=" + TOKEN, "port"},
            {"https://arbiter.example.org:0/#/games/g-1?token=" + TOKEN, "port"},
            {TOKEN, "https://"},
            {"", "empty"},
        };
        for (String[] c : cases) {
            try {
                PlayerLink.parse(c[0]);
                T.check(false, "refused: " + c[1] + " (" + c[0].replace(TOKEN, "…") + ")");
            } catch (IllegalArgumentException e) {
                String message = String.valueOf(e.getMessage());
                T.check(message.startsWith("That is not your Arbiter game link: ") && message.contains(c[1]), "refused in words: " + c[1] + " — " + message);
                T.check(!message.contains(TOKEN) && !message.contains("SECRET"), "the message never holds the token: " + c[1]);
            }
        }
    }

    static String printable(String s) {
        StringBuilder out = new StringBuilder();
        for (char c : s.toCharArray()) out.append(c < 0x20 || c > 0x7e ? String.format("\\u%04x", (int) c) : String.valueOf(c));
        return out.toString();
    }
}
