package org.lockspi.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.lockspi.LockFeature;
import org.lockspi.LockInfo;
import org.lockspi.LockService;
import org.lockspi.LockTimeoutException;
import org.lockspi.Locks;
import org.lockspi.fixture.MemoryBackend;
import org.lockspi.fixture.MemoryProvider;
import org.lockspi.spi.AcquireRequest;
import org.lockspi.spi.BackendLease;
import org.lockspi.spi.Deadline;
import org.lockspi.spi.LockBackend;

/**
 * The engine's part of revocation (spec §27): the checks, the wait for the holder read from the backend's view, the
 * audit line for every outcome, the opt-in carried to the backend on every request, and the refusals. What the
 * holder's side does on a server is the providers' and the kit's.
 */
class RevocationTest {
    /** The holders a scripted backend shows, by key; a revoke of a token in {@link #refused} is refused. */
    private final Map<String, Set<Long>> holders = new ConcurrentHashMap<>();
    private final Set<Long> refused = ConcurrentHashMap.newKeySet();
    private final List<String> requests = new CopyOnWriteArrayList<>();
    /** Whether a revoked holder lets go (its token leaves the view at the second read) or never does. */
    private volatile boolean letsGo = true;
    private final List<LogRecord> audit = new CopyOnWriteArrayList<>();
    private final Handler capture = new Handler() {
        @Override
        public void publish(LogRecord record) {
            audit.add(record);
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    };

    private final class ScriptedBackend implements LockBackend {
        private final Map<String, Integer> reads = new ConcurrentHashMap<>();

        @Override
        public BackendLease acquire(AcquireRequest request, Deadline deadline) {
            throw new UnsupportedOperationException("not in this test");
        }

        @Override
        public LockInfo inspect(String key) {
            Set<Long> tokens = holders.getOrDefault(key, Set.of());
            if (letsGo && reads.merge(key, 1, Integer::sum) >= 2) {
                holders.remove(key); // the holder let go after the first read
            }
            List<LockInfo.Holder> shown = new ArrayList<>();
            tokens.forEach(t -> shown.add(new LockInfo.Holder(LockInfo.Mode.EXCLUSIVE, OptionalLong.of(t),
                    Optional.empty(), false)));
            return shown.isEmpty() ? LockInfo.empty(key) : new LockInfo(key, LockInfo.Kind.MUTEX, shown, 0);
        }

        @Override
        public boolean revoke(String key, long token, String requestedBy) {
            requests.add(key + " " + token + " " + requestedBy);
            if (!holders.getOrDefault(key, Set.of()).contains(token)) {
                return false;
            }
            if (refused.contains(token)) {
                throw new IllegalStateException("the holder with token " + token + " does not accept revocation: "
                        + "its service was opened without revocable=true");
            }
            return true;
        }

        @Override
        public void close() {
        }
    }

    private LockService service;

    @BeforeEach
    void open() {
        Logger.getLogger("org.lockspi.audit").addHandler(capture);
        MemoryProvider provider = MemoryProvider.full("scripted");
        service = Engine.open(provider, "scripted://test", events -> new ScriptedBackend());
    }

    @AfterEach
    void close() {
        service.close();
        Logger.getLogger("org.lockspi.audit").removeHandler(capture);
    }

    private String onlyAuditLine() {
        assertEquals(1, audit.size(), "one audit line: " + audit.stream().map(LogRecord::getMessage).toList());
        assertEquals(Level.WARNING, audit.get(0).getLevel());
        return audit.get(0).getMessage();
    }

    @Test
    void aRevocationWaitsForTheHolderAndLogsWhoAskedWhichLockAndToken() {
        holders.put("jobs/a", Set.of(42L));
        assertTrue(service.revoke("jobs/a", 42, Duration.ofSeconds(5), "alice via ops"));
        assertEquals(List.of("jobs/a 42 alice via ops"), requests);
        assertTrue(holders.isEmpty(), "returned once the view no longer showed the token");
        String line = onlyAuditLine();
        assertTrue(line.startsWith("revoked: 'jobs/a' token 42 on scripted://test, requested by alice via ops: the "
                + "holder let go in "), line);
    }

    @Test
    void theThreeArgumentFormNamesThisProcess() {
        holders.put("jobs/a", Set.of(42L));
        assertTrue(service.revoke("jobs/a", 42, Duration.ofSeconds(5)));
        String self = Requester.ofThisProcess();
        assertTrue(self.contains(" pid " + ProcessHandle.current().pid()) && self.contains("@"), self);
        assertEquals(List.of("jobs/a 42 " + self), requests);
    }

    @Test
    void noHolderWithTheTokenIsFalseAndLogged() {
        holders.put("jobs/a", Set.of(42L));
        assertFalse(service.revoke("jobs/a", 43, Duration.ofSeconds(5), "alice"));
        assertTrue(onlyAuditLine().startsWith("revocation found no holder: 'jobs/a' token 43"), onlyAuditLine());
    }

    @Test
    void aRefusalNamesTheOptInAndIsLogged() {
        holders.put("jobs/a", Set.of(42L));
        refused.add(42L);
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> service.revoke("jobs/a", 42, Duration.ofSeconds(5), "alice"));
        assertTrue(e.getMessage().contains("revocable=true") && e.getMessage().contains("'jobs/a' token 42"),
                e.getMessage());
        assertTrue(onlyAuditLine().startsWith("revocation refused: 'jobs/a' token 42"), onlyAuditLine());
    }

