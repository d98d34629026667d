package org.lockspi.spi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class LockKeysTest {

    @ParameterizedTest
    @ValueSource(strings = {"orders", "billing/invoice-42", "jobs/nightly_report.v2", "a", "a/b/c/d/e/f/g/h"})
    void aReadableNameIsItsOwnKey(String name) {
        assertEquals(name, LockKeys.key(name));
        assertEquals(name, LockKeys.name(name));
    }

    @Test
    void fixedExamplesNeverChange() {
        assertEquals("~dXNlcjphbGljZUBleGFtcGxlLmNvbQ", LockKeys.key("user:alice@example.com"));
        assertEquals("~b3JkZXIjNDI", LockKeys.key("order#42"));
        assertEquals("~aHR0cHM6Ly9leGFtcGxlLmNvbS9hP2I9YyNk", LockKeys.key("https://example.com/a?b=c#d"));
        assertEquals("~Y2Fmw6k", LockKeys.key("caf\u00e9"));
        assertEquals("~8J-Ukg", LockKeys.key("\ud83d\udd12"));
        assertEquals("~fmFiYw", LockKeys.key("~abc"));
        assertEquals("~L2E", LockKeys.key("/a"));
        assertEquals("~YS8vYg", LockKeys.key("a//b"));
        assertEquals("~LmE", LockKeys.key(".a"));
    }

    @Test
    void theDocumentedFormulaGivesTheKey() {
        for (String name : List.of("user:alice@example.com", "a b", "\u00e4/\u00f6", "x".repeat(300))) {
            String documented = "~" + java.util.Base64.getUrlEncoder().withoutPadding()
                    .encodeToString(name.getBytes(StandardCharsets.UTF_8));
            assertEquals(documented, LockKeys.key(name));
        }
    }

    @Test
    void aLargeRandomSampleHasNoCollisionsAndRoundTrips() {
        List<String> sample = sample(new Random(20261124L), 5000);
        Map<String, String> byKey = new HashMap<>();
        for (String name : sample) {
            String key = LockKeys.key(name);
            String earlier = byKey.putIfAbsent(key, name);
            assertTrue(earlier == null || earlier.equals(name),
                    () -> "'" + earlier + "' and '" + name + "' share the key " + key);
            assertEquals(name, LockKeys.name(key));
            assertSafe(key);
        }
        assertTrue(byKey.size() > 4500, "distinct names in the sample: " + byKey.size());
    }

    /** Random names of every sort, the readable form's edges, and names equal to other names' keys. */
    static List<String> sample(Random random, int size) {
        List<String> names = new ArrayList<>(List.of("a", "/a", "a/", "a//b", "a/b", ".a", "a/.b", "~", "~a",
                "~abc", "~YQ", "a b", "a:b", "{a}", "a}", "", "x".repeat(4096)));
        names.remove("");
        while (names.size() < size) {
            int sort = random.nextInt(5);
            StringBuilder b = new StringBuilder();
            int length = 1 + random.nextInt(sort == 4 ? 300 : 20);
            for (int i = 0; i < length; i++) {
                switch (sort) {
                    case 0 -> b.append("ab/._-~:@#".charAt(random.nextInt(10)));          // near the grammar
                    case 1 -> b.appendCodePoint(0x20 + random.nextInt(0x5f));            // printable ASCII
                    case 2 -> b.appendCodePoint(random.nextInt(0xd800));                  // the BMP below surrogates
                    case 3 -> b.appendCodePoint(0x10000 + random.nextInt(0x100000));      // supplementary
                    default -> b.appendCodePoint(randomCodePoint(random));
                }
            }
            String name = b.toString();
            names.add(name);
            if (random.nextInt(10) == 0) {
                names.add(LockKeys.key(name)); // a name equal to another's key
            }
        }
        return names;
    }

    private static int randomCodePoint(Random random) {
        while (true) {
            int cp = random.nextInt(Character.MAX_CODE_POINT + 1);
            if (cp < Character.MIN_SURROGATE || cp > Character.MAX_SURROGATE) {
                return cp;
            }
        }
    }

    /** A key is a readable name, or one ZooKeeper node name without characters Redis hash tags care about. */
    private static void assertSafe(String key) {
        if (key.charAt(0) == LockKeys.ENCODED_MARK) {
            assertTrue(key.substring(1).matches("[A-Za-z0-9_-]+"), key);
            assertTrue(key.length() <= 5463, () -> "key of " + key.length() + " characters");
        } else {
            assertTrue(key.matches("[A-Za-z0-9_./-]+"), key);
        }
    }

    @Test
    void namesAtTheLimitAreAcceptedAndOneByteMoreIsRefused() {
        for (String name : List.of("x".repeat(4096), "\u00e4".repeat(2048), "\u20ac".repeat(1365) + "x",
                "\ud83d\udd12".repeat(1024))) {
            assertEquals(4096, name.getBytes(StandardCharsets.UTF_8).length);
            assertEquals(name, LockKeys.name(LockKeys.key(name)));
        }
        assertEquals(5463, LockKeys.key("x".repeat(4096)).length());
        for (String name : List.of("x".repeat(4097), "\u00e4".repeat(2048) + "x", "\ud83d\udd12".repeat(1025))) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> LockKeys.key(name));
            int bytes = name.getBytes(StandardCharsets.UTF_8).length;
            assertTrue(e.getMessage().startsWith("lock name longer than 4096 UTF-8 bytes (" + bytes + " bytes"),
                    e.getMessage());
            assertTrue(e.getMessage().contains(name.substring(0, 30)) && e.getMessage().length() < 200,
                    "the message shows the name's start, not all of it: " + e.getMessage());
        }
    }

    @Test
    void nullEmptyAndMalformedNamesAreRefused() {
        assertEquals("lock name is null", assertThrows(NullPointerException.class, () -> LockKeys.key(null))
                .getMessage());
        assertEquals("lock name is empty", assertThrows(IllegalArgumentException.class, () -> LockKeys.key(""))
                .getMessage());
        for (String name : List.of("a\ud800", "\udc00b", "ab\udc00\ud800", "\ud83d")) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> LockKeys.key(name));
            assertTrue(e.getMessage().startsWith("lock name is not well-formed UTF-16: unpaired surrogate"),
                    e.getMessage());
        }
        assertTrue(assertThrows(IllegalArgumentException.class, () -> LockKeys.key("ab\udc00"))
                .getMessage().contains("at index 2"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "~", "a b", "/a", "~YQ", "~YR", "~YQ==", "~_w", "~a+b", "~~", "~L2E/x"})
    void nameRefusesWhatNoNameMapsTo(String key) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> LockKeys.name(key));
        assertTrue(e.getMessage().startsWith("not a lock key: '"), e.getMessage());
    }

    @Test
    void requestsShowTheNameNotTheKey() {
        assertEquals("MUTEX 'user:alice@example.com'",
                AcquireRequest.exclusive(LockKind.MUTEX, LockKeys.key("user:alice@example.com")).toString());
        assertEquals("MUTEX 'orders'", AcquireRequest.exclusive(LockKind.MUTEX, "orders").toString());
        assertEquals("MUTEX '~YQ'", AcquireRequest.exclusive(LockKind.MUTEX, "~YQ").toString());
        assertNull(LockKeys.nameOrKey(null));
    }
}
