package org.lockspi.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.lockspi.Lease;
import org.lockspi.LeaseListener;
import org.lockspi.LeaseState;
import org.lockspi.LockException;
import org.lockspi.LockService;
import org.lockspi.LockTimeoutException;
import org.lockspi.Locks;
import org.lockspi.tck.jdbc.DatabaseBackend;
import org.lockspi.tck.support.TcpProxy;

/**
 * What revocation needs of a database beyond the kit's §27, run on each database by its own test class: a schema
 * created by the version before revocation is upgraded on open (or refused, naming the columns and the fix, with
 * {@code createSchema=false}), its holders' rows are not revocable; the time from {@code revoke} returning to the
 * holder's {@code LOST}, measured and printed; a holder cut off while revoked keeps the lock until it is back.
 */
final class RevocationChecks {
    /** The prefix of the earlier version's tables. */
    private static final String PREFIX = "upgraded_";
    private static final String OPERATOR = "ops@jdbc-test";

    private RevocationChecks() {
    }

    /**
     * The statements of the schema of the version before revocation: the shipped file without the two columns and
     * without the statements that add them to existing tables.
     */
    static List<String> previousSchema(String dialect, String prefix) throws IOException {
        String file;
        try (InputStream in = JdbcLockProvider.class.getResourceAsStream("/org/lockspi/jdbc/schema/" + dialect
                + ".sql")) {
            file = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        List<String> statements = new ArrayList<>();
        for (String statement : file.replaceAll("--[^\n]*", "").split(";")) {
            if (statement.isBlank() || statement.strip().startsWith("ALTER TABLE")) {
                continue;
            }
            String old = Arrays.stream(statement.split("\n")).filter(l -> !l.contains("revocable")
                    && !l.contains("revoked_by")).reduce("", (a, b) -> a + b + "\n");
            statements.add(old.replaceAll(",(\\s*\\))", "$1").replace("lockspi_", prefix));
        }
        return statements;
    }

    /**
     * Tables of the earlier version, then: {@code createSchema=false} refuses them naming the missing columns and the
     * fix; an open with the default adds the columns; a holder's row of the earlier version (no mark) is refused; a
     * revocable holder on the upgraded tables is revoked.
     */
    static void schemaOfTheEarlierVersionIsUpgraded(DatabaseBackend db, String dialect) throws Exception {
        execute(db, previousSchema(dialect, PREFIX).toArray(new String[0]));
        String params = "?tablePrefix=" + PREFIX + "&leaseTime=3s";
        LockException refused = assertThrows(LockException.class,
                () -> Locks.open(db.uri() + params + "&createSchema=false", "jdbc"));
        assertTrue(refused.getMessage().contains("revocable and revoked_by")
                && refused.getMessage().contains("ALTER TABLE")
                && refused.getMessage().contains("org/lockspi/jdbc/schema/" + dialect + ".sql"), refused.getMessage());
        try (LockService earlier = Locks.open(db.uri() + params, "jdbc");
             LockService holder = Locks.open(db.uri() + params + "&revocable=true", "jdbc");
             LockService operator = Locks.open(db.uri() + params, "jdbc")) {
            Lease old = earlier.mutex("earlier").acquire(Duration.ofSeconds(5));
            execute(db, "UPDATE " + PREFIX + "lock SET revocable = NULL"); // as the earlier version wrote it
            IllegalStateException e = assertThrows(IllegalStateException.class,
                    () -> operator.revoke("earlier", old.fencingToken(), Duration.ofSeconds(5), OPERATOR));
            assertTrue(e.getMessage().contains(Locks.REVOCABLE_PARAMETER), e.getMessage());
            assertEquals(LeaseState.HELD, old.state(), "the earlier version's holder, after a refused revocation");

            Lease current = holder.mutex("current").acquire(Duration.ofSeconds(5));
            assertTrue(operator.revoke("current", current.fencingToken(), Duration.ofSeconds(10), OPERATOR),
                    "the revocable holder on the upgraded tables");
            assertEquals(LeaseState.LOST, current.state());
            old.release();
        }
    }

    /**
     * Revokes a revocable holder's mutex a few times with a timeout of 0 (ask, check once), and measures from
     * {@code revoke} returning to the holder's listener told {@code LOST} (0 if it was before); checks the loss's
     * reason in the engine's log line.
     *
     * @param uri    the database's lock URI with its parameters ({@code ?...})
     * @param within the bound every round must meet
     * @return the figures, in ms, one per round
     */
    static long[] revokedToLost(String uri, Duration within) throws Exception {
        List<String> lines = new CopyOnWriteArrayList<>();
        Handler capture = captureEngineLog(lines);
        long[] ms = new long[5];
        try (LockService holder = Locks.open(uri + "&revocable=true", "jdbc");
             LockService operator = Locks.open(uri, "jdbc")) {
            for (int i = 0; i < ms.length; i++) {
                String name = "revoked-" + i + "-" + System.nanoTime();
                Lease lease = holder.mutex(name).acquire(Duration.ofSeconds(5));
                LostAt lost = LostAt.on(lease);
                try {
                    operator.revoke(name, lease.fencingToken(), Duration.ZERO, OPERATOR);
                } catch (LockTimeoutException stillHeld) {
                    // asked; the holder had not let go at the one check
                }
                long returned = System.nanoTime();
                assertTrue(lost.told.await(within.toMillis() + 2000, TimeUnit.MILLISECONDS), "round " + i + ": the "
                        + "holder was not told LOST within " + within + " of the request");
                ms[i] = Math.max(0, (lost.at - returned) / 1_000_000);
                assertTrue(ms[i] <= within.toMillis(), "round " + i + ": the holder turned LOST " + ms[i]
                        + " ms after revoke returned, beyond " + within);
                lease.release(); // late, of a LOST lease: nothing thrown
            }
        } finally {
            ENGINE.removeHandler(capture);
        }
        assertTrue(lines.stream().anyMatch(l -> l.contains("revoked at the request of " + OPERATOR)), "the engine "
                + "logged the loss with its reason: " + lines);
        return ms;
    }

    /**
     * A revocable holder cut off from the database (a TCP proxy that drops every byte) never hears of a request
     * made meanwhile: {@code revoke} times out, and the lock does not pass on. Back within its lease time, its keeper
     * finds the request at its first renewal, and the holder turns {@code LOST} for the revocation (not for its lease
     * running out) before the waiting client gets the lock, with a greater token.
     */
    static void aCutOffHolderIsToldWhenItIsBack(DatabaseBackend db) throws Exception {
        String params = "?leaseTime=10s&connectTimeout=1s&socketTimeout=1s";
        List<String> lines = new CopyOnWriteArrayList<>();
        Handler capture = captureEngineLog(lines);
        try (TcpProxy proxy = TcpProxy.inFrontOf(db.uri());
             LockService holder = Locks.open(proxy.rewrite(db.uri()) + params + "&revocable=true", "jdbc");
             LockService other = Locks.open(db.uri() + params, "jdbc");
             LockService operator = Locks.open(db.uri() + params, "jdbc")) {
            String name = "cut-off-" + System.nanoTime();
            Lease lease = holder.nonReentrantMutex(name).acquire(Duration.ofSeconds(5));
            long token = lease.fencingToken();
            LostAt lost = LostAt.on(lease);
            CompletableFuture<Object[]> next = other.nonReentrantMutex(name).acquireAsync(Duration.ofSeconds(30))
                    .thenApply(got -> {
                        Object[] then = {lease.state(), got.fencingToken()}; // the holder's, as the other holds
                        got.release();
                        return then;
                    });
            proxy.blackHole(true);
            assertThrows(LockTimeoutException.class,
                    () -> operator.revoke(name, token, Duration.ofSeconds(1), OPERATOR), "the cut-off holder "
                            + "cannot let go");
            assertFalse(next.isDone(), "the lock passed on while its holder was cut off");
            assertNotEquals(LeaseState.LOST, lease.state(), "the holder, cut off for a second of its 10 s lease");
            long healed = System.nanoTime();
            proxy.heal();
            assertTrue(lost.told.await(8, TimeUnit.SECONDS), "the holder was not told LOST within 8 s of its return");
            Object[] then = next.get(10, TimeUnit.SECONDS);
            assertEquals(LeaseState.LOST, then[0], "the holder's lease as the other client was granted");
            assertTrue((Long) then[1] > token, "the other's token " + then[1] + " after the revoked " + token);
            System.out.println("[revocation] " + db.description() + ", a holder cut off while revoked: LOST "
                    + (lost.at - healed) / 1_000_000 + " ms after its connection came back");
            lease.release();
        } finally {
            ENGINE.removeHandler(capture);
        }
        assertTrue(lines.stream().anyMatch(l -> l.contains("revoked at the request of " + OPERATOR)), "the holder "
                + "lost its lease for the revocation, not its lease time: " + lines);
    }

    /** When a lease's listener was told LOST (System.nanoTime()), and a latch for it. */
    private static final class LostAt implements LeaseListener {
        final CountDownLatch told = new CountDownLatch(1);
        volatile long at;

        static LostAt on(Lease lease) {
            LostAt listener = new LostAt();
            lease.addListener(listener);
            return listener;
        }

        @Override
        public void stateChanged(Lease lease, LeaseState previous, LeaseState current) {
            if (current == LeaseState.LOST) {
                at = System.nanoTime();
                told.countDown();
            }
        }
    }

    /** The engine's logger, whose "lease lost" line carries the backend's reason. */
    private static final Logger ENGINE = Logger.getLogger("org.lockspi.internal.EngineService");

    /** @return a handler added to the engine's logger that collects its messages; remove it after */
    private static Handler captureEngineLog(List<String> lines) {
        Handler capture = new Handler() {
            @Override
            public void publish(LogRecord record) {
                lines.add(record.getMessage());
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        ENGINE.addHandler(capture);
        return capture;
    }

    private static void execute(DatabaseBackend db, String... statements) throws SQLException {
        try (Connection c = db.connect(); Statement s = c.createStatement()) {
            for (String statement : statements) {
                s.execute(statement);
            }
        }
    }
}
