package org.lockspi.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.lockspi.Lease;
import org.lockspi.LeaseState;
import org.lockspi.LockException;
import org.lockspi.LockInfo;
import org.lockspi.LockService;
import org.lockspi.Locks;
import org.lockspi.tck.jdbc.PostgresBackend;

/**
 * What the TCK does not check, on a real PostgreSQL: the schema (created on first use, shipped as a file, a missing
 * or wrong table named in the error, an earlier version's upgraded), an application's own DataSource, and the
 * wake-ups by LISTEN/NOTIFY (a waiter's, a revoked holder's).
 */
class JdbcProviderTest {
    private static PostgresBackend db;

    @BeforeAll
    static void start() {
        db = PostgresBackend.start();
    }

    @AfterAll
    static void stop() {
        db.close();
    }

    private static LockService open(String parameters) {
        return Locks.open(db.uri() + "?" + parameters, "jdbc");
    }

    private static void execute(String... statements) throws SQLException {
        try (Connection c = db.connect(); Statement s = c.createStatement()) {
            for (String statement : statements) {
                s.execute(statement);
            }
        }
    }

    @Test
    void theSchemaIsCreatedOnFirstUseUnderItsPrefix() throws InterruptedException {
        try (LockService locks = open("tablePrefix=first_use_")) {
            try (Lease lease = locks.mutex("a").acquire(Duration.ofSeconds(5))) {
                assertTrue(lease.fencingToken() > 0);
            }
        }
        assertEquals(0, rows("first_use_lock"), "nothing left after the release");
    }

