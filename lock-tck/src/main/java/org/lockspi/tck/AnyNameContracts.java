package org.lockspi.tck;

import static org.lockspi.tck.coverage.KindColumn.*;
import static org.lockspi.tck.coverage.QueueShape.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.lockspi.tck.internal.Checks.WAIT;
import static org.lockspi.tck.internal.Checks.requireSomeKind;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.lockspi.Acquirable;
import org.lockspi.Lease;
import org.lockspi.LockService;
import org.lockspi.spi.LockKeys;
import org.lockspi.tck.internal.Kind;
import org.lockspi.tck.internal.NameSamples;
import org.lockspi.tck.coverage.Covers;
import org.lockspi.tck.coverage.Inapplicable;
import org.lockspi.tck.coverage.Why;

/**
 * §2.8 to §2.10: any string is a lock name. The engine maps a name outside the readable form to the backend key
 * {@code '~' + base64url(UTF-8)} ({@link LockKeys}); these rules check that every provider stores each name under
 * that key, that names round-trip, and that two names are two locks.
 */
@Inapplicable(shapes = {ONE_WAITER, SEVERAL_WAITERS, MIXED_KINDS}, reason = Why.NO_QUEUE)
public interface AnyNameContracts extends TckContext {

    /**
     * For every declared kind, acquires and releases each name of {@code NameSamples.awkward}: a colon and {@code @},
     * {@code #}, a URL, leading, trailing and doubled {@code /}, a leading dot, a blank, non-ASCII and supplementary
     * characters, control characters and U+0000, braces, a leading {@code ~}, another name's key, nine segments, a
     * 65-character segment, more than 255 characters, exactly 4096 UTF-8 bytes. {@code name()} and {@code lockName()}
     * return the name as given, another client's {@code tryAcquire()} is empty while it is held, and another client
     * acquires it within 10 s after the release.
     */
    @Test
    @Diagnosis("Such a name reaches the provider as its key, '~' plus base64url, up to 5,463 characters: look for a "
            + "key or path length limit in LockBackend.acquire, special handling of '~', '-' or '_', or a provider "
            + "storing LockKeys.name() instead of AcquireRequest.name().")
    @Covers(kinds = {MUTEX, NON_REENTRANT_MUTEX, WRITE, SEMAPHORE})
    @Inapplicable(kinds = {READ, THREAD_FREE, ASYNC}, reason = Why.NAME_OF_THE_LOCK)
    @DisplayName("§2.8 any string is a name: it round-trips through name() and lockName() and is acquired and released by every kind")
    default void anyStringIsAName() throws InterruptedException {
        List<Kind> kinds = requireSomeKind(provider());
        LockService client = openClient();
        LockService other = openClient();
        for (Kind kind : kinds) {
            for (String name : NameSamples.awkward(uniqueName("any-" + kind))) {
                Acquirable lock = kind.of(client, name);
                assertEquals(name, lock.name(), kind + " " + NameSamples.show(name) + ": name()");
                try (Lease lease = lock.acquire(WAIT)) {
                    assertEquals(name, lease.lockName(), kind + " " + NameSamples.show(name) + ": lockName()");
                    assertTrue(lease.isHeld(), kind + " " + NameSamples.show(name) + " acquired but not held");
                    assertTrue(kind.of(other, name).tryAcquire().isEmpty(),
                            kind + " " + NameSamples.show(name) + ": another client got it while it was held");
                }
                Optional<Lease> next = kind.of(other, name).tryAcquire(WAIT);
                assertTrue(next.isPresent(), kind + " " + NameSamples.show(name) + ": not free after its release");
                next.get().release();
            }
        }
    }

