package org.arbiter.kit;

/**
 * Keeps text one line that reads left to right whatever a player typed, exactly as the
 * server's chat lines do (domain/game/textLine.ts): line feed, carriage return and tab become
 * {@code \n}, {@code \r}, {@code \t}; every other character that could break or reorder a line
 * (C0 and C1 controls, DEL, ALM, LRM/RLM, the line and paragraph separators, bidi embeddings,
 * overrides and isolates) becomes {@code \\uXXXX}; a backslash becomes {@code \\\\}.
 */
public final class TextLine {
    private TextLine() {}

    public static boolean isUnsafe(char c) {
        return c <= 0x1f
                || (c >= 0x7f && c <= 0x9f)
                || c == 0x061c
                || c == 0x200e || c == 0x200f
                || c == 0x2028 || c == 0x2029
                || (c >= 0x202a && c <= 0x202e)
                || (c >= 0x2066 && c <= 0x2069);
    }

    public static String escape(String text) {
        StringBuilder out = new StringBuilder(text.length() + 8);
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '\\') out.append("\\\\");
            else if (c == '\n') out.append("\\n");
            else if (c == '\r') out.append("\\r");
            else if (c == '\t') out.append("\\t");
            else if (isUnsafe(c)) out.append(String.format("\\u%04x", (int) c));
            else out.append(c);
        }
        return out.toString();
    }
}
