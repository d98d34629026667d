package org.lockspi.tck.internal;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.function.IntPredicate;
import org.lockspi.spi.LockKeys;

/**
 * Families of lock names built to break a provider's own key derivation below the engine's key (§2.11 to §2.14).
 * The engine's key ({@link LockKeys}) keeps every two names apart, but only the distinctions that survive into the
 * key reach a provider: a readable name as it is, any other as {@code '~'} + base64url. So the families aim at what
 * a provider can still merge: a key cut to a column's or a path's length, a key stood for by
 * {@code String.hashCode()}, keys compared without case (base64 is case-sensitive: two names whose keys differ only
 * in case), and the separators of a path ({@code '/'}, {@code '.'}, {@code '-'}, {@code '_'}) and of the layout a
 * provider builds below a key. Names the engine encodes (Unicode forms, Redis' braces and colons, glob and
 * {@code LIKE} characters, quotes, control characters, trailing blanks) are in the families too: a provider that
 * decodes a key back to its name, to store it in a text column, meets them there.
 *
 * <p>Every family is a list of distinct names, each starting with the stem it is given (so that one run's names are
 * its own and {@code list(stem)} finds them all), none longer than {@link LockKeys#MAX_NAME_BYTES} UTF-8 bytes.
 * Fillers are fixed (seeded), so a family differs between runs only by its stem; the hash and case families are
 * searched on the filler's own base64, aligned to a whole quantum, so what they find does not depend on the stem.
 */
public final class AdversarialNames {
    /**
     * Lengths of readable names at the edges of limits a provider may have: at and past a 64-character column or
     * segment, 191 (a MySQL utf8mb4 index of 767 bytes), 255 (the readable form's end, a VARCHAR(255)).
     */
    static final int[] READABLE_LENGTHS = {64, 65, 191, 255};
    /**
     * Lengths of encoded keys at the edges of limits a provider may have: 255 and 256 (a VARCHAR(255)), 1024, 4096,
     * and 5463, the longest key (a name of 4096 UTF-8 bytes).
     */
    static final int[] KEY_LENGTHS = {255, 256, 1024, 4096, 5463};

    private static final String ALNUM = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";

    private AdversarialNames() {
    }

    /**
     * At and past every length limit, and long names that share long prefixes: pairs of readable names of
     * {@link #READABLE_LENGTHS} characters and of encoded names whose keys are {@link #KEY_LENGTHS} characters long,
     * each pair the same but for its last character; at 255 characters and at 4096 bytes also names that differ only
     * just after the stem or only in the middle (a provider that keeps the end of a key, or its two ends); the
     * longest readable name and the same with one character more (the first length that is encoded); and two names
     * of four-byte characters of 4096 bytes that differ in their last one.
     *
     * @param stem a unique name of the readable form, one segment of at most 50 characters
     * @return the names
     */
    public static List<String> lengths(String stem) {
        Set<String> names = new LinkedHashSet<>();
        Random random = new Random(211);
        for (int length : READABLE_LENGTHS) {
            String base = readable(stem, length, random);
            names.add(base);
            names.add(replaceAt(base, base.length() - 1, other(base.charAt(base.length() - 1))));
            if (length == 255) {
                names.add(replaceAt(base, stem.length() + 1, other(base.charAt(stem.length() + 1))));
                int middle = indexOfFiller(base, base.length() / 2);
                names.add(replaceAt(base, middle, other(base.charAt(middle))));
                names.add(base + "x"); // one past the readable form: encoded
            }
        }
        for (int keyLength : KEY_LENGTHS) {
            int bytes = bytesForKey(keyLength);
            String base = encoded(stem, bytes, random);
            names.add(base);
            names.add(replaceAt(base, base.length() - 1, other(base.charAt(base.length() - 1))));
            if (bytes == LockKeys.MAX_NAME_BYTES) {
                int first = stem.length() + 1;
                names.add(replaceAt(base, first, other(base.charAt(first))));
                names.add(replaceAt(base, base.length() / 2, other(base.charAt(base.length() / 2))));
            }
        }
        String lockClosed = "\ud83d\udd12";
        String four = lockClosed.repeat((LockKeys.MAX_NAME_BYTES - NameSamples.utf8Length(stem) - 1) / 4);
        String fill = "a".repeat(LockKeys.MAX_NAME_BYTES - NameSamples.utf8Length(stem + four) - 1);
        names.add(stem + fill + four + "a");
        names.add(stem + fill + four.substring(0, four.length() - 2) + "\ud83d\udd13a");
        return List.copyOf(names);
    }

