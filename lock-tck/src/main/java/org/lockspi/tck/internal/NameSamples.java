package org.lockspi.tck.internal;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.lockspi.spi.LockKeys;

/** Lock names outside the readable form, for §2.8 to §2.10. */
public final class NameSamples {
    /** The most UTF-8 bytes a name may have. */
    public static final int MAX_BYTES = LockKeys.MAX_NAME_BYTES;

    private NameSamples() {
    }

    /** @return the number of UTF-8 bytes of {@code s} */
    public static int utf8Length(String s) {
        return s.getBytes(StandardCharsets.UTF_8).length;
    }

    /**
     * Shows a name in a message: what does not print by its code point in hex; a name of more than 60 code points by its
     * first 40 and its last 20, with its length (names that differ near their end stay apart).
     *
     * @param name a name
     * @return the name, quoted
     */
    public static String show(String name) {
        int[] cps = name.codePoints().toArray();
        if (cps.length <= 60) {
            return "'" + escaped(cps, 0, cps.length) + "'";
        }
        return "'" + escaped(cps, 0, 40) + "..." + escaped(cps, cps.length - 20, cps.length) + "' (" + name.length()
                + " chars)";
    }

    private static String escaped(int[] cps, int from, int to) {
        StringBuilder b = new StringBuilder();
        for (int i = from; i < to; i++) {
            int cp = cps[i];
            if (cp >= 0x20 && cp < 0x7f) {
                b.appendCodePoint(cp);
            } else {
                b.append(String.format("\\u{%x}", cp));
            }
        }
        return b.toString();
    }

    /**
     * Names of every awkward sort around a unique stem of the readable form, so that runs do not share locks: the
     * keys applications lock on, each edge of the readable form broken, non-ASCII, supplementary characters,
     * control characters, braces, a name equal to another name's key, and names of exactly {@link #MAX_BYTES}.
     *
     * @param stem a unique name of the readable form, one segment
     * @return the names, all distinct and none of the readable form
     */
    public static List<String> awkward(String stem) {
        List<String> names = new ArrayList<>(List.of(
                "user:" + stem + "@example.com",
                stem + "#42",
                "https://example.com/" + stem + "?q=1&r=%20#frag",
                "/" + stem,
                stem + "/",
                stem + "//b",
                "." + stem,
                stem + "/.b",
                stem + " b",
                "\u00e4" + stem + "\u00f6\u00df",
                "\ud83d\udd12" + stem + "\ud834\udd1e",
                "~" + stem,
                LockKeys.key(stem + ":x"),
                stem + "/b/c/d/e/f/g/h/i",
                stem + "/" + "s".repeat(65),
                stem + ".".repeat(300),
                stem + "{tag}:a",
                stem + "\u0000\n\t\u007f",
                "\u202e" + stem + "\ufeff\uffff",
                "\u4e2d\u6587" + stem));
        names.add(stem + "x".repeat(MAX_BYTES - utf8Length(stem)));
        String four = "\ud83d\udd12".repeat((MAX_BYTES - utf8Length(stem) - 3) / 4);
        String fill = "a".repeat(MAX_BYTES - utf8Length(stem) - utf8Length(four));
        names.add(stem + four + fill);
        return names;
    }

    /**
     * Pairs of different names that a careless mapping would confuse; each pair must be two locks.
     *
     * @param stem a unique name of the readable form, one segment
     * @return the pairs, as two-element lists
     */
    public static List<List<String>> confusable(String stem) {
        return List.of(
                List.of(stem, "/" + stem),
                List.of(stem, stem + "/"),
                List.of(stem + "/b", stem + "//b"),
                List.of(stem, "." + stem),
                List.of(stem + ":x", LockKeys.key(stem + ":x")),
                List.of("~" + stem, stem),
                List.of(stem + "/a", stem + "/a/"),
                List.of(stem + "\u00e4", stem + "a"),
                List.of("a" + stem, "A" + stem),
                List.of(stem + " ", stem + "\u00a0"),
                List.of(stem + "\u00e9", stem + "e\u0301"),                 // NFC and NFD: no normalisation
                List.of(stem + "\ud83d\udd12", stem + "\ud83d\udd13"),
                List.of(stem + "{a}", stem + "{a}:read"),
                List.of(stem + "/participants/x/leader", stem + "/participants/x\u2215leader"));
    }

    /**
     * A reproducible random sample: strings near the readable form, printable ASCII, the BMP, supplementary
     * characters and any code point, of 1 to 300 characters, with the readable form's edge cases and, for about
     * one in ten, the key of the string before as a name of its own.
     *
     * @param seed the random seed
     * @param size how many strings
     * @return the strings, possibly with repeats
     */
    public static List<String> random(long seed, int size) {
        Random random = new Random(seed);
        List<String> names = new ArrayList<>(List.of("a", "/a", "a/", "a//b", "a/b", ".a", "a/.b", "~", "~a",
                "~abc", "~YQ", "a b", "a:b", "{a}", "a}", "x".repeat(MAX_BYTES)));
        while (names.size() < size) {
            int sort = random.nextInt(5);
            StringBuilder b = new StringBuilder();
            int length = 1 + random.nextInt(sort == 4 ? 300 : 20);
            for (int i = 0; i < length; i++) {
                switch (sort) {
                    case 0 -> b.append("ab/._-~:@#".charAt(random.nextInt(10)));
                    case 1 -> b.appendCodePoint(0x20 + random.nextInt(0x5f));
                    case 2 -> b.appendCodePoint(random.nextInt(Character.MIN_SURROGATE));
                    case 3 -> b.appendCodePoint(0x10000 + random.nextInt(0x100000));
                    default -> b.appendCodePoint(anyCodePoint(random));
                }
            }
            String name = b.toString();
            names.add(name);
            if (random.nextInt(10) == 0) {
                names.add(LockKeys.key(name));
            }
        }
        return names;
    }

    private static int anyCodePoint(Random random) {
        while (true) {
            int cp = random.nextInt(Character.MAX_CODE_POINT + 1);
            if (cp < Character.MIN_SURROGATE || cp > Character.MAX_SURROGATE) {
                return cp;
            }
        }
    }
}
