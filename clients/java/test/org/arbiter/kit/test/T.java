package org.arbiter.kit.test;

import java.util.Objects;

/** Plain checks for the test programs: each prints on failure; finish() prints "N passed, N failed". */
final class T {
    private T() {}

    static int passed;
    static int failed;

    static boolean check(boolean condition, String name) {
        if (condition) {
            passed++;
        } else {
            failed++;
            System.out.println("FAIL " + name);
        }
        return condition;
    }

    static boolean equal(Object actual, Object expected, String name) {
        boolean same = Objects.equals(actual, expected);
        if (!same) name = name + "\n  expected: " + expected + "\n  actual:   " + actual;
        return check(same, name);
    }

    interface Body {
        void run() throws Exception;
    }

    /** Runs a section; an unexpected exception counts as one failure. */
    static void section(String title, Body body) {
        System.out.println("-- " + title);
        try {
            body.run();
        } catch (Throwable e) {
            failed++;
            System.out.println("FAIL " + title + ": unexpected " + e);
            e.printStackTrace(System.out);
        }
    }

    interface Thrower {
        void run() throws Exception;
    }

    /** The body must throw an exception of the given class whose message contains {@code fragment}. */
    static void throwsLike(Class<? extends Throwable> kind, String fragment, String name, Thrower body) {
        try {
            body.run();
            check(false, name + ": nothing was thrown");
        } catch (Throwable e) {
            check(kind.isInstance(e) && (fragment == null || String.valueOf(e.getMessage()).contains(fragment)), name + ": got " + e);
        }
    }

    static int finish() {
        System.out.println(passed + " passed, " + failed + " failed");
        return failed == 0 && passed > 0 ? 0 : 1;
    }
}
