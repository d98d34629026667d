package org.lockspi.jdbc.internal;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.lockspi.LockException;

/**
 * The provider's tables and sequence: checked when a backend opens, created from the dialect's schema file
 * ({@code org/lockspi/jdbc/schema/<dialect>.sql}, the file teams migrating with Flyway or Liquibase copy) when
 * missing, unless {@code createSchema=false}; a missing or wrong table then fails with a message that names it
 * and the fix. The file's last statements add the revocation columns to tables created before them
 * ({@code ADD COLUMN IF NOT EXISTS}), so running it again upgrades a schema of an earlier version.
 */
final class Schema {
    static final String LOCK_COLUMNS = "lock_id, lock_name, owner, kind, token, granted_ms, expires_ms, entries, "
            + "revocable, revoked_by";
    static final String ENTRY_COLUMNS = "entry_id, lock_id, seq, kind, permits, token, granted_ms, expires_ms, "
            + "revocable, revoked_by";

    private Schema() {
    }

    /**
     * @throws LockException if the schema is missing or wrong and cannot or may not be created
     * @throws SQLException  if the database cannot be asked
     */
    static void ensure(Connection c, JdbcSettings settings, Sql sql) throws SQLException {
        List<String> problems = check(c, sql);
        if (problems.isEmpty()) {
            return;
        }
        if (!settings.createSchema()) {
            throw new LockException(String.join("; ", problems) + ": " + advice(settings, sql));
        }
        SQLException first = null;
        for (String statement : statements(settings)) {
            try (Statement s = c.createStatement()) {
                s.execute(statement);
            } catch (SQLException e) {
                first = first == null ? e : first; // another client may be creating it at the same time
            }
        }
        problems = check(c, sql);
        if (!problems.isEmpty()) {
            LockException failure = new LockException(String.join("; ", problems) + " after creating the schema: "
                    + advice(settings, sql), first);
            throw failure;
        }
    }

    /** @return what to do about a missing or wrong schema */
    static String advice(JdbcSettings settings, Sql sql) {
        return "the lock tables " + sql.lockTable + " (" + LOCK_COLUMNS + "), " + sql.entryTable + " ("
                + ENTRY_COLUMNS + ") and the sequence " + sql.sequence + " are needed: create them with "
                + "org/lockspi/jdbc/schema/" + settings.dialect().schemaResource() + " from the lock-spi-jdbc jar "
                + (settings.tablePrefix().equals(JdbcSettings.DEFAULT_TABLE_PREFIX) ? ""
                : "(with '" + JdbcSettings.DEFAULT_TABLE_PREFIX + "' replaced by '" + settings.tablePrefix() + "') ")
                + "or let the provider create them (createSchema=true, the default, with a user allowed to); "
                + "tables created before revocation lack revocable and revoked_by: the file's ALTER TABLE "
                + "statements add them";
    }

    private static List<String> check(Connection c, Sql sql) throws SQLException {
        List<String> problems = new ArrayList<>();
        probe(c, "SELECT " + LOCK_COLUMNS + " FROM " + sql.lockTable + " WHERE 1 = 0",
                "the table " + sql.lockTable + " is missing or lacks columns", problems);
        probe(c, "SELECT " + ENTRY_COLUMNS + " FROM " + sql.entryTable + " WHERE 1 = 0",
                "the table " + sql.entryTable + " is missing or lacks columns", problems);
        probe(c, sql.nextToken, "the sequence " + sql.sequence + " is missing", problems);
        return problems;
    }

    private static void probe(Connection c, String query, String problem, List<String> problems) throws SQLException {
        try (PreparedStatement s = c.prepareStatement(query); ResultSet r = s.executeQuery()) {
            r.next();
        } catch (SQLException e) {
            if (Connections.broken(e) || Connections.timedOut(e)) {
                throw e;
            }
            problems.add(problem + " (" + e.getMessage().lines().findFirst().orElse("") + ")");
        }
    }

    /** @return the statements of the dialect's schema file, with the table prefix */
    static List<String> statements(JdbcSettings settings) {
        String resource = "/org/lockspi/jdbc/schema/" + settings.dialect().schemaResource();
        String text;
        try (InputStream in = Schema.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("missing from the jar: " + resource);
            }
            text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalStateException("cannot read " + resource, e);
        }
        StringBuilder b = new StringBuilder();
        for (String line : text.split("\n")) {
            int comment = line.indexOf("--");
            b.append(comment >= 0 ? line.substring(0, comment) : line).append('\n');
        }
        List<String> statements = new ArrayList<>();
        for (String statement : b.toString().split(";")) {
            String s = statement.strip();
            if (!s.isEmpty()) {
                statements.add(s.replace(JdbcSettings.DEFAULT_TABLE_PREFIX, settings.tablePrefix()));
            }
        }
        return statements;
    }
}
