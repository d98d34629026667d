package org.lockspi.fencing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/**
 * {@link JdbcFence} on H2 (in memory, in this JVM), in its own mode and in its PostgreSQL and MySQL compatibility
 * modes: the same statements, the same outcomes. Two connections are two writers with transactions of their own.
 */
class JdbcFenceTest {
    private final JdbcFence fence = JdbcFence.withDefaultTable();
    private final ExecutorService threads = Executors.newCachedThreadPool();
    private final List<Connection> open = new ArrayList<>();
    private String url;

    @BeforeEach
    void database() {
        url = "jdbc:h2:mem:fence-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1;LOCK_TIMEOUT=10000";
    }

    @AfterEach
    void close() throws Exception {
        threads.shutdownNow();
        assertTrue(threads.awaitTermination(5, TimeUnit.SECONDS));
        for (Connection c : open) {
            c.close();
        }
    }

    private Connection connect(String mode) throws SQLException {
        Connection c = DriverManager.getConnection(url + (mode.isEmpty() ? "" : ";MODE=" + mode));
        open.add(c);
        return c;
    }

    /** @return a connection in a transaction of its own (auto-commit off) */
    private Connection writer() throws SQLException {
        Connection c = connect("");
        c.setAutoCommit(false);
        return c;
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "PostgreSQL", "MySQL"})
    void acceptsEqualAndHigherTokensAndRefusesLowerOnes(String mode) throws SQLException {
        Connection c = connect(mode);
        fence.createTable(c);
        fence.createTable(c); // if not exists
        assertEquals(OptionalLong.empty(), fence.highest(c, "stock/1"));
        assertTrue(fence.tryAdvance(c, "stock/1", 10), "the first token inserts the row");
        assertTrue(fence.tryAdvance(c, "stock/1", 10));
        assertFalse(fence.tryAdvance(c, "stock/1", 9));
        assertTrue(fence.tryAdvance(c, "stock/1", 12));
        assertEquals(OptionalLong.of(12), fence.highest(c, "stock/1"));
        StaleTokenException e = assertThrows(StaleTokenException.class, () -> fence.advance(c, "stock/1", 11));
        assertEquals(12, e.highest());
        assertTrue(fence.tryAdvance(c, "stock/2", 1), "resources are fenced apart");
    }

    @Test
    void theTokenCountsOnlyWhenItsTransactionCommits() throws SQLException {
        Connection setup = connect("");
        fence.createTable(setup);
        Connection a = writer();
        assertTrue(fence.tryAdvance(a, "r", 5));
        a.rollback(); // the guarded write failed: its token was never recorded
        Connection b = writer();
        assertTrue(fence.tryAdvance(b, "r", 4), "a rolled-back token does not fence");
        b.commit();
        assertEquals(OptionalLong.of(4), fence.highest(setup, "r"));
    }

    /** A writer that waits for another's uncommitted token is compared with it once it commits (or not, once undone). */
    @Test
    void aWriterWaitsForAnOpenTransactionOfTheSameResourceAndIsJudgedByItsOutcome() throws Exception {
        Connection setup = connect("");
        fence.createTable(setup);
        fence.tryAdvance(setup, "r", 1);
        Connection newer = writer();
        assertTrue(fence.tryAdvance(newer, "r", 5));
        Connection older = writer();
        Future<Boolean> late = threads.submit(() -> fence.tryAdvance(older, "r", 4));
        assertThrows(TimeoutException.class, () -> late.get(200, TimeUnit.MILLISECONDS), "waits for the row");
        newer.commit();
        assertFalse(late.get(5, TimeUnit.SECONDS), "refused: 5 was committed while it waited");
        older.rollback();

        Connection undone = writer();
        assertTrue(fence.tryAdvance(undone, "r", 9));
        Connection waiting = writer();
        Future<Boolean> next = threads.submit(() -> fence.tryAdvance(waiting, "r", 6));
        assertThrows(TimeoutException.class, () -> next.get(200, TimeUnit.MILLISECONDS));
        undone.rollback();
        assertTrue(next.get(5, TimeUnit.SECONDS), "accepted: 9 was rolled back");
        waiting.commit();
        assertEquals(OptionalLong.of(6), fence.highest(setup, "r"));
    }

    /** Two first writers of a resource: the second's insert meets the first's key, and it compares instead. */
    @Test
    void twoFirstWritersInsertTheRowOnce() throws Exception {
        fence.createTable(connect(""));
        for (long[] tokens : new long[][] {{5, 7}, {5, 3}}) {
            String resource = "first-" + tokens[1];
            Connection first = writer();
            assertTrue(fence.tryAdvance(first, resource, tokens[0]));
            Connection second = writer();
            Future<Boolean> racing = threads.submit(() -> fence.tryAdvance(second, resource, tokens[1]));
            assertThrows(TimeoutException.class, () -> racing.get(200, TimeUnit.MILLISECONDS), "waits for the key");
            first.commit();
            assertEquals(tokens[1] >= tokens[0], racing.get(5, TimeUnit.SECONDS), resource);
            second.commit();
            assertEquals(OptionalLong.of(Math.max(tokens[0], tokens[1])), fence.highest(connect(""), resource));
        }
    }

    @Test
    void tableNamesAndResourcesAreChecked() throws SQLException {
        assertEquals("shop.fences", JdbcFence.on("shop.fences").table());
        for (String bad : List.of("", "1abc", "fences; DROP TABLE stock", "a.b.c", "x-y", "\"quoted\"")) {
            assertThrows(IllegalArgumentException.class, () -> JdbcFence.on(bad), bad);
        }
        assertThrows(NullPointerException.class, () -> JdbcFence.on(null));
        Connection c = connect("");
        fence.createTable(c);
        assertThrows(IllegalArgumentException.class, () -> fence.tryAdvance(c, "", 1));
        assertThrows(IllegalArgumentException.class, () -> fence.tryAdvance(c, "x".repeat(256), 1));
        assertTrue(fence.tryAdvance(c, "x".repeat(255), 1));
        assertThrows(NullPointerException.class, () -> fence.tryAdvance(null, "r", 1));
        try (Statement s = c.createStatement()) {
            s.execute("CREATE SCHEMA shop");
        }
        JdbcFence other = JdbcFence.on("shop.fences");
        other.createTable(c);
        assertTrue(other.tryAdvance(c, "r", 3));
        assertEquals(OptionalLong.empty(), fence.highest(c, "r"), "two tables are two fences");
    }
}