    /**
     * Strings with equal {@code String.hashCode()}: readable names made of the blocks {@code Aa} and {@code BB}
     * (whose hash codes are equal), short and of about 200 characters; encoded names whose <em>keys</em> have equal
     * hash codes (the key's base64 changed in pairs of characters {@code c1 c2} to {@code c1+1 c2-31}), of about 400
     * and of more than 5,000 characters; and encoded names whose <em>names</em> have equal hash codes.
     *
     * @param stem a unique name of the readable form, one segment of at most 50 characters
     * @return the names
     */
    public static List<String> hashCodes(String stem) {
        Set<String> names = new LinkedHashSet<>();
        Random random = new Random(223);
        for (String blocks : blockCombinations(2)) {
            names.add(stem + "/h" + blocks);
        }
        String longStem = stem + "/" + fill(random, 60) + "/" + fill(random, 60) + "/" + fill(random, 50) + "-";
        for (String blocks : blockCombinations(3)) {
            names.add(longStem + blocks);
        }
        for (String blocks : blockCombinations(1)) {
            names.add(stem + ":" + blocks);
        }
        // keys of about 400 characters, changed past their first 150; and keys of more than 5,000 characters
        names.addAll(withKeyVariants(stem, fill(random, 300), 30, 2, AdversarialNames::sameHashWindow));
        names.addAll(withKeyVariants(stem, fill(random, LockKeys.MAX_NAME_BYTES - 50), 900, 2,
                AdversarialNames::sameHashWindow));
        return List.copyOf(names);
    }

    /**
     * Cases and Unicode forms: readable names that differ only in case; encoded names whose keys differ only in the
     * case of some letters (a key column compared without case merges them, though their names look nothing
     * alike); and names that a case-insensitive, accent-insensitive or normalising comparison merges: é precomposed
     * and decomposed, three forms of Å, the ligature ﬁ and {@code fi}, full-width and ASCII letters, the Turkish
     * dotless and dotted i, ß, ẞ and {@code ss}, σ and ς, the Kelvin sign and K, the micro sign and μ, Hangul
     * precomposed and as jamo.
     *
     * @param stem a unique name of the readable form, one segment of at most 50 characters
     * @return the names
     */
    public static List<String> casesAndForms(String stem) {
        Set<String> names = new LinkedHashSet<>();
        for (String s : List.of("lock", "Lock", "LOCK", "i", "I", "ss", "SS", "fi", "k", "K")) {
            names.add(stem + "/" + s);
        }
        for (String s : List.of("\u00e9", "e\u0301", "\u00c5", "\u212b", "A\u030a", "\ufb01",
                "\uff2c\uff4f\uff43\uff4b", "\u0131", "\u0130", "i\u0307", "\u00df", "\u1e9e", "\u03c3", "\u03c2",
                "\u212a", "\u00b5", "\u03bc", "\uac00", "\u1100\u1161")) {
            names.add(stem + "/" + s);
        }
        names.addAll(withKeyVariants(stem, fill(new Random(227), 240), 4, 2, AdversarialNames::caseWindow));
        return List.copyOf(names);
    }

