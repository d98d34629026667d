package org.lockspi.tck.redis;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.lockspi.tck.TckBackend;
import org.lockspi.tck.support.Ports;
import org.lockspi.tck.support.WireProtocol;
import redis.embedded.RedisServer;
import redis.embedded.core.ExecutableProvider;

/**
 * A real {@code redis-server} on a free port of 127.0.0.1, started as a child process: by default the Redis 6.2
 * binary that {@code com.github.codemonstur:embedded-redis} ships inside its jar; with the system property
 * {@value #EXECUTABLE_PROPERTY} set to a path, that executable, or to {@code PATH}, the {@code redis-server} found
 * on the {@code PATH}.
 *
 * <p>The server persists every write before it answers ({@code appendonly yes}, {@code appendfsync always}) in a
 * data directory of its own, so {@link #restart()} (stop, then start on the same port and directory) keeps every
 * key, the fencing counters included. {@link #close()} stops it and deletes the directory.
 *
 * <p><b>Key layout</b>: see {@link RedisInspector}, which {@link #residue(String)}, {@link #forceLoss(String)}
 * and {@link #command(String...)} use.
 *
 * <p>Capabilities: INSPECT, FORCE_LOSS, RESTART, OTHER_PROCESSES, PARTITION, RESTART_WITHOUT_DATA
 * ({@link #restartWithoutData(Duration)} deletes the append-only file while the server is down),
 * EMPTY_STATE_REMOVAL, ENDS_SILENT_SESSIONS, REQUEST_FAULTS ({@link RespWire}) and SESSIONS ({@code CLIENT LIST},
 * {@code CLIENT KILL}).
 */
public final class EmbeddedRedisBackend implements TckBackend {

    /** The system property naming another {@code redis-server} executable, or {@code PATH}: {@value}. */
    public static final String EXECUTABLE_PROPERTY = "lockspi.tck.redis.executable";

    private static final String HOST = "127.0.0.1";
    private static final WireProtocol WIRE = new RespWire();

    private final int port;
    private final Path dataDir;
    private final RedisServer server;
    private final String binary;
    private final String version;
    private final RedisInspector inspector;
    private boolean closed; // guarded by this

    private EmbeddedRedisBackend(int port, Path dataDir, RedisServer server, String binary) {
        this.port = port;
        this.dataDir = dataDir;
        this.server = server;
        this.binary = binary;
        this.inspector = new RedisInspector(HOST, port);
        this.version = inspector.info("redis_version");
    }

    /**
     * Starts a server with the executable chosen by {@value #EXECUTABLE_PROPERTY}, or the one in the
     * embedded-redis jar.
     *
     * @return the started backend; close it when done
     * @throws UncheckedIOException if the server cannot be started
     */
    public static EmbeddedRedisBackend start() {
        RedisBinary binary = RedisBinary.chosen();
        return start(binary.provider(), binary.description());
    }

    private static EmbeddedRedisBackend start(ExecutableProvider executable, String binary) {
        Path dataDir;
        try {
            dataDir = Files.createTempDirectory("lockspi-redis-");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a data directory for Redis", e);
        }
        IOException last = null;
        for (int attempt = 0; attempt < 3; attempt++) {
            int port = Ports.freeLoopbackPort();
            try {
                RedisServer server = RedisServer.newRedisServer()
                        .executableProvider(executable)
                        .bind(HOST)
                        .port(port)
                        .setting("dir " + dataDir.toAbsolutePath())
                        .setting("appendonly yes")
                        .setting("appendfsync always")
                        .setting("save \"\"")
                        .setting("protected-mode no")
                        .onShutdownForceStop(false)
                        .soutListener(line -> { })
                        .serrListener(line -> { })
                        .build();
                server.start();
                return new EmbeddedRedisBackend(port, dataDir, server, binary);
            } catch (IOException e) {
                last = e; // most likely the port was taken meanwhile: try another
            }
        }
        deleteTree(dataDir);
        throw new UncheckedIOException("cannot start redis-server from " + binary, last);
    }

    /** @return the port the server listens on */
    public int port() {
        return port;
    }

    @Override
    public String description() {
        return "Redis " + version + " (" + binary + ") at " + HOST + ":" + port;
    }

