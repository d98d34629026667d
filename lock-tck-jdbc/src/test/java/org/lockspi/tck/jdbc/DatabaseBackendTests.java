package org.lockspi.tck.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.Test;

/**
 * What every database fixture promises the kit: committed rows and the token sequence survive a restart by
 * {@code SIGKILL}, and the sequence starts above 2^32. One subclass per database.
 */
abstract class DatabaseBackendTests {

    /** @return a started backend; the test closes it */
    abstract DatabaseBackend start();

    /** @return the statement that draws the token sequence's next value */
    String nextToken() {
        return "SELECT NEXT VALUE FOR lockspi_token";
    }

    @Test
    void committedRowsAndSequenceSurviveAKill() throws SQLException {
        try (DatabaseBackend backend = start()) {
            long before;
            try (Connection c = backend.connect(); Statement s = c.createStatement()) {
                s.execute("CREATE TABLE kept (id INT PRIMARY KEY)");
                s.execute("INSERT INTO kept VALUES (1)");
                before = next(s);
                before = Math.max(before, next(s));
            }
            backend.restart();
            try (Connection c = backend.connect(); Statement s = c.createStatement()) {
                try (ResultSet r = s.executeQuery("SELECT COUNT(*) FROM kept")) {
                    r.next();
                    assertEquals(1, r.getInt(1), "the committed row survives the kill");
                }
                long after = next(s);
                assertTrue(after > before, "the sequence goes on: " + before + " -> " + after);
                assertTrue(before > DatabaseBackend.FIRST_TOKEN, "the sequence starts above 2^32: " + before);
            }
        }
    }

    @Test
    void theLastCommitSurvivesAKill() throws SQLException {
        try (DatabaseBackend backend = start()) {
            try (Connection c = backend.connect(); Statement s = c.createStatement()) {
                s.execute("CREATE TABLE kept (id INT PRIMARY KEY)");
            }
            for (int i = 1; i <= 5; i++) {
                long token;
                Connection open = backend.connect(); // a pool's connection stays open across the kill
                try (Statement s = open.createStatement()) {
                    token = next(s);
                    s.execute("INSERT INTO kept VALUES (" + i + ")");
                }
                try {
                    Thread.sleep(100);
                } catch (InterruptedException e) {
                    throw new AssertionError(e);
                }
                long t = System.nanoTime();
                backend.restart();
                System.out.println(backend.description() + ": restart (SIGKILL and start) took "
                        + (System.nanoTime() - t) / 1_000_000 + " ms");
                try (Connection c = backend.connect(); Statement s = c.createStatement()) {
                    try (ResultSet r = s.executeQuery("SELECT COUNT(*) FROM kept")) {
                        r.next();
                        assertEquals(i, r.getInt(1), "round " + i + ": the last committed row survives the kill");
                    }
                    long after = next(s);
                    assertTrue(after > token, "round " + i + ": the sequence goes on: " + token + " -> " + after);
                }
            }
        }
    }

    private long next(Statement s) throws SQLException {
        try (ResultSet r = s.executeQuery(nextToken())) {
            r.next();
            return r.getLong(1);
        }
    }
}
