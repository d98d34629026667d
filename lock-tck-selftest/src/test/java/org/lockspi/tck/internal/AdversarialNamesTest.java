package org.lockspi.tck.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.lockspi.spi.LockKeys;

/** The families of §2.11 to §2.14 have what their rules claim: the lengths, the hash codes, the cases. */
class AdversarialNamesTest {
    private static final String STEM = "dn-sep-non-reentrant-mutex-zz9zz-999"; // as long as a kit stem gets

    @Test
    void everyFamilyIsDistinctNamesUnderItsStemWithinTheLimit() {
        for (List<String> family : List.of(AdversarialNames.lengths(STEM), AdversarialNames.hashCodes(STEM),
                AdversarialNames.casesAndForms(STEM), AdversarialNames.separators(STEM))) {
            assertEquals(family.size(), new HashSet<>(family).size(), "distinct: " + family);
            assertEquals(family.size(), family.stream().map(LockKeys::key).distinct().count(), "distinct keys");
            for (String name : family) {
                assertTrue(name.startsWith(STEM), name);
                assertTrue(NameSamples.utf8Length(name) <= LockKeys.MAX_NAME_BYTES, name);
                assertEquals(name, LockKeys.name(LockKeys.key(name)), "a name round-trips");
            }
            assertTrue(family.size() >= 20 && family.size() <= 100, "hundreds in all, not thousands: " + family.size());
        }
    }

    @Test
    void lengthsReachEveryLimitInPairsThatDifferAtTheEnd() {
        List<String> names = AdversarialNames.lengths(STEM);
        Set<Integer> readable = names.stream().filter(n -> LockKeys.key(n).equals(n)).map(String::length)
                .collect(Collectors.toSet());
        for (int length : AdversarialNames.READABLE_LENGTHS) {
            assertTrue(readable.contains(length), "a readable name of " + length + " characters");
        }
        Map<Integer, Long> keys = names.stream().collect(Collectors.groupingBy(n -> LockKeys.key(n).length(),
                Collectors.counting()));
        for (int length : AdversarialNames.KEY_LENGTHS) {
            assertTrue(keys.getOrDefault(length, 0L) >= 2, "two keys of " + length + " characters: " + keys);
        }
        assertTrue(names.stream().anyMatch(n -> n.length() == 256 && n.startsWith(STEM) && names.contains(
                n.substring(0, 255))), "the longest readable name and one character more");
        // a key cut anywhere before its last few characters merges a pair: every cut from 64 on is met
        int longestSharedKeyPrefix = 0;
        for (String a : names) {
            for (String b : names) {
                if (!a.equals(b) && LockKeys.key(a).length() == LockKeys.key(b).length()) {
                    longestSharedKeyPrefix = Math.max(longestSharedKeyPrefix, shared(LockKeys.key(a),
                            LockKeys.key(b)));
                }
            }
        }
        assertTrue(longestSharedKeyPrefix >= 5460, "keys sharing 5460 characters: " + longestSharedKeyPrefix);
    }

    @Test
    void hashCodesCollideOnNamesAndOnKeys() {
        List<String> names = AdversarialNames.hashCodes(STEM);
        assertTrue(largestGroup(names, LockKeys::key, String::hashCode) >= 8, "8 keys with one hash code");
        Map<Integer, List<String>> encoded = names.stream().map(LockKeys::key).filter(k -> k.startsWith("~"))
                .collect(Collectors.groupingBy(String::hashCode));
        assertTrue(encoded.values().stream().filter(g -> g.size() >= 4 && g.get(0).length() > 5000).count() >= 1,
                "encoded keys of more than 5000 characters with one hash code: " + encoded.keySet());
        assertTrue(encoded.values().stream().filter(g -> g.size() >= 4 && g.get(0).length() > 300).count() >= 1,
                "4 encoded keys of more than 300 characters with one hash code");
        assertTrue(names.stream().filter(n -> !LockKeys.key(n).equals(n)).collect(Collectors.groupingBy(
                String::hashCode)).values().stream().anyMatch(g -> g.size() >= 2), "encoded names with one hash");
        assertTrue(names.stream().filter(n -> n.length() > 150 && LockKeys.key(n).equals(n)).collect(
                Collectors.groupingBy(String::hashCode)).values().stream().anyMatch(g -> g.size() >= 8),
                "8 readable names of more than 150 characters with one hash code");
    }

    @Test
    void casesCollideOnKeysWithoutCase() {
        List<String> names = AdversarialNames.casesAndForms(STEM);
        assertTrue(largestGroup(names.stream().filter(n -> LockKeys.key(n).startsWith("~")).collect(
                Collectors.toList()), LockKeys::key, k -> k.toLowerCase(Locale.ROOT)) >= 4,
                "4 encoded names whose keys differ only in case");
        assertTrue(largestGroup(names, Function.identity(), n -> n.toLowerCase(Locale.ROOT)) >= 3,
                "3 names that differ only in case");
        assertTrue(names.contains(STEM + "/\u00e9") && names.contains(STEM + "/e\u0301"), "NFC and NFD");
    }

    private static int largestGroup(List<String> names, Function<String, String> of,
                                    Function<String, Object> classOf) {
        return names.stream().map(of).collect(Collectors.groupingBy(classOf)).values().stream()
                .mapToInt(List::size).max().orElse(0);
    }

    private static int shared(String a, String b) {
        int i = 0;
        while (i < a.length() && i < b.length() && a.charAt(i) == b.charAt(i)) {
            i++;
        }
        return i;
    }
}
