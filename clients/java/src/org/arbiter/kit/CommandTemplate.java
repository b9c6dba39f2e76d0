package org.arbiter.kit;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * A command of the game's ruleset written once by the module designer, with VASSAL properties in it:
 * {@code {"type":"ResolveCombat","payload":{"combatId":"$CombatId$"}}} (docs/vassal.md).
 *
 * <ul>
 * <li>{@code $name$} inside a JSON string is replaced by the property's value, JSON-escaped: a value can
 * never end the string, add a field or change the command's type.</li>
 * <li>{@code $name$} standing alone as a value ({@code "availability":$AirPower$}) must be a whole number
 * (or {@code true}/{@code false}) and is inserted as one.</li>
 * <li>{@code $$} is a literal dollar sign.</li>
 * </ul>
 * The result must be exactly {@code {"type":"…","payload":{…}}}. A property that is not set anywhere is an
 * error naming it: nothing is sent.
 */
public final class CommandTemplate {
    private static final Pattern NAME = Pattern.compile("[^$\"\\\\\\p{Cntrl}]{1,100}");
    private static final Pattern TYPE = Pattern.compile("[A-Za-z][A-Za-z0-9]{0,63}");
    private static final Pattern WHOLE = Pattern.compile("-?(0|[1-9][0-9]{0,15})");
    /** 2^53 - 1: the largest whole number JSON carries exactly (the server's, and the kit's strict reader's, limit). */
    private static final long MAX_WHOLE = 9007199254740991L;

    /** A template that cannot be filled in: its message is in a designer's or player's words. */
    public static final class TemplateException extends Exception {
        private static final long serialVersionUID = 1L;

        public TemplateException(String message) {
            super(message);
        }
    }

    /** A filled-in command, ready for {@link RollSession#send}. */
    public static final class Filled {
        public final String type;
        public final String payloadJson;

        Filled(String type, String payloadJson) {
            this.type = type;
            this.payloadJson = payloadJson;
        }
    }

    private final String text;
    private final Set<String> names;

    private CommandTemplate(String text, Set<String> names) {
        this.text = text;
        this.names = names;
    }

    /** Checks the template once (when the designer sets it): well-formed placeholders, and a command once filled. */
    public static CommandTemplate parse(String text) throws TemplateException {
        if (text == null || text.isBlank()) throw new TemplateException("the command template is empty");
        Set<String> names = new LinkedHashSet<>();
        CommandTemplate template = new CommandTemplate(text.strip(), names);
        template.fill(name -> {
            names.add(name);
            return "0";
        });
        return new CommandTemplate(template.text, Collections.unmodifiableSet(names));
    }

    /** `npm run build:vassal` checks ARBITER_COMMAND_TEMPLATE with this: exit 0, or 1 with what is wrong on stderr. */
    public static void main(String[] args) {
        try {
            parse(args.length == 1 ? args[0] : null);
        } catch (TemplateException e) {
            System.err.println(e.getMessage());
            System.exit(1);
        }
    }

    /** The property names the template uses, in order of first use. */
    public Set<String> propertyNames() {
        return names;
    }

    /**
     * Fills the template in. {@code lookup} gives a property's value, or null when no property of that
     * name is set (the piece's, then the module's: see the VASSAL adapter).
     */
    public Filled fill(Function<String, String> lookup) throws TemplateException {
        StringBuilder out = new StringBuilder(text.length() + 32);
        List<String> missing = new ArrayList<>();
        boolean inString = false;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (inString && c == '\\') {
                if (i + 1 >= text.length()) throw new TemplateException("the command template ends inside a string");
                out.append(c).append(text.charAt(++i));
                continue;
            }
            if (c == '"') {
                inString = !inString;
                out.append(c);
                continue;
            }
            if (c != '$') {
                out.append(c);
                continue;
            }
            if (i + 1 < text.length() && text.charAt(i + 1) == '$') {
                out.append('$');
                i++;
                continue;
            }
            int end = text.indexOf('$', i + 1);
            if (end < 0) throw new TemplateException("the command template has a '$' with no closing '$' (write $$ for a dollar sign)");
            String name = text.substring(i + 1, end);
            if (!NAME.matcher(name).matches()) throw new TemplateException("the command template has a bad property name between '$' signs: " + TextLine.escape(name));
            i = end;
            String value = lookup.apply(name);
            if (value == null) {
                missing.add(name);
                out.append(inString ? "" : "0");
                continue;
            }
            if (inString) {
                out.append(escapeInString(name, value));
            } else if (WHOLE.matcher(value).matches() || value.equals("true") || value.equals("false")) {
                if (WHOLE.matcher(value).matches() && Math.abs(Long.parseLong(value)) > MAX_WHOLE) {
                    throw new TemplateException("the property " + TextLine.escape(name) + " is " + value + ", beyond the whole numbers a command can hold (-" + MAX_WHOLE + " to " + MAX_WHOLE + ")");
                }
                out.append(value);
            } else {
                throw new TemplateException("the property " + TextLine.escape(name) + " is \"" + TextLine.escape(clip(value)) + "\", where the command needs a whole number");
            }
        }
        if (inString) throw new TemplateException("the command template ends inside a string");
        if (!missing.isEmpty()) {
            throw new TemplateException((missing.size() == 1 ? "no property named " : "no properties named ") + TextLine.escape(String.join(", ", missing))
                    + " is set (on the piece or in the module)");
        }
        return command(out.toString());
    }

    private static String escapeInString(String name, String value) throws TemplateException {
        if (Canonical.loneSurrogateAt(value) >= 0) throw new TemplateException("the property " + TextLine.escape(name) + " holds a broken character");
        try {
            String quoted = Canonical.write(value);
            return quoted.substring(1, quoted.length() - 1);
        } catch (Canonical.CanonicalException e) {
            throw new TemplateException("the property " + TextLine.escape(name) + " cannot be sent: " + e.getMessage());
        }
    }

    private static Filled command(String json) throws TemplateException {
        Map<String, Object> command;
        try {
            command = Json.parseObject(json);
        } catch (Json.JsonException e) {
            throw new TemplateException("the command template is not JSON once filled in: " + e.getMessage());
        }
        if (!command.keySet().equals(Set.of("type", "payload"))) throw new TemplateException("the command template must be {\"type\":\"…\",\"payload\":{…}} and nothing else");
        if (!(command.get("type") instanceof String) || !TYPE.matcher((String) command.get("type")).matches()) throw new TemplateException("the command's \"type\" must be a command name such as ResolveCombat");
        if (!(command.get("payload") instanceof Map)) throw new TemplateException("the command's \"payload\" must be an object {…}");
        try {
            return new Filled((String) command.get("type"), Canonical.write(command.get("payload")));
        } catch (Canonical.CanonicalException e) {
            throw new TemplateException("the command's payload cannot be sent: " + e.getMessage());
        }
    }

    private static String clip(String value) {
        return value.length() <= 40 ? value : value.substring(0, 40) + "…";
    }
}
