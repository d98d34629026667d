package org.lockspi.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.lockspi.Acquirable;

class NamesTest {

    private static void notReadable(String name) {
        assertFalse(Names.isReadable(name), () -> "'" + name + "' is not of the readable form");
    }

    @ParameterizedTest
    @ValueSource(strings = {"orders", "billing/invoice-42", "jobs/nightly_report.v2", "a", "A-Z_0.9", "a/b.c/d",
            "a.b/c."})
    void readableNames(String name) {
        assertTrue(Names.isReadable(name), name);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "/a", "a/", "a//b", "/", "//", ".a", "a/.b", "..", "a/..", ".", "a b", "a:b",
            "caf\u00e9", "a\u0000b", "a\\b", "a*", "a@b", "\ud83d\udd12", "a\tb", "a%20", "~a", "a~"})
    void otherNamesAreNotReadable(String name) {
        notReadable(name);
    }

    /** A name of the given length made of 64-char segments, so only the total length rule can apply. */
    private static String nameOfLength(int length) {
        StringBuilder b = new StringBuilder();
        while (b.length() < length) {
            if (b.length() > 0) {
                b.append('/');
            }
            int n = Math.min(64, length - b.length());
            b.append("x".repeat(n));
        }
        return b.toString();
    }

    @Test
    void length255IsReadableAnd256Not() {
        assertTrue(Names.isReadable(nameOfLength(255)));
        notReadable(nameOfLength(256));
    }

    @Test
    void eightSegmentsReadableNineNot() {
        assertTrue(Names.isReadable("a/b/c/d/e/f/g/h"));
        notReadable("a/b/c/d/e/f/g/h/i");
    }

    @Test
    void segmentOf64ReadableOf65Not() {
        assertTrue(Names.isReadable("a/" + "s".repeat(64)));
        notReadable("a/" + "s".repeat(65) + "/b");
    }

    @Test
    void timeoutBounds() {
        assertEquals(Duration.ZERO, Names.checkTimeout(Duration.ZERO));
        assertEquals(Acquirable.MAX_TIMEOUT, Names.checkTimeout(Acquirable.MAX_TIMEOUT));
        IllegalArgumentException negative = assertThrows(IllegalArgumentException.class,
                () -> Names.checkTimeout(Duration.ofMillis(-1)));
        assertEquals("timeout < 0: PT-0.001S", negative.getMessage());
        IllegalArgumentException tooLong = assertThrows(IllegalArgumentException.class,
                () -> Names.checkTimeout(Acquirable.MAX_TIMEOUT.plusNanos(1)));
        assertTrue(tooLong.getMessage().startsWith("timeout > PT8760H: "), tooLong.getMessage());
        assertThrows(NullPointerException.class, () -> Names.checkTimeout(null));
    }
}