    /**
     * Separators and characters special in a backend's key or path syntax: {@code '/'} doubled, leading, trailing,
     * dropped or replaced by {@code '.'}, {@code '-'} or {@code '_'} (one character of a SQL {@code LIKE}),
     * {@code .} and {@code ..} segments, a trailing dot; a name and the names below it whose last segment sorts
     * before a sequence number ({@code 0}, {@code -}) or is a word of the ZooKeeper lock layout ({@code locks},
     * {@code leases}, {@code lock-}, {@code __READ__}, {@code __WRIT__}); Redis' {@code :}, hash tags
     * ({@code a{b}c} and {@code x{b}y} land in one Cluster slot but are two locks) and glob characters; {@code %};
     * backslash and quotes; control characters next to U+0000; blanks and no-break spaces, trailing and leading.
     *
     * @param stem a unique name of the readable form, one segment of at most 50 characters
     * @return the names
     */
    public static List<String> separators(String stem) {
        Set<String> names = new LinkedHashSet<>();
        names.add(stem);
        for (String s : List.of("a", "a/b", "ab", "a.b", "a-b", "a_b", "aXb", "a/b/c", "a/bc", "ab/c", "a//b",
                "a/b/", "/a/b", "a/./b", "a/../b", "a.", "a..", "a/", ".a", "a\\b", "a'b", "a\"b", "a%", "a*", "a?",
                "a[b]", "a:b", "{a}", "a{b}c", "x{b}y", "a\u0000", "a\u0000b", "a\u0001", "a\t", "a\n", "a\u007f",
                "a ", "a  ", " a", "a\u00a0", "p", "p/0", "p/-", "p/locks", "p/leases", "p/leases/x", "p/locks/0",
                "p/lock-", "p/x-lock-0", "p/__READ__", "p/__WRIT__")) {
            names.add(stem + "/" + s);
        }
        names.add(stem + "/");
        names.add(stem + "//");
        names.add(stem + ".");
        names.add(stem + "-");
        names.add(stem + "_");
        return List.copyOf(names);
    }

    // ---- building blocks ----------------------------------------------------------------------------------------

    /** @return {@code n} characters of {@link #ALNUM}, from {@code random} */
    private static String fill(Random random, int n) {
        StringBuilder b = new StringBuilder(n);
        for (int i = 0; i < n; i++) {
            b.append(ALNUM.charAt(random.nextInt(ALNUM.length())));
        }
        return b.toString();
    }

    /** @return a readable name of exactly {@code length} characters: the stem and segments of at most 64 */
    private static String readable(String stem, int length, Random random) {
        int rest = length - stem.length();
        int segments = (rest + 64) / 65; // each segment costs its '/' and 1 to 64 characters
        int chars = rest - segments;
        StringBuilder b = new StringBuilder(stem);
        for (int i = 0; i < segments; i++) {
            b.append('/').append(fill(random, chars / segments + (i < chars % segments ? 1 : 0)));
        }
        String name = b.toString();
        if (name.length() != length || !LockKeys.key(name).equals(name)) {
            throw new IllegalStateException("no readable name of " + length + " characters after " + stem);
        }
        return name;
    }

    /** @return the first index at or after {@code from} that is not a {@code '/'} */
    private static int indexOfFiller(String name, int from) {
        int i = from;
        while (name.charAt(i) == '/') {
            i++;
        }
        return i;
    }

    /** @return the UTF-8 length of a name whose key is {@code keyLength} characters: 1 + ceil(4 bytes / 3) */
    static int bytesForKey(int keyLength) {
        int bytes = (keyLength - 1) * 3 / 4;
        while (1 + (4 * bytes + 2) / 3 < keyLength) {
            bytes++;
        }
        return bytes;
    }

    /** @return a name of exactly {@code bytes} ASCII bytes outside the readable form: the stem, ':' and filler */
    private static String encoded(String stem, int bytes, Random random) {
        return stem + ":" + fill(random, bytes - stem.length() - 1);
    }

    private static String replaceAt(String s, int i, char c) {
        return s.substring(0, i) + c + s.substring(i + 1);
    }

    /** @return another character of the filler's alphabet */
    private static char other(char c) {
        return c == 'b' ? 'c' : 'b';
    }

