package org.arbiter.proof;

import VASSAL.build.module.GameState;
import VASSAL.tools.io.DeobfuscatingInputStream;
import VASSAL.tools.io.ObfuscatingOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import java.util.zip.ZipOutputStream;

/**
 * A VASSAL .vlog as VASSAL writes it (a zip whose "savedGame" entry is obfuscated with VASSAL's own
 * ObfuscatingOutputStream), read and changed with VASSAL's classes. {@code alter IN OUT} writes a
 * copy of IN in which one die of the last receipt shows another value: the change a cheater would
 * make to a log before sending it to the opponent.
 */
public final class VlogFile {
    private VlogFile() {
    }

    public static String read(Path vlog) throws IOException {
        try (ZipFile zip = new ZipFile(vlog.toFile()); InputStream in = new DeobfuscatingInputStream(zip.getInputStream(zip.getEntry(GameState.SAVEFILE_ZIP_ENTRY)))) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    static void write(Path from, Path to, String savedGame) throws IOException {
        try (ZipFile zip = new ZipFile(from.toFile()); ZipOutputStream out = new ZipOutputStream(Files.newOutputStream(to))) {
            for (ZipEntry e : java.util.Collections.list(zip.entries())) {
                out.putNextEntry(new ZipEntry(e.getName()));
                if (e.getName().equals(GameState.SAVEFILE_ZIP_ENTRY)) {
                    OutputStream obfuscated = new ObfuscatingOutputStream(new NonClosing(out));
                    obfuscated.write(savedGame.getBytes(StandardCharsets.UTF_8));
                    obfuscated.close();
                } else {
                    try (InputStream in = zip.getInputStream(e)) {
                        in.transferTo(out);
                    }
                }
                out.closeEntry();
            }
        }
    }

    /** Stops ObfuscatingOutputStream.close() from closing the zip. */
    private static final class NonClosing extends java.io.FilterOutputStream {
        NonClosing(OutputStream out) {
            super(out);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            out.write(b, off, len);
        }

        @Override
        public void close() throws IOException {
            flush();
        }
    }

    public static void main(String[] args) throws IOException {
        switch (args[0]) {
            case "print" -> System.out.println(read(Path.of(args[1])));
            case "alter" -> {
                String text = read(Path.of(args[1]));
                // The last receipt with dice: its line is ARB<TAB> and the base64url of the commit's canonical JSON.
                Matcher m = Pattern.compile("ARB\t([A-Za-z0-9_-]+)").matcher(text);
                String found = null;
                String altered = null;
                String report = null;
                while (m.find()) {
                    String json = new String(Base64.getUrlDecoder().decode(m.group(1)), StandardCharsets.UTF_8);
                    Matcher die = Pattern.compile("\"sides\":(\\d+),\"value\":(\\d+)").matcher(json);
                    if (!json.contains("\"dice\":[{") || !die.find()) continue;
                    int sides = Integer.parseInt(die.group(1));
                    int value = Integer.parseInt(die.group(2));
                    String changed = json.substring(0, die.start()) + "\"sides\":" + sides + ",\"value\":" + (value % sides + 1) + json.substring(die.end());
                    found = m.group(1);
                    altered = Base64.getUrlEncoder().withoutPadding().encodeToString(changed.getBytes(StandardCharsets.UTF_8));
                    report = "altered: receipt #" + json.replaceAll(".*\"seq\":(\\d+).*", "$1") + ", its first die " + value + " -> " + (value % sides + 1);
                }
                if (found == null) throw new IllegalStateException("no receipt with dice in " + args[1]);
                System.out.println(report);
                int at = text.lastIndexOf(found);
                write(Path.of(args[1]), Path.of(args[2]), text.substring(0, at) + altered + text.substring(at + found.length()));
            }
            default -> throw new IllegalArgumentException(args[0]);
        }
    }
}