    @Override
    public String scheme() {
        return "redis";
    }

    @Override
    public String uri() {
        return "redis://" + HOST + ":" + port;
    }

    @Override
    public String unreachableUri() {
        return "redis://" + HOST + ":" + Ports.freeLoopbackPort();
    }

    @Override
    public Set<Capability> capabilities() {
        return EnumSet.of(Capability.INSPECT, Capability.FORCE_LOSS, Capability.RESTART,
                Capability.OTHER_PROCESSES, Capability.PARTITION, Capability.RESTART_WITHOUT_DATA,
                Capability.EMPTY_STATE_REMOVAL, Capability.ENDS_SILENT_SESSIONS, Capability.REQUEST_FAULTS,
                Capability.SESSIONS);
    }

    /** @return RESP, {@link RespWire} */
    @Override
    public WireProtocol wireProtocol() {
        return WIRE;
    }

    /** The client connections ({@code CLIENT LIST}), this backend's own left out. */
    @Override
    public List<Session> openSessions() {
        return inspector.sessions();
    }

    /** Closes the connection server-side ({@code CLIENT KILL ID}); its client's keys stay. */
    @Override
    public void endSession(Session session) {
        inspector.kill(session);
    }

    /**
     * @param lockName a lock name
     * @return the base key of the lock, {@code lockspi:{name}}
     */
    public static String baseKey(String lockName) {
        return RedisInspector.baseKey(lockName);
    }

    @Override
    public List<String> residue(String lockName) {
        return inspector.residue(lockName);
    }

    /** Deletes the lock's holder keys (not its fencing counter): every holder's next renewal finds them gone. */
    @Override
    public void forceLoss(String lockName) {
        inspector.forceLoss(lockName);
    }

    /** Deletes the lock's fencing counter, as its expiry does, once nobody holds or waits for the lock. */
    @Override
    public void removeEmptyState(String lockName) {
        inspector.removeEmptyState(lockName);
    }

    @Override
    public synchronized void restart() {
        if (closed) {
            throw new IllegalStateException("backend is closed: " + description());
        }
        try {
            server.stop();
            server.start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot restart " + description(), e);
        }
    }

    /**
     * Stops the server, deletes every file of its data directory, waits {@code downtime} and starts it again on
     * the same port.
     */
    @Override
    public synchronized void restartWithoutData(Duration downtime) {
        if (downtime.isNegative()) {
            throw new IllegalArgumentException("downtime < 0: " + downtime);
        }
        if (closed) {
            throw new IllegalStateException("backend is closed: " + description());
        }
        try {
            server.stop();
            try (Stream<Path> files = Files.walk(dataDir)) {
                for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
                    if (!file.equals(dataDir)) {
                        Files.delete(file);
                    }
                }
            }
            Thread.sleep(downtime.toMillis()); // the scenario: the server stays down this long
            server.start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot restart " + description() + " without its data", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while " + description() + " was down", e);
        }
    }

    /**
     * Stops the server, keeping its data, until {@link #startServer()}: clients see a connection failure.
     *
     * @throws UncheckedIOException if it cannot be stopped
     */
    @Override
    public synchronized void stopServer() {
        try {
            server.stop();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot stop " + description(), e);
        }
    }

    /**
     * Starts a server stopped by {@link #stopServer()} again on the same port with the same data.
     *
     * @throws UncheckedIOException if it cannot be started
     */
    @Override
    public synchronized void startServer() {
        if (closed) {
            throw new IllegalStateException("backend is closed: " + description());
        }
        try {
            server.start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + description(), e);
        }
    }

    /**
     * Runs one Redis command on a connection of its own, for tests that look behind a provider's back.
     *
     * @param command the command and its arguments, e.g. {@code "GET", "lockspi:{orders}"}
     * @return the reply as {@link RedisInspector#command(String...)} decodes it
     */
    public Object command(String... command) {
        return inspector.command(command);
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            server.stop();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot stop " + description(), e);
        } finally {
            deleteTree(dataDir);
        }
    }

    @Override
    public String toString() {
        return description();
    }

    private static void deleteTree(Path dir) {
        try (Stream<Path> paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // best effort: a temporary directory
        }
    }
}
