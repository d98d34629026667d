package org.lockspi.tck;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.lockspi.tck.internal.Checks.BOUND;
import static org.lockspi.tck.internal.Checks.WAIT;
import static org.lockspi.tck.internal.Checks.assertNames;
import static org.lockspi.tck.internal.Checks.requireSomeKind;
import static org.lockspi.tck.internal.Checks.throwsWithin;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.lockspi.Acquirable;
import org.lockspi.Lease;
import org.lockspi.LockFeature;
import org.lockspi.LockService;
import org.lockspi.Locks;
import org.lockspi.tck.internal.Kind;

/** §2 Names and arguments: bad input gets a precise exception at once, never a hang and never {@code false}. */
public interface NameContracts extends TckContext {

    @Test
    @DisplayName("§2.1 every name of the grammar is accepted by every kind: 8 segments, 64-character segments, 255 characters")
    default void validNamesAccepted() throws InterruptedException {
        List<Kind> kinds = requireSomeKind(provider());
        LockService client = openClient();
        for (Kind kind : kinds) {
            for (String name : validNames(uniqueName("names-" + kind))) {
                Acquirable lock = kind.of(client, name);
                assertEquals(name, lock.name());
                try (Lease lease = lock.acquire(WAIT)) {
                    assertEquals(name, lease.lockName());
                    assertTrue(lease.isHeld(), kind + " '" + name + "' acquired but not held");
                }
            }
        }
    }

    /** Names at the edges of the grammar, each under {@code stem}. */
    private static List<String> validNames(String stem) {
        List<String> names = new ArrayList<>();
        names.add(stem);
        names.add(stem + "/billing/invoice-42");
        names.add(stem + "/jobs/nightly_report.v2");
        names.add(stem + "/b/c/d/e/f/g/h");
        names.add(stem + "/" + "S".repeat(64));
        names.add(stem + "/A-_.z9" + "x".repeat(40));
        StringBuilder longest = new StringBuilder(stem);
        while (longest.length() + 65 < 255) {
            longest.append('/').append("L".repeat(64));
        }
        longest.append('/').append("E".repeat(255 - longest.length() - 1));
        names.add(longest.toString());
        return names;
    }

    @Test
    @DisplayName("§2.2 a null name throws NullPointerException from every kind")
    default void nullNameRejected() {
        requireSomeKind(provider());
        LockService client = openClient();
        for (Kind kind : Kind.supported(provider().features())) {
            throwsWithin(NullPointerException.class, BOUND, kind + " with a null name", () -> kind.of(client, null));
        }
    }

    @Test
    @DisplayName("§2.3 a malformed name throws IllegalArgumentException naming it, from every kind")
    default void malformedNamesRejected() {
        requireSomeKind(provider());
        LockService client = openClient();
        List<String> bad = List.of("", "/a", "a/", "a//b", ".a", "a/.b", "a b", "a:b", "a\\b", "ä", "a*",
                "a/b/c/d/e/f/g/h/i", "s".repeat(65), "a/" + "s".repeat(65));
        for (Kind kind : Kind.supported(provider().features())) {
            for (String name : bad) {
                IllegalArgumentException e = throwsWithin(IllegalArgumentException.class, BOUND,
                        kind + " named '" + name + "'", () -> kind.of(client, name));
                if (!name.isEmpty()) {
                    assertNames(e, name);
                }
            }
            String tooLong = "a".repeat(60) + ("/" + "b".repeat(60)).repeat(4); // 304 characters, 5 segments
            IllegalArgumentException e = throwsWithin(IllegalArgumentException.class, BOUND,
                    kind + " with a " + tooLong.length() + "-character name", () -> kind.of(client, tooLong));
            assertNames(e, tooLong);
        }
    }

