package org.lockspi.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.lockspi.Acquirable;

class NamesTest {

    private static IllegalArgumentException refused(String name) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Names.check(name));
        assertTrue(e.getMessage().contains(name), () -> "message should show the name: " + e.getMessage());
        return e;
    }

    @ParameterizedTest
    @ValueSource(strings = {"orders", "billing/invoice-42", "jobs/nightly_report.v2", "a", "A-Z_0.9", "a/b.c/d"})
    void acceptsValidNames(String name) {
        assertEquals(name, Names.check(name));
    }

    @Test
    void nullIsNpe() {
        NullPointerException e = assertThrows(NullPointerException.class, () -> Names.check(null));
        assertTrue(e.getMessage().contains("lock name"), e.getMessage());
    }

    @Test
    void emptyIsRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Names.check(""));
        assertTrue(e.getMessage().contains("empty"), e.getMessage());
    }

    @ParameterizedTest
    @ValueSource(strings = {"/a", "a/", "a//b", "/", "//"})
    void emptySegmentsAreRefused(String name) {
        assertTrue(refused(name).getMessage().contains("empty segment"));
    }

    @ParameterizedTest
    @ValueSource(strings = {".a", "a/.b", "..", "a/..", "."})
    void segmentStartingWithDotIsRefused(String name) {
        assertTrue(refused(name).getMessage().contains("starts with '.'"));
    }

    @Test
    void dotInsideSegmentIsFine() {
        assertEquals("a.b/c.", Names.check("a.b/c."));
    }

    @ParameterizedTest
    @ValueSource(strings = {"a b", "a:b", "caf\u00e9", "a\u0000b", "a\\b", "a*", "a@b", "\ud83d\udd12", "a\tb", "a%20"})
    void badCharactersAreRefused(String name) {
        IllegalArgumentException e = refused(name);
        assertTrue(e.getMessage().contains("character outside"), e.getMessage());
    }

    @Test
    void badCharacterMessageGivesIndex() {
        assertTrue(refused("ab:c").getMessage().contains("index 2"));
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
    void length255IsAcceptedAnd256Refused() {
        String ok = nameOfLength(255);
        assertEquals(255, ok.length());
        assertEquals(ok, Names.check(ok));
        String tooLong = nameOfLength(256);
        assertEquals(256, tooLong.length());
        IllegalArgumentException e = refused(tooLong);
        assertTrue(e.getMessage().contains("255") && e.getMessage().contains("256"), e.getMessage());
    }

    @Test
    void eightSegmentsAcceptedNineRefused() {
        assertEquals("a/b/c/d/e/f/g/h", Names.check("a/b/c/d/e/f/g/h"));
        IllegalArgumentException e = refused("a/b/c/d/e/f/g/h/i");
        assertTrue(e.getMessage().contains("more than 8 segments"), e.getMessage());
    }

    @Test
    void segmentOf64AcceptedOf65Refused() {
        String ok = "s".repeat(64);
        assertEquals("a/" + ok, Names.check("a/" + ok));
        IllegalArgumentException e = refused("a/" + "s".repeat(65) + "/b");
        assertTrue(e.getMessage().contains("64") && e.getMessage().contains("65"), e.getMessage());
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