    @Test
    void theShippedSchemaFileIsTheSchema() throws Exception {
        String file;
        try (InputStream in = JdbcLockProvider.class.getResourceAsStream("/org/lockspi/jdbc/schema/postgresql.sql")) {
            file = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        for (String statement : file.replaceAll("--[^\n]*", "").split(";")) {
            if (!statement.isBlank()) {
                execute(statement.replace("lockspi_", "migrated_"));
            }
        }
        try (LockService locks = open("tablePrefix=migrated_&createSchema=false")) {
            try (Lease lease = locks.semaphore("s", 2).acquire(Duration.ofSeconds(5))) {
                assertEquals(LockInfo.Kind.SEMAPHORE, locks.inspect("s").kind());
                assertTrue(lease.isHeld());
            }
        }
    }

    @Test
    void aMissingOrWrongTableIsNamedWithTheFix() throws SQLException {
        LockException missing = assertThrows(LockException.class, () -> open("tablePrefix=absent_&createSchema=false"));
        assertTrue(missing.getMessage().contains("the table absent_lock is missing or lacks columns"),
                missing.getMessage());
        assertTrue(missing.getMessage().contains("org/lockspi/jdbc/schema/postgresql.sql"), missing.getMessage());
        assertTrue(missing.getMessage().contains("createSchema=true"), missing.getMessage());

        execute("CREATE TABLE wrong_lock (lock_id VARCHAR(64) PRIMARY KEY, lock_name VARCHAR(100))");
        LockException wrong = assertThrows(LockException.class, () -> open("tablePrefix=wrong_"));
        assertTrue(wrong.getMessage().contains("the table wrong_lock is missing or lacks columns"), wrong.getMessage());
        assertTrue(wrong.getMessage().contains("wrong_lock (lock_id, lock_name, owner, kind, token, granted_ms, "
                + "expires_ms, entries, revocable, revoked_by)"), wrong.getMessage());
    }

    @Test
    void anApplicationsDataSourceIsUsedAndLeftOpen() throws InterruptedException, SQLException {
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(db.jdbcUrl());
        config.setUsername(db.user());
        config.setMaximumPoolSize(4);
        try (HikariDataSource app = new HikariDataSource(config)) {
            // failFast is the engine's: accepted here as in a URI
            try (LockService locks = JdbcLockProvider.open(app, "leaseTime=5s&tablePrefix=app_&failFast=1s")) {
                assertEquals("jdbc", locks.providerName());
                try (Lease lease = locks.mutex("report").acquire(Duration.ofSeconds(5))) {
                    LockInfo info = locks.inspect("report");
                    assertEquals(1, info.holders().size());
                    assertTrue(info.holders().get(0).own());
                    assertEquals(lease.fencingToken(), info.holders().get(0).fencingToken().getAsLong());
                }
            }
            IllegalArgumentException badFailFast = assertThrows(IllegalArgumentException.class,
                    () -> JdbcLockProvider.open(app, "failFast=soon"));
            assertTrue(badFailFast.getMessage().contains("failFast"), badFailFast.getMessage());
            assertFalse(app.isClosed(), "closing the service leaves the application's pool open");
            try (Connection c = app.getConnection()) {
                assertTrue(c.isValid(2));
            }
        }
        assertThrows(IllegalArgumentException.class, () -> JdbcLockProvider.open(new HikariDataSource(),
                "poolSize=3"));

    }

    /**
     * With waiters that would poll only every 2.5 s or more, a release hands the lock over within a second: the waiter was
     * woken by the release's NOTIFY, not by its poll.
     */
    @Test
    void aReleaseWakesAWaiterInAnotherClientAtOnce() throws Exception {
        String slow = "leaseTime=30s&retryInitial=5s&retryMax=10s";
        try (LockService holder = open(slow); LockService waiter = open(slow)) {
            Lease held = holder.nonReentrantMutex("wake").acquire(Duration.ofSeconds(5));
            CompletableFuture<Lease> next = waiter.nonReentrantMutex("wake").acquireAsync(Duration.ofSeconds(30));
            Thread.sleep(1500); // the waiter has queued and listens, well into its first pause
            assertFalse(next.isDone());
            long released = System.nanoTime();
            held.release();
            Lease lease = next.get(5, TimeUnit.SECONDS);
            long ms = (System.nanoTime() - released) / 1_000_000;
            lease.release();
            assertTrue(ms < 2000, "the waiter got the lock " + ms + " ms after the release: woken by the release's "
                    + "NOTIFY, it would not wait for its next poll (2.5 s or later)");
        }
    }

    /** revocable=true is the engine's parameter, also in the DataSource form (the Spring starter's). */
    @Test
    void aServiceOnAnApplicationsDataSourceIsRevocable() throws InterruptedException {
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(db.jdbcUrl());
        config.setUsername(db.user());
        config.setMaximumPoolSize(4);
        try (HikariDataSource app = new HikariDataSource(config);
             LockService holder = JdbcLockProvider.open(app, "leaseTime=5s&revocable=true");
             LockService operator = open("leaseTime=5s")) {
            Lease lease = holder.mutex("app-revocable").acquire(Duration.ofSeconds(5));
            assertTrue(operator.revoke("app-revocable", lease.fencingToken(), Duration.ofSeconds(5), "ops"));
            assertEquals(LeaseState.LOST, lease.state());
            lease.release();
        }
    }

    /** Tables of the version before revocation are upgraded on open (PostgreSQL here; MariaDB, H2 in their classes). */
    @Test
    void aSchemaOfTheVersionBeforeRevocationIsUpgraded() throws Exception {
        RevocationChecks.schemaOfTheEarlierVersionIsUpgraded(db, "postgresql");
    }

    /**
     * With renewals only every 10 s, a revoked holder turns LOST within 2 s of revoke returning, five times: the
     * request's NOTIFY started its keeper's pass, not its next renewal (which would fall into that window in one
     * round of five, and into every round once in 3,000 runs).
     */
    @Test
    void aRevocationReachesTheHolderByItsNotice() throws Exception {
        long[] ms = RevocationChecks.revokedToLost(db.uri() + "?leaseTime=30s", Duration.ofSeconds(2));
        System.out.println("[revocation] PostgreSQL, NOTIFY (leaseTime 30s): revoke returned -> holder LOST, ms: "
                + java.util.Arrays.toString(ms));
    }

    @Test
    void aHolderCutOffWhileRevokedIsToldWhenItIsBack() throws Exception {
        RevocationChecks.aCutOffHolderIsToldWhenItIsBack(db);
    }

    private static int rows(String table) {
        try (Connection c = db.connect(); Statement s = c.createStatement();
             var r = s.executeQuery("SELECT COUNT(*) FROM " + table)) {
            r.next();
            return r.getInt(1);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

}