    /**
     * Maps 5000 strings from a fixed seed through {@code LockKeys.key}: no two share a key, and each maps back with
     * {@code LockKeys.name}. Then, for each pair a careless mapping would confuse ({@code u} and {@code /u},
     * {@code u/b} and {@code u//b}, an accent precomposed and decomposed, {@code a} and {@code A}, a blank and a
     * no-break space, ...), one client holds the first and another gets the second at once with {@code tryAcquire()}; a
     * third client finds both held.
     */
    @Test
    @Diagnosis("Two names reach the provider as two keys: it merges them if it normalises keys (lower case, Unicode "
            + "normalisation, trimming, collapsing '/') or hashes or cuts long keys into one node or Redis key. Store "
            + "AcquireRequest.name() as it is.")
    @Covers(kinds = MUTEX)
    @Inapplicable(kinds = {NON_REENTRANT_MUTEX, READ, WRITE, SEMAPHORE, THREAD_FREE, ASYNC}, reason = "the engine "
            + "maps a name to one key for every kind (LockKeys), and the keys are checked to be distinct; where each "
            + "kind stores its state under the key is §2.10's check of every kind")
    @DisplayName("§2.9 distinct names never share a lock: no two of 5000 random names share a key, and holding a name never excludes another")
    default void distinctNamesAreDistinctLocks() throws InterruptedException {
        Map<String, String> byKey = new HashMap<>();
        for (String name : NameSamples.random(20261124L, 5000)) {
            String key = LockKeys.key(name);
            String earlier = byKey.putIfAbsent(key, name);
            assertTrue(earlier == null || earlier.equals(name),
                    NameSamples.show(String.valueOf(earlier)) + " and " + NameSamples.show(name) + " share the key " + key);
            assertEquals(name, LockKeys.name(key), "LockKeys.name(LockKeys.key(" + NameSamples.show(name) + "))");
        }

        Kind kind = requireSomeKind(provider()).get(0);
        LockService a = openClient();
        LockService b = openClient();
        LockService c = openClient();
        for (List<String> pair : NameSamples.confusable(uniqueName("confusable"))) {
            String x = pair.get(0);
            String y = pair.get(1);
            String what = kind + " " + NameSamples.show(x) + " and " + NameSamples.show(y);
            try (Lease holdsX = kind.of(a, x).acquire(WAIT)) {
                Optional<Lease> getsY = kind.of(b, y).tryAcquire();
                assertTrue(getsY.isPresent(), what + ": holding the first excluded the second");
                try (Lease holdsY = getsY.get()) {
                    assertTrue(kind.of(c, x).tryAcquire().isEmpty(), what + ": the first is not held");
                    assertTrue(kind.of(c, y).tryAcquire().isEmpty(), what + ": the second is not held");
                    assertTrue(holdsX.isHeld() && holdsY.isHeld(), what + ": both must be held");
                }
            }
        }
    }

    /**
     * Checks fixed examples of {@code LockKeys.key} and {@code LockKeys.name}: {@code user:alice@example.com},
     * {@code order#42}, a URL, non-ASCII and supplementary characters, {@code ~abc}, {@code /a}, {@code .a}. (INSPECT)
     * For every declared kind, three names outside the readable form are held in turn:
     * {@link TckBackend#residue(String)} of each key shows state, every entry names the key, and nothing is left after
     * the release.
     */
    @Test
    @Diagnosis("The server state must be stored under AcquireRequest.name() as given: a provider that re-encodes the "
            + "key (URL-encoding, its own escaping of '~'), stores LockKeys.name() of it, or a hash of it, is "
            + "invisible at the key and incompatible with other providers.")
    @Covers(kinds = {MUTEX, NON_REENTRANT_MUTEX, WRITE, SEMAPHORE})
    @Inapplicable(kinds = {READ, THREAD_FREE, ASYNC}, reason = Why.NAME_OF_THE_LOCK)
    @DisplayName("§2.10 a name's key is stable and the same for every provider; (INSPECT) a held name's server state is at its key")
    default void keysAreStable() throws InterruptedException {
        Map<String, String> fixed = new LinkedHashMap<>();
        fixed.put("orders", "orders");
        fixed.put("billing/invoice-42", "billing/invoice-42");
        fixed.put("user:alice@example.com", "~dXNlcjphbGljZUBleGFtcGxlLmNvbQ");
        fixed.put("order#42", "~b3JkZXIjNDI");
        fixed.put("https://example.com/a?b=c#d", "~aHR0cHM6Ly9leGFtcGxlLmNvbS9hP2I9YyNk");
        fixed.put("caf\u00e9", "~Y2Fmw6k");
        fixed.put("\ud83d\udd12", "~8J-Ukg");
        fixed.put("~abc", "~fmFiYw");
        fixed.put("/a", "~L2E");
        fixed.put(".a", "~LmE");
        fixed.forEach((name, key) -> {
            assertEquals(key, LockKeys.key(name), "the key of " + NameSamples.show(name));
            assertEquals(name, LockKeys.name(key), "the name of " + key);
        });

        List<Kind> kinds = requireSomeKind(provider());
        if (!backend().capabilities().contains(TckBackend.Capability.INSPECT)) {
            return; // the server's state cannot be looked at: the key function above is all that is checked
        }
        LockService client = openClient();
        for (Kind kind : kinds) {
            String stem = uniqueName("at-key-" + kind);
            for (String name : List.of("user:" + stem + "@example.com", "/" + stem, stem + "\ud83d\udd12")) {
                String key = LockKeys.key(name);
                assertEquals(List.of(), backend().residue(key), kind + " " + NameSamples.show(name) + ": state before");
                List<String> seen;
                try (Lease lease = kind.of(client, name).acquire(WAIT)) {
                    seen = new ArrayList<>(backend().residue(key));
                }
                assertFalse(seen.isEmpty(), kind + " " + NameSamples.show(name) + ": nothing on the server at its key " + key);
                for (String entry : seen) {
                    assertTrue(entry.contains(key), kind + " " + NameSamples.show(name) + ": " + entry + " is not at " + key);
                }
                assertEquals(List.of(), backend().residue(key), kind + " " + NameSamples.show(name) + ": state left after release");
            }
        }
    }
}
