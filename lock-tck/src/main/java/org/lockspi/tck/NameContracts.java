package org.lockspi.tck;

import static org.lockspi.tck.coverage.KindColumn.*;
import static org.lockspi.tck.coverage.QueueShape.*;
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
import org.lockspi.spi.LockKeys;
import org.lockspi.tck.internal.Kind;
import org.lockspi.tck.internal.NameSamples;
import org.lockspi.tck.coverage.Covers;
import org.lockspi.tck.coverage.CoveredBy;
import org.lockspi.tck.coverage.Inapplicable;
import org.lockspi.tck.coverage.Why;

/**
 * §2 Names and arguments: any string is a lock name, two names are two locks, a name's key is the same for every
 * provider; bad input gets a precise exception at once, never a hang and never {@code false}. §2.8 to §2.10 are in
 * {@link AnyNameContracts}, §2.11 to §2.14 (distinct names on the provider's own layout) in
 * {@link DistinctNameContracts}.
 */
@Inapplicable(shapes = {ONE_WAITER, SEVERAL_WAITERS, MIXED_KINDS}, reason = Why.NO_QUEUE)
public interface NameContracts extends TckContext {

    /**
     * For every declared kind, acquires and releases names of the readable form at its edges: a plain stem, two and
     * three segments, eight segments, a 64-character segment, the characters {@code A-_.z9}, and a name of exactly 255
     * characters. Each is its own key, {@code name()} and {@code lockName()} return it, and the lease is held.
     */
    @Test
    @Diagnosis("LockBackend.acquire gets the key in AcquireRequest.name() and must store it as it is: look for a path "
            + "or key builder that rejects or rewrites '/', '.', '-' or '_', or a length or depth limit below 255 "
            + "characters or eight segments.")
    @Covers(kinds = {MUTEX, NON_REENTRANT_MUTEX, WRITE, SEMAPHORE})
    @Inapplicable(kinds = {READ, THREAD_FREE, ASYNC}, reason = Why.NAME_OF_THE_LOCK)
    @DisplayName("§2.1 every name of the readable form is accepted by every kind and is its own key: 8 segments, 64-character segments, 255 characters")
    default void validNamesAccepted() throws InterruptedException {
        List<Kind> kinds = requireSomeKind(provider());
        LockService client = openClient();
        for (Kind kind : kinds) {
            for (String name : validNames(uniqueName("names-" + kind))) {
                Acquirable lock = kind.of(client, name);
                assertEquals(name, lock.name());
                assertEquals(name, LockKeys.key(name), "a name of the readable form is its own key");
                try (Lease lease = lock.acquire(WAIT)) {
                    assertEquals(name, lease.lockName());
                    assertTrue(lease.isHeld(), kind + " '" + name + "' acquired but not held");
                }
            }
        }
    }

    /** Names at the edges of the readable form, each under {@code stem}. */
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

    /**
     * Asks every declared kind for a lock named {@code null}: {@code NullPointerException} within 2 s.
     */
    @Test
    @Diagnosis("Name checks are the engine's (org.lockspi.internal.Names), before the provider is called; if this "
            + "fails, the lock-api on the class path is not the kit's, e.g. an older copy shaded into the provider's "
            + "jar.")
    @Covers(kinds = {MUTEX, NON_REENTRANT_MUTEX, WRITE, SEMAPHORE})
    @Inapplicable(kinds = {READ, THREAD_FREE, ASYNC}, reason = Why.NAME_OF_THE_LOCK)
    @DisplayName("§2.2 a null name throws NullPointerException from every kind")
    default void nullNameRejected() {
        requireSomeKind(provider());
        LockService client = openClient();
        for (Kind kind : Kind.supported(provider().features())) {
            throwsWithin(NullPointerException.class, BOUND, kind + " with a null name", () -> kind.of(client, null));
        }
    }

