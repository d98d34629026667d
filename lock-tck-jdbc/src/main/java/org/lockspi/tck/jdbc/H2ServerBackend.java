package org.lockspi.tck.jdbc;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.stream.Stream;
import org.h2.engine.Constants;
import org.lockspi.tck.support.Ports;
import org.lockspi.tck.support.ChildJvm;

/**
 * H2 in server mode ({@code org.h2.tools.Server}, TCP) in a child JVM, on a file database in a directory of its own:
 * the cheapest real database server, killed with {@code SIGKILL} and started again on the same files by
 * {@link #restart()}. URI {@code jdbc+h2://sa@127.0.0.1:<port>/tck}.
 *
 * <p>H2 is not crash-durable: its store writes committed transactions to the file in the background (every 10 ms
 * here, {@code WRITE_DELAY 1}; 500 ms by default), and measured here a {@code SIGKILL} 100 ms after a commit still
 * lost it now and then (a lock's row, a sequence value) while other sessions kept the store busy. So this fixture's
 * restart writes the store first ({@code CHECKPOINT}) and then kills the server: every session and connection dies
 * as in a crash, but committed rows survive, as on a database that flushes its commits (the PostgreSQL and MariaDB
 * fixtures kill without warning). A commit in the instant between the two may still be lost.
 */
public final class H2ServerBackend extends DatabaseBackend {
    private static final Duration START_TIMEOUT = Duration.ofSeconds(30);

    private final Path dir;
    private final int port;
    private ChildJvm server; // guarded by this

    private H2ServerBackend(Path dir, int port) {
        super("jdbc+h2", "/tck");
        this.dir = dir;
        this.port = port;
    }

    /**
     * Starts a server on a free port.
     *
     * @return the started backend; close it when done
     * @throws IllegalStateException if the server does not start
     */
    public static H2ServerBackend start() {
        Path dir;
        try {
            dir = Files.createTempDirectory("lockspi-h2-");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a directory for H2", e);
        }
        H2ServerBackend backend = new H2ServerBackend(dir, Ports.freeLoopbackPort());
        try {
            backend.launchServer();
            backend.prepare();
        } catch (RuntimeException e) {
            backend.close();
            throw new IllegalStateException("cannot start an H2 server in " + dir, e);
        }
        return backend;
    }

    @Override
    public int port() {
        return port;
    }

    @Override
    public String jdbcUrl() {
        return "jdbc:h2:tcp://" + HOST + ":" + port + "/tck";
    }

    @Override
    public String user() {
        return "sa";
    }

    @Override
    protected String nowMillis() {
        return "CAST(EXTRACT(EPOCH FROM CURRENT_TIMESTAMP) * 1000 AS BIGINT)";
    }

    @Override
    protected String createHighSequence() {
        return "CREATE SEQUENCE IF NOT EXISTS lockspi_token START WITH " + FIRST_TOKEN;
    }

    @Override
    public String description() {
        return "H2 " + Constants.FULL_VERSION + " server (child JVM) at " + HOST + ":" + port;
    }

    @Override
    protected synchronized void killServer() {
        if (server != null) {
            server.send("checkpoint");
            server.awaitLine(START_TIMEOUT, "CHECKPOINTED");
            server.kill();
            server.close();
            server = null;
        }
    }

    @Override
    protected synchronized void launchServer() {
        ChildJvm child = ChildJvm.start(H2ServerMain.class, Integer.toString(port), dir.toString(), "tck");
        String line = child.awaitLine(START_TIMEOUT, "READY", "ERROR");
        if (!line.startsWith("READY")) {
            String err = child.stderrTail();
            child.close();
            throw new IllegalStateException("the H2 server on port " + port + " did not start: " + line + err);
        }
        server = child;
    }

    @Override
    protected void destroyServer() {
        killServer();
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // best effort: a temporary directory
        }
    }
}