    @Test
    @DisplayName("§2.4 a null, negative or longer than MAX_TIMEOUT timeout is refused at once by every kind")
    default void badTimeoutsRejected() {
        requireSomeKind(provider());
        LockService client = openClient();
        Duration negative = Duration.ofMillis(-1);
        Duration tooLong = Acquirable.MAX_TIMEOUT.plusSeconds(1);
        for (Kind kind : Kind.supported(provider().features())) {
            Acquirable lock = kind.of(client, uniqueName("timeouts-" + kind));
            throwsWithin(NullPointerException.class, BOUND, kind + ".acquire(null)", () -> lock.acquire(null));
            throwsWithin(NullPointerException.class, BOUND, kind + ".tryAcquire(null)", () -> lock.tryAcquire(null));
            assertNames(throwsWithin(IllegalArgumentException.class, BOUND, kind + ".acquire(" + negative + ")",
                    () -> lock.acquire(negative)), negative.toString());
            assertNames(throwsWithin(IllegalArgumentException.class, BOUND, kind + ".tryAcquire(" + negative + ")",
                    () -> lock.tryAcquire(negative)), negative.toString());
            assertNames(throwsWithin(IllegalArgumentException.class, BOUND, kind + ".acquire(" + tooLong + ")",
                    () -> lock.acquire(tooLong)), tooLong.toString());
            assertNames(throwsWithin(IllegalArgumentException.class, BOUND, kind + ".tryAcquire(" + tooLong + ")",
                    () -> lock.tryAcquire(tooLong)), tooLong.toString());
        }
    }

    @Test
    @DisplayName("§2.5 timeout bounds: ZERO makes one attempt, MAX_TIMEOUT is accepted")
    default void boundaryTimeouts() throws InterruptedException {
        requireSomeKind(provider());
        LockService client = openClient();
        LockService other = openClient();
        for (Kind kind : Kind.supported(provider().features())) {
            String name = uniqueName("bounds-" + kind);
            Optional<Lease> zero = kind.of(client, name).tryAcquire(Duration.ZERO);
            assertTrue(zero.isPresent(), kind + ": tryAcquire(ZERO) of a free lock must acquire it");
            Optional<Lease> busy = kind.of(other, name).tryAcquire(Duration.ZERO);
            assertTrue(busy.isEmpty(), kind + ": tryAcquire(ZERO) of a held lock must return empty");
            zero.get().release();
            try (Lease max = kind.of(other, name).acquire(Acquirable.MAX_TIMEOUT)) {
                assertTrue(max.isHeld(), kind + ": acquire(MAX_TIMEOUT) of a free lock must acquire it");
            }
        }
    }

    @Test
    @DisplayName("§2.6 one name is one kind of lock in a service: another kind is refused, the same kind is cached")
    default void oneNameOneKind() {
        List<Kind> kinds = requireSomeKind(provider());
        LockService client = openClient();
        String name = uniqueName("one-kind");
        Acquirable first = kinds.get(0).of(client, name);
        assertTrue(first == kinds.get(0).of(client, name), "the same name and kind must give the same instance");
        for (Kind kind : kinds.subList(1, kinds.size())) {
            IllegalArgumentException e = throwsWithin(IllegalArgumentException.class, BOUND,
                    name + " as " + kinds.get(0) + " then as " + kind, () -> kind.of(client, name));
            assertNames(e, name);
        }
        if (provider().features().contains(LockFeature.REENTRANT_MUTEX)
                && provider().features().contains(LockFeature.NON_REENTRANT_MUTEX)) {
            String other = uniqueName("one-kind");
            client.nonReentrantMutex(other);
            assertNames(throwsWithin(IllegalArgumentException.class, BOUND, "mutex after non-reentrant mutex",
                    () -> client.mutex(other)), other);
        }
    }

    @Test
    @DisplayName("§2.7 a null or malformed URI is refused at once")
    default void malformedUriRejected() {
        throwsWithin(NullPointerException.class, BOUND, "open(null)", () -> Locks.open(null, provider()).close());
        String scheme = backend().scheme();
        for (String uri : List.of(scheme + "://", scheme + ":/host", "://host/path", "not a uri",
                scheme + "://host:99999/path", scheme + "://bad host/path", scheme + "://host/path?=1",
                scheme + "://host/path?a=1&a=2", scheme + "://host/path?a=%zz")) {
            throwsWithin(IllegalArgumentException.class, BOUND, "open('" + uri + "')",
                    () -> Locks.open(uri, provider()).close());
        }
    }
}
