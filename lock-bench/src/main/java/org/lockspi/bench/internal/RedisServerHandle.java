package org.lockspi.bench.internal;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.lockspi.tck.redis.RedisProcess;
import org.lockspi.tck.support.FileTrees;
import org.lockspi.tck.support.Ports;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.params.ScanParams;
import redis.clients.jedis.resps.ScanResult;

/**
 * The real redis-server that {@code embedded-redis} ships, started through the kit's {@link RedisProcess} (its own
 * directory and configuration file, SIGKILL on close) on a free loopback port, persistence off. The parent reads
 * the server's own counters through {@code INFO}.
 */
public final class RedisServerHandle implements AutoCloseable {
    private final RedisProcess server;
    private final Path dir;
    private final int port;
    private final Jedis stats;
    private final Thread hook;
    private final String version;

    private RedisServerHandle(RedisProcess server, Path dir) {
        this.server = server;
        this.dir = dir;
        this.port = server.port();
        this.stats = new Jedis("127.0.0.1", port);
        this.hook = new Thread(server::close, "redis-child-kill");
        Runtime.getRuntime().addShutdownHook(hook);
        String info = stats.info("server");
        String v = "?";
        for (String line : info.split("\r?\n")) {
            if (line.startsWith("redis_version:")) {
                v = line.substring("redis_version:".length()).trim();
            }
        }
        this.version = v;
    }

    public static RedisServerHandle start() throws IOException {
        Path dir = Files.createTempDirectory("lock-bench-redis");
        RedisProcess server = RedisProcess.start(dir, Ports.freeLoopbackPort(),
                List.of("save \"\"", "appendonly no", "maxclients 4000"));
        return new RedisServerHandle(server, dir);
    }

    public int port() {
        return port;
    }

    public String uri() {
        return "redis://127.0.0.1:" + port;
    }

    public String description() {
        return "redis-server " + version + " from embedded-redis (a separate process), loopback port " + port
                + ", persistence off (save \"\", appendonly no)";
    }

    /** @return the server's count of commands executed, from INFO commandstats, leaving out INFO itself */
    public synchronized long commands() {
        long total = 0;
        for (Map.Entry<String, Long> e : commandsByName().entrySet()) {
            if (!e.getKey().equals("info")) {
                total += e.getValue();
            }
        }
        return total;
    }

    /** @return the server's own commands per name, for diagnostics */
    public synchronized Map<String, Long> commandsByName() {
        Map<String, Long> byName = new java.util.TreeMap<>();
        for (String line : stats.info("commandstats").split("\r?\n")) {
            if (!line.startsWith("cmdstat_")) {
                continue;
            }
            String name = line.substring("cmdstat_".length(), line.indexOf(':'));
            int calls = line.indexOf("calls=");
            int end = line.indexOf(',', calls);
            byName.put(name, Long.parseLong(line.substring(calls + "calls=".length(), end)));
        }
        return byName;
    }

    /**
     * @param section an INFO section, e.g. {@code memory} or {@code clients}
     * @param field   a field of it, e.g. {@code used_memory} or {@code connected_clients}
     * @return its value
     */
    public synchronized long info(String section, String field) {
        for (String line : stats.info(section).split("\r?\n")) {
            if (line.startsWith(field + ":")) {
                return Long.parseLong(line.substring(field.length() + 1).trim());
            }
        }
        throw new IllegalStateException("no " + field + " in INFO " + section);
    }

    /** @return the keys in the database */
    public synchronized long keys() {
        return stats.dbSize();
    }

    /** @return the keys whose names match a glob pattern ({@code SCAN MATCH}, so the server is not blocked) */
    public synchronized long keysMatching(String pattern) {
        ScanParams params = new ScanParams().match(pattern).count(1_000);
        String cursor = ScanParams.SCAN_POINTER_START;
        long count = 0;
        do {
            ScanResult<String> page = stats.scan(cursor, params);
            count += page.getResult().size();
            cursor = page.getCursor();
        } while (!cursor.equals(ScanParams.SCAN_POINTER_START));
        return count;
    }

    @Override
    public void close() {
        stats.close();
        server.close();
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
            // the hook runs anyway
        }
        try {
            FileTrees.delete(dir);
        } catch (IOException ignored) {
            // a temp dir left behind is harmless
        }
    }
}
