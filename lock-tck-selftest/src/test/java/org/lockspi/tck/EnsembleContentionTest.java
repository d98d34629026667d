package org.lockspi.tck;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The §19 checks on recorded spans of HELD catch what they claim to. */
class EnsembleContentionTest {

    @Test
    void spansOfDifferentClientsMustNotOverlap() {
        assertNull(EnsembleContention.twoHeld(List.of(span(0, 10), span(10, 20), span(25, 30)),
                List.of("a", "b", "a")), "touching spans are not held at once");
        assertNull(EnsembleContention.twoHeld(List.of(span(0, 10), span(5, 20)), List.of("a", "a")),
                "one client's spans may overlap (reentrancy, a pass and its successor)");
        String both = EnsembleContention.twoHeld(List.of(span(0, 10), span(30, 40), span(35, 50)),
                List.of("a", "b", "c"));
        assertNotNull(both);
        assertTrue(both.startsWith("b and c both reported HELD for 0 µs"), both); // 5 ns
        assertNotNull(EnsembleContention.twoHeld(List.of(span(100, 200), span(0, 1_000)), List.of("a", "b")),
                "a span inside another");
    }

    @Test
    void longestGapIsTheLongestUncoveredTimeAfterTheStart() {
        assertEquals(0, EnsembleContention.longestGap(List.of(span(0, 100), span(100, 200)), 50));
        assertEquals(70, EnsembleContention.longestGap(List.of(span(0, 100), span(170, 200), span(210, 220)), 50));
        assertEquals(30, EnsembleContention.longestGap(List.of(span(80, 100)), 50), "from the start to a span");
        assertEquals(40, EnsembleContention.longestGap(List.of(span(0, 100), span(60, 120), span(160, 170)), 50),
                "overlapping spans cover their union");
        assertEquals(0, EnsembleContention.longestGap(List.of(span(0, 10)), 50), "nothing after the start");
        long near = Long.MAX_VALUE - 50;
        assertEquals(100, EnsembleContention.longestGap(List.of(span(near + 100, near + 200)), near),
                "nanoTime may wrap");
    }

    private static long[] span(long from, long to) {
        return new long[] {from, to};
    }
}