    /** @return every string of {@code n} blocks, each {@code Aa} or {@code BB}: equal hash codes, equal lengths */
    private static List<String> blockCombinations(int n) {
        List<String> all = new ArrayList<>(List.of(""));
        for (int i = 0; i < n; i++) {
            List<String> next = new ArrayList<>();
            for (String s : all) {
                next.add(s + "Aa");
                next.add(s + "BB");
            }
            all = next;
        }
        return all;
    }

    /** A change of a quantum of base64 (four characters, three bytes) in place, or none. */
    private interface Window {
        /** @return the changed quantum, or null if this window has no change of the kind sought */
        char[] change(char[] quantum, int at);
    }

    /** {@code c1 c2} to {@code c1+1 c2-31}: the hash code of the string stays the same. */
    private static char[] sameHashWindow(char[] quantum, int at) {
        if (at == 3) {
            return null;
        }
        char[] changed = quantum.clone();
        changed[at]++;
        changed[at + 1] -= 31;
        return isBase64(changed[at]) && isBase64(changed[at + 1]) ? changed : null;
    }

    /** One letter's case flipped. */
    private static char[] caseWindow(char[] quantum, int at) {
        char c = quantum[at];
        if (!Character.isLetter(c)) {
            return null;
        }
        char[] changed = quantum.clone();
        changed[at] = Character.isUpperCase(c) ? Character.toLowerCase(c) : Character.toUpperCase(c);
        return changed;
    }

    private static boolean isBase64(char c) {
        return c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '_';
    }

    /**
     * Names {@code stem + ':' + pad + filler'} whose keys differ from the key of {@code stem + ':' + pad + filler}
     * only where {@code window} changed the filler's base64: the pad aligns the filler to a whole quantum, so its
     * base64 is a part of the key; each change stays inside one quantum and keeps its three bytes printable ASCII.
     * Every subset of {@code count} changes, in quanta {@code from}, {@code from + 2}, ..., gives a name.
     */
    private static List<String> withKeyVariants(String stem, String filler, int from, int count, Window window) {
        String head = stem + ":";
        head += "-".repeat((3 - NameSamples.utf8Length(head) % 3) % 3);
        String body = filler.substring(0, filler.length() - filler.length() % 3);
        char[] base64 = Base64.getUrlEncoder().withoutPadding().encodeToString(body.getBytes(StandardCharsets.US_ASCII))
                .toCharArray();
        List<int[]> changes = new ArrayList<>(); // quantum start, then the changed quantum's four characters
        for (int q = from; q * 4 + 4 <= base64.length && changes.size() < count; q += 2) {
            char[] quantum = {base64[q * 4], base64[q * 4 + 1], base64[q * 4 + 2], base64[q * 4 + 3]};
            for (int at = 0; at < 4; at++) {
                char[] changed = window.change(quantum, at);
                if (changed != null && printable(changed)) {
                    changes.add(new int[] {q * 4, changed[0], changed[1], changed[2], changed[3]});
                    break;
                }
            }
        }
        if (changes.size() < count) {
            throw new IllegalStateException("only " + changes.size() + " of " + count + " changes in the filler");
        }
        List<String> names = new ArrayList<>();
        for (int subset = 0; subset < 1 << count; subset++) {
            char[] variant = base64.clone();
            for (int i = 0; i < count; i++) {
                if ((subset & 1 << i) != 0) {
                    int[] change = changes.get(i);
                    for (int j = 0; j < 4; j++) {
                        variant[change[0] + j] = (char) change[j + 1];
                    }
                }
            }
            String name = head + new String(Base64.getUrlDecoder().decode(new String(variant)),
                    StandardCharsets.US_ASCII);
            names.add(name);
        }
        return names;
    }

    /** @return whether the quantum decodes to three printable ASCII bytes */
    private static boolean printable(char[] quantum) {
        byte[] bytes = Base64.getUrlDecoder().decode(new String(quantum));
        IntPredicate printable = b -> b >= 0x20 && b < 0x7f;
        return printable.test(bytes[0]) && printable.test(bytes[1]) && printable.test(bytes[2]);
    }
}
