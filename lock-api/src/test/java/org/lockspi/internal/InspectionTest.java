package org.lockspi.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.lockspi.LockFeature;
import org.lockspi.LockInfo;
import org.lockspi.LockService;
import org.lockspi.spi.AcquireRequest;
import org.lockspi.spi.BackendEvents;
import org.lockspi.spi.BackendLease;
import org.lockspi.spi.Deadline;
import org.lockspi.spi.LockBackend;
import org.lockspi.spi.LockKeys;
import org.lockspi.spi.LockProvider;
import org.lockspi.spi.LockUri;

class InspectionTest {
    private static final LockInfo.Holder HOLDER = new LockInfo.Holder(LockInfo.Mode.EXCLUSIVE, OptionalLong.of(42),
            Optional.of(Instant.ofEpochMilli(1_000)), false);

    /** A backend that answers inspection with fixed views and keys. */
    private static final class ViewBackend implements LockBackend {
        @Override
        public BackendLease acquire(AcquireRequest request, Deadline deadline) {
            throw new UnsupportedOperationException("not in this test");
        }

        @Override
        public LockInfo inspect(String name) {
            return new LockInfo("key-of-" + name, LockInfo.Kind.MUTEX, List.of(HOLDER), 2);
        }

        @Override
        public List<String> list(String prefix) {
            // what a backend finds: keys, one of a name outside the readable form, one no lock name maps to
            List<String> keys = List.of("jobs/b", "jobs/a", "other", "jobs/a", LockKeys.key("user:ann"), "~!foreign");
            return keys.stream().filter(k -> k.startsWith(prefix)).toList();
        }

        @Override
        public void close() {
        }
    }

    private static LockService service(Set<LockFeature> features) {
        LockProvider provider = new LockProvider() {
            public String name() {
                return "views";
            }

            public String version() {
                return "1";
            }

            public Set<String> schemes() {
                return Set.of("views");
            }

            public Set<LockFeature> features() {
                return features;
            }

            public Set<String> parameters() {
                return Set.of();
            }

            public LockBackend open(LockUri uri, BackendEvents events) {
                return new ViewBackend();
            }
        };
        return Engine.open(provider, "views://test", events -> new ViewBackend());
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "a", "a/", "jobs/nig", "a//", ".a", "a b", "user:", "ä", "a/b/c/d/e/f/g/h/"})
    void acceptsAnyPrefix(String prefix) {
        assertEquals(prefix, Inspection.checkPrefix(prefix));
    }

    @Test
    void listsNamesOutsideTheReadableFormByName() {
        try (LockService service = service(EnumSet.of(LockFeature.INSPECTION, LockFeature.FENCING_TOKENS))) {
            assertEquals(List.of("user:ann"), service.list("user:"), "found by its name, not its key");
            assertEquals(List.of("jobs/a", "jobs/b", "other", "user:ann"), service.list(""));
            assertEquals(List.of(), service.list("/"), "a prefix no name starts with");
        }
    }

    @Test
    void nullPrefixIsNpe() {
        assertThrows(NullPointerException.class, () -> Inspection.checkPrefix(null));
    }

    @Test
    void theEngineNamesTheViewAndKeepsTokensWithFencing() {
        try (LockService service = service(EnumSet.of(LockFeature.INSPECTION, LockFeature.FENCING_TOKENS))) {
            LockInfo info = service.inspect("jobs/a");
            assertEquals(new LockInfo("jobs/a", LockInfo.Kind.MUTEX, List.of(HOLDER), 2), info);
            assertEquals(List.of("jobs/a", "jobs/b"), service.list("jobs/"), "filtered, sorted, distinct");
            assertEquals(List.of("jobs/a", "jobs/b", "other", "user:ann"), service.list(""));
        }
    }

    @Test
    void theEngineDropsTokensWithoutFencing() {
        try (LockService service = service(EnumSet.of(LockFeature.INSPECTION))) {
            LockInfo.Holder holder = service.inspect("jobs/a").holders().get(0);
            assertFalse(holder.fencingToken().isPresent(), "a token without FENCING_TOKENS: " + holder);
            assertEquals(HOLDER.since(), holder.since());
        }
    }

    @Test
    void withoutTheFeatureBothCallsNameIt() {
        try (LockService service = service(EnumSet.of(LockFeature.REENTRANT_MUTEX))) {
            UnsupportedOperationException e = assertThrows(UnsupportedOperationException.class,
                    () -> service.inspect("a"));
            assertTrue(e.getMessage().contains("INSPECTION"), e.getMessage());
            e = assertThrows(UnsupportedOperationException.class, () -> service.list(""));
            assertTrue(e.getMessage().contains("INSPECTION"), e.getMessage());
        }
    }

    @Test
    void namesAreCheckedBeforeTheFeatureAndAfterClose() {
        LockService service = service(EnumSet.of(LockFeature.INSPECTION));
        assertThrows(NullPointerException.class, () -> service.inspect(null));
        assertThrows(IllegalArgumentException.class, () -> service.inspect(""));
        service.close();
        assertThrows(IllegalStateException.class, () -> service.inspect("a"));
        assertThrows(IllegalStateException.class, () -> service.list(""));
    }

    @Test
    void aViewIsAValue() {
        LockInfo empty = LockInfo.empty("x");
        assertEquals(LockInfo.Kind.NONE, empty.kind());
        assertFalse(empty.isHeld());
        assertEquals(0, empty.permitsInUse());
        assertThrows(IllegalArgumentException.class, () -> new LockInfo("x", LockInfo.Kind.MUTEX, List.of(), -1));
        assertThrows(IllegalArgumentException.class,
                () -> new LockInfo("x", LockInfo.Kind.NONE, List.of(HOLDER), 0));
        LockInfo sem = new LockInfo("s", LockInfo.Kind.SEMAPHORE, List.of(HOLDER, HOLDER), 1);
        assertEquals(2, sem.permitsInUse());
        assertThrows(UnsupportedOperationException.class, () -> sem.holders().add(HOLDER));
    }
}
