package org.lockspi.tck.redis;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;
import java.util.function.IntPredicate;
import org.lockspi.tck.support.Ports;
import org.lockspi.tck.support.ServerProcess;

/**
 * One {@code redis-server} child process (a data node or, with {@code --sentinel}, a sentinel) with a
 * configuration file and a directory of its own, for the topology backends and for tests that need a server
 * configured otherwise (TLS: {@link #start(Path, int, List)} with {@code tls-port} lines). {@link #kill()} sends
 * {@code SIGKILL}; {@link #start()} starts it again with the same file, port and directory.
 *
 * <p>Not thread-safe: the backend that owns it serialises its calls.
 */
public final class RedisProcess implements AutoCloseable {
    static final String HOST = "127.0.0.1";
    private static final Duration START_TIMEOUT = Duration.ofSeconds(20);

    private final int port;
    private final Path dir;
    private final ServerProcess server;

    /**
     * Writes the configuration ({@code port}, {@code bind}, {@code dir} and the given lines) and starts the server.
     *
     * @param executable the {@code redis-server} binary
     * @param dir        its own directory (created)
     * @param port       its port on 127.0.0.1
     * @param sentinel   whether it runs as a sentinel
     * @param lines      further configuration lines
     */
    RedisProcess(File executable, Path dir, int port, boolean sentinel, List<String> lines) {
        this.dir = dir;
        this.port = port;
        Path config = dir.resolve(sentinel ? "sentinel.conf" : "redis.conf");
        List<String> all = new ArrayList<>(List.of("port " + port, "bind " + HOST, "dir " + dir.toAbsolutePath(),
                "protected-mode no"));
        all.addAll(lines);
        try {
            Files.createDirectories(dir);
            Files.write(config, all);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + config, e);
        }
        List<String> command = new ArrayList<>(List.of(executable.getAbsolutePath(), config.toString()));
        if (sentinel) {
            command.add("--sentinel");
        }
        this.server = ServerProcess.command(command).directory(dir).log(dir.resolve("server.log"))
                .startTimeout(START_TIMEOUT).readyWhen(this::answers);
        start();
    }

    private boolean answers() {
        try (Resp redis = connect()) {
            redis.call("PING");
            return true;
        } catch (RuntimeException e) { // refused while it starts, or LOADING: ask again
            return false;
        }
    }

    /**
     * Starts a server on a free port of 127.0.0.1 (one the system just gave out), trying another port up to twice
     * if it was taken meanwhile by another process of this busy machine.
     *
     * @param executable the {@code redis-server} binary
     * @param root       the parent of its directory, which is named {@code <name>-<port>}
     * @param name       what it is, e.g. {@code data}
     * @param sentinel   whether it runs as a sentinel
     * @param usable     whether a port will do (a cluster node also needs port + 10000 free)
     * @param lines      its further configuration lines for a port
     * @return the running server
     * @throws IllegalStateException if it did not start on three ports
     */
    static RedisProcess onFreePort(File executable, Path root, String name, boolean sentinel, IntPredicate usable,
                                   IntFunction<List<String>> lines) {
        IllegalStateException last = null;
        for (int attempt = 0; attempt < 3; attempt++) {
            int port = Ports.freeLoopbackPort();
            while (!usable.test(port)) {
                port = Ports.freeLoopbackPort();
            }
            try {
                return new RedisProcess(executable, root.resolve(name + "-" + port), port, sentinel,
                        lines.apply(port));
            } catch (IllegalStateException e) {
                last = e; // most likely the port was taken meanwhile: try another
            }
        }
        throw last;
    }

    /**
     * Starts a data server with the executable of {@link EmbeddedRedisBackend} (same property, same default).
     *
     * @param dir   its directory, created if missing; the caller deletes it
     * @param port  its plain port on 127.0.0.1, which tells when it is up
     * @param lines further configuration lines, e.g. {@code tls-port 6380}
     * @return the running server; close it to kill it
     * @throws IllegalStateException if it does not start within 20 s; the message ends with its log
     */
    public static RedisProcess start(Path dir, int port, List<String> lines) {
        return new RedisProcess(RedisBinary.chosen().file(), dir, port, false, lines);
    }

    /** @return its plain port */
    public int port() {
        return port;
    }

    InetSocketAddress address() {
        return InetSocketAddress.createUnresolved(HOST, port);
    }

    /** Starts the process (again) and returns once it answers PING. */
    void start() {
        server.start();
    }

    /** @return the last lines of its log */
    public String log() {
        return ServerProcess.tail(dir.resolve("server.log"), 15);
    }

    /** @return a new connection to it, to be closed by the caller */
    Resp connect() {
        return Resp.connect(address());
    }

    /** Kills it with {@code SIGKILL} (no shutdown, no last write) and waits until it is gone. */
    public void kill() {
        server.kill();
    }

    boolean isAlive() {
        return server.isAlive();
    }

    @Override
    public void close() {
        kill();
    }
}