    @Test
    void aHolderThatDoesNotLetGoTimesOutAndIsLogged() {
        letsGo = false;
        holders.put("jobs/a", Set.of(42L));
        long start = System.nanoTime();
        LockTimeoutException e = assertThrows(LockTimeoutException.class,
                () -> service.revoke("jobs/a", 42, Duration.ofMillis(300), "alice"));
        long took = (System.nanoTime() - start) / 1_000_000;
        assertTrue(took >= 300 && took < 2_000, "gave up after the timeout: " + took + " ms");
        assertEquals(Duration.ofMillis(300), e.timeout());
        assertTrue(e.getMessage().contains("did not let go within PT0.3S"), e.getMessage());
        assertTrue(onlyAuditLine().startsWith("revocation asked, holder still holds after "), onlyAuditLine());
    }

    @Test
    void badInputIsRefusedBeforeTheBackendIsAsked() {
        Duration s = Duration.ofSeconds(1);
        assertThrows(NullPointerException.class, () -> service.revoke(null, 1, s, "a"));
        assertThrows(IllegalArgumentException.class, () -> service.revoke("", 1, s, "a"));
        assertEquals("fencingToken < 0: -1", assertThrows(IllegalArgumentException.class,
                () -> service.revoke("a", -1, s, "a")).getMessage());
        assertThrows(NullPointerException.class, () -> service.revoke("a", 1, null, "a"));
        assertEquals("timeout < 0: PT-1S", assertThrows(IllegalArgumentException.class,
                () -> service.revoke("a", 1, Duration.ofSeconds(-1), "a")).getMessage());
        assertThrows(NullPointerException.class, () -> service.revoke("a", 1, s, null));
        assertEquals("requestedBy is blank: ' '", assertThrows(IllegalArgumentException.class,
                () -> service.revoke("a", 1, s, " ")).getMessage());
        assertThrows(IllegalArgumentException.class, () -> service.revoke("a", 1, s, "a\nb"));
        assertThrows(IllegalArgumentException.class, () -> service.revoke("a", 1, s, "x".repeat(201)));
        assertEquals(List.of(), requests);
        assertEquals(List.of(), audit);
        service.close();
        assertThrows(IllegalStateException.class, () -> service.revoke("a", 1, s, "a"));
    }

    @Test
    void withoutTheFeatureRevokeAndTheOptInAreRefused() {
        MemoryProvider without = new MemoryProvider("plain", Set.of("plain"), 0,
                EnumSet.of(LockFeature.REENTRANT_MUTEX, LockFeature.INSPECTION, LockFeature.FENCING_TOKENS));
        try (LockService plain = Locks.open("plain://x", without)) {
            UnsupportedOperationException e = assertThrows(UnsupportedOperationException.class,
                    () -> plain.revoke("a", 1, Duration.ofSeconds(1), "a"));
            assertTrue(e.getMessage().contains("REVOCATION") && e.getMessage().contains("plain"), e.getMessage());
        }
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Locks.open("plain://x?revocable=true", without));
        assertTrue(e.getMessage().contains("revocable=true") && e.getMessage().contains("REVOCATION"),
                e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> Locks.open("plain://x?revocable=yes", without));
    }

    @Test
    void theOptInReachesTheBackendOnEveryRequestOfTheService() throws Exception {
        MemoryProvider provider = MemoryProvider.full("optin");
        try (LockService revocable = Locks.open("mem://engine/test?revocable=true", provider)) {
            MemoryBackend backend = provider.lastBackend();
            revocable.mutex("m").acquire().release();
            revocable.nonReentrantMutex("n").acquireAsync(Duration.ofSeconds(1)).get().release();
            revocable.readWriteLock("rw").readLock().acquire().release();
            revocable.semaphore("s", 2).acquire().release();
            revocable.mutex("m").withLeaseTime(Duration.ofSeconds(9)).acquire().release();
            assertTrue(backend.requests().size() == 5
                    && backend.requests().stream().allMatch(AcquireRequest::isRevocable), backend.requests().toString());
        }
        try (LockService plain = Locks.open("mem://engine/test", provider)) {
            MemoryBackend backend = provider.lastBackend();
            plain.mutex("m").acquire().release();
            assertFalse(backend.requests().get(0).isRevocable(), "without the parameter: " + backend.requests());
        }
    }
}
