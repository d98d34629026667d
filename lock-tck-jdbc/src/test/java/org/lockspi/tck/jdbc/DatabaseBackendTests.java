package org.lockspi.tck.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.Test;

/**
 * What every database fixture promises the kit, and the provider relies on: a row committed before a restart by
 * {@code SIGKILL} is there after it, with a connection left open across the kill as a pool's is, and a value of the
 * token sequence drawn in a committed transaction is never drawn again; the sequence starts above 2^32. One
 * subclass per database; the restart times are printed.
 */
abstract class DatabaseBackendTests {

    /** @return a started backend; the test closes it */
    abstract DatabaseBackend start();

    /** @return the SQL expression that draws the token sequence's next value */
    String nextToken() {
        return "NEXT VALUE FOR lockspi_token";
    }

    @Test
    void committedRowsAndTokensSurviveAKill() throws SQLException, InterruptedException {
        try (DatabaseBackend backend = start()) {
            try (Connection c = backend.connect(); Statement s = c.createStatement()) {
                s.execute("CREATE TABLE kept (token BIGINT PRIMARY KEY)");
            }
            long last = 0;
            for (int i = 1; i <= 5; i++) {
                Connection open = backend.connect(); // a pool's connection stays open across the kill
                try (Statement s = open.createStatement()) {
                    s.execute("INSERT INTO kept (token) SELECT " + nextToken()); // autocommit
                    long token = max(s);
                    assertTrue(token > last, "round " + i + ": the sequence goes on: " + last + " -> " + token);
                    assertTrue(token > DatabaseBackend.FIRST_TOKEN - 1, "the sequence starts above 2^32: " + token);
                    last = token;
                }
                Thread.sleep(100);
                long t = System.nanoTime();
                backend.restart();
                System.out.println(backend.description() + ": restart (SIGKILL and start) took "
                        + (System.nanoTime() - t) / 1_000_000 + " ms");
                Connections.closeQuietly(open);
                try (Connection c = backend.connect(); Statement s = c.createStatement();
                     ResultSet r = s.executeQuery("SELECT COUNT(*) FROM kept")) {
                    r.next();
                    assertEquals(i, r.getInt(1), "round " + i + ": every committed row survives the kill");
                }
            }
        }
    }

    private static long max(Statement s) throws SQLException {
        try (ResultSet r = s.executeQuery("SELECT MAX(token) FROM kept")) {
            r.next();
            return r.getLong(1);
        }
    }

    /** Closing what a kill broke. */
    static final class Connections {
        private Connections() {
        }

        static void closeQuietly(Connection c) {
            try {
                c.close();
            } catch (SQLException e) {
                // broken by the kill
            }
        }
    }
}
