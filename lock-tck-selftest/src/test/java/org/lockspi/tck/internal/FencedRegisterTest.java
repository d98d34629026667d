package org.lockspi.tck.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.UncheckedIOException;
import java.util.List;
import org.junit.jupiter.api.Test;

class FencedRegisterTest {

    @Test
    void acceptsOnlyTokensAtLeastTheHighestWritten() {
        try (FencedRegister register = new FencedRegister()) {
            assertTrue(register.write("a", 5));
            assertTrue(register.write("a", 5), "the same token again");
            assertFalse(register.write("b", 4), "a smaller token is refused");
            assertTrue(register.write("b", 7));
            assertEquals(List.of("a:5 OK", "a:5 OK", "b:4 STALE", "b:7 OK"), register.writes());
        }
    }

    @Test
    void aWriteBelowAGrantedTokenIsAnAcceptedStaleWrite() {
        try (FencedRegister register = new FencedRegister()) {
            register.acquired("a", 5);
            register.ended("a", 5, "LOST");
            register.acquired("b", 7);
            assertTrue(register.write("a", 5), "the fence alone lets it through: b has not written yet");
            assertEquals(1, register.acceptedStaleWrites().size(), register.acceptedStaleWrites().toString());
            assertTrue(register.write("b", 7));
            assertFalse(register.write("a", 5));
            assertEquals(1, register.acceptedStaleWrites().size(), "a refused write is not counted");
        }
    }

    @Test
    void overlapsAreIntervalsOfDifferentClientsSharingAMoment() {
        try (FencedRegister register = new FencedRegister()) {
            register.acquired("a", 1);
            register.ended("a", 1, "RELEASED");
            register.acquired("b", 2);
            assertEquals(List.of(), register.overlaps(), "one after the other");
            register.acquired("b", 2); // the same client again (HELD after UNCERTAIN) is no overlap
            assertEquals(List.of(), register.overlaps());
            register.acquired("c", 3);
            List<String> overlaps = register.overlaps();
            assertEquals(2, overlaps.size(), overlaps.toString());
            assertTrue(overlaps.get(0).startsWith("b#2"), overlaps.toString());
            register.ended("b", 2, "LOST");
            assertEquals(2, register.overlaps().size(), "an overlap stays recorded once the interval ends");
        }
    }

    @Test
    void servesTheLineProtocolOnLoopback() {
        try (FencedRegister register = new FencedRegister()) {
            int port = register.port();
            assertEquals("OK", FencedRegister.request(port, "ACQUIRED child 9"));
            assertEquals("OK", FencedRegister.request(port, "WRITE child 9"));
            assertEquals("STALE", FencedRegister.request(port, "WRITE other 8"));
            assertEquals("OK", FencedRegister.request(port, "ENDED child 9 LOST"));
            assertTrue(FencedRegister.request(port, "WRITE child nine").startsWith("ERROR "));
            assertTrue(FencedRegister.request(port, "DELETE everything").startsWith("ERROR "));
            assertEquals(1, register.intervals().size());
            assertEquals("LOST", register.intervals().get(0).end());
        }
    }

    @Test
    void closeEndsServingAndIsIdempotent() {
        FencedRegister register = new FencedRegister();
        int port = register.port();
        register.close();
        register.close();
        assertThrows(UncheckedIOException.class, () -> FencedRegister.request(port, "WRITE a 1"));
    }
}