    /**
     * Asks every declared kind for the empty name, names with an unpaired surrogate (a lone high or low surrogate, a
     * reversed pair, a high surrogate at the end) and names just over 4096 UTF-8 bytes of one-, two- and four-byte
     * characters. Each throws {@code IllegalArgumentException} within 2 s whose message names the problem
     * ({@code empty}, {@code unpaired surrogate}, or the byte count and the name's start), under 400 characters.
     */
    @Test
    @Diagnosis("These checks are the engine's (Names), made before the provider is called; a failure means the "
            + "lock-api on the class path is not the kit's, e.g. an older copy shaded into the provider's jar.")
    @Covers(kinds = {MUTEX, NON_REENTRANT_MUTEX, WRITE, SEMAPHORE})
    @Inapplicable(kinds = {READ, THREAD_FREE, ASYNC}, reason = Why.NAME_OF_THE_LOCK)
    @DisplayName("§2.3 an empty, malformed (unpaired surrogate) or too long name throws IllegalArgumentException at once naming the problem, from every kind")
    default void malformedNamesRejected() {
        requireSomeKind(provider());
        LockService client = openClient();
        for (Kind kind : Kind.supported(provider().features())) {
            assertNames(throwsWithin(IllegalArgumentException.class, BOUND, kind + " with an empty name",
                    () -> kind.of(client, "")), "empty");
            for (String name : List.of("a\ud800", "\udc00b", "ab\udc00\ud800", "x\ud83d")) {
                assertNames(throwsWithin(IllegalArgumentException.class, BOUND, kind + " with an unpaired surrogate",
                        () -> kind.of(client, name)), "unpaired surrogate");
            }
            String stem = uniqueName("too-long-" + kind);
            for (String name : List.of(stem + "x".repeat(NameSamples.MAX_BYTES + 1 - NameSamples.utf8Length(stem)),
                    stem + "\u00e4".repeat(2100), stem + "\ud83d\udd12".repeat(1100))) {
                int bytes = NameSamples.utf8Length(name);
                IllegalArgumentException e = throwsWithin(IllegalArgumentException.class, BOUND,
                        kind + " with a name of " + bytes + " UTF-8 bytes", () -> kind.of(client, name));
                assertNames(e, "longer than " + NameSamples.MAX_BYTES + " UTF-8 bytes (" + bytes + " bytes");
                assertNames(e, stem);
                assertTrue(e.getMessage().length() < 400, "the message shows the name cut short: " + e.getMessage());
            }
        }
    }

    /**
     * For every declared kind, {@code acquire(null)} and {@code tryAcquire(null)} throw {@code NullPointerException},
     * and a timeout of {@code -1 ms} or of {@code MAX_TIMEOUT} plus one second throws {@code IllegalArgumentException}
     * naming it, from both; all within 2 s.
     */
    @Test
    @Diagnosis("Timeout checks are the engine's (Names.checkTimeout), made before LockBackend.acquire is called; a "
            + "failure means the lock-api on the class path is not the kit's, e.g. an older copy shaded into the "
            + "provider's jar.")
    @Covers(kinds = {MUTEX, NON_REENTRANT_MUTEX, WRITE, SEMAPHORE})
    @Inapplicable(kinds = {READ, THREAD_FREE, ASYNC}, reason = "checked by the engine before a provider is asked, in "
            + "one piece of code for every kind; the kit checks it through the kinds tested here")
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

    /**
     * For every declared kind: {@code tryAcquire(Duration.ZERO)} of a free lock acquires it and another client's
     * {@code tryAcquire(ZERO)} of it returns empty; after the release, {@code acquire(MAX_TIMEOUT)} (365 days) acquires
     * the free lock.
     */
    @Test
    @Diagnosis("A zero timeout reaches LockBackend.acquire as a Deadline already passed, which must still make one "
            + "attempt. MAX_TIMEOUT must not overflow: a wait handed to a client library as an int of milliseconds "
            + "overflows past 24 days; use Deadline.remainingNanos().")
    @Covers(kinds = {MUTEX, NON_REENTRANT_MUTEX, WRITE, SEMAPHORE})
    @CoveredBy(value = "§6.1", kinds = READ)
    @CoveredBy(value = "§23.1", kinds = {THREAD_FREE, ASYNC})
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

    /**
     * Asks one service for a name as the first declared kind, twice (the same instance), then as each other declared
     * kind: {@code IllegalArgumentException} naming the lock within 2 s. A name first used as a non-reentrant mutex is
     * refused as a mutex too.
     */
    @Test
    @Diagnosis("The handle cache that refuses a second kind is the engine's (EngineService); a failure means the "
            + "lock-api on the class path is not the kit's, e.g. an older copy shaded into the provider's jar.")
    @Covers(kinds = {MUTEX, NON_REENTRANT_MUTEX, WRITE, SEMAPHORE})
    @Inapplicable(kinds = {READ, THREAD_FREE, ASYNC}, reason = "checked by the engine before a provider is asked, in "
            + "one piece of code for every kind; the kit checks it through the kinds tested here")
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

    /**
     * {@code Locks.open(null, provider)} throws {@code NullPointerException}; a URI without host, without {@code //} or
     * without scheme, not a URI at all, with port 99999, a blank in the host, an empty or repeated parameter name or a
     * bad percent-escape throws {@code IllegalArgumentException}; all within 2 s.
     */
    @Test
    @Diagnosis("URI parsing is the engine's (LockUri.parse) and comes before LockProvider.open; what gets through, "
            + "open() must refuse with IllegalArgumentException (a host list or option value it cannot use), never "
            + "try to connect to it or hang.")
    @Covers(kinds = {})
    @Inapplicable(kinds = {MUTEX, NON_REENTRANT_MUTEX, READ, WRITE, SEMAPHORE, THREAD_FREE, ASYNC}, reason =
            Why.NO_LOCK)
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
