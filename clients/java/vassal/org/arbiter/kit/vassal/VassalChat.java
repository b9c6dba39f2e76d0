package org.arbiter.kit.vassal;

import VASSAL.build.GameModule;
import org.arbiter.kit.TextLine;

/**
 * Every line the adapter gives VASSAL's chat goes through here. VASSAL 3.7's Chatter.show inserts a line into
 * the chat window as HTML: for a line starting with '-' (and some starting with '*') tags work, and for every
 * other line only '<' and '>' are escaped, so a character reference such as {@code &#8238;} in a purpose or a
 * combat id would come out as a real right-to-left override and reorder the ✓ line. GameModule.warn shows
 * its text after " - ", as HTML too. So, after the kit's one-line escaping ({@link TextLine}), {@code &},
 * {@code <} and {@code >} are written as entities, and a leading '-' or '*' as a character reference, which
 * VASSAL shows as the character itself: the player reads exactly the text, never markup.
 */
final class VassalChat {
    private VassalChat() {}

    /** The line as VASSAL's chat must receive it to show exactly this text (one line; already escaped kit lines are unchanged by the first step). */
    static String escape(String line) {
        StringBuilder out = new StringBuilder(line.length() + 16);
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (c == '&') out.append("&amp;");
            else if (c == '<') out.append("&lt;");
            else if (c == '>') out.append("&gt;");
            else if (TextLine.isUnsafe(c)) out.append(TextLine.escape(String.valueOf(c)));
            else out.append(c);
        }
        int first = 0;
        while (first < out.length() && out.charAt(first) <= ' ') first++; // VASSAL trims before it looks at the first character
        if (first < out.length() && (out.charAt(first) == '-' || out.charAt(first) == '*')) out.replace(first, first + 1, out.charAt(first) == '-' ? "&#45;" : "&#42;");
        return out.toString();
    }

    /** Shown on this screen only. */
    static void show(String line) {
        GameModule.getGameModule().getChatter().show(escape(line));
    }

    /** Shown here, sent to the other players and written to the log. */
    static void send(String line) {
        GameModule.getGameModule().getChatter().send(escape(line));
    }

    /** A module warning (VASSAL shows it in chat after " - "). */
    static void warn(String line) {
        GameModule.getGameModule().warn(escape(line));
    }
}
