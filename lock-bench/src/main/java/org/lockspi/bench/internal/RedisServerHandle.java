package org.lockspi.bench.internal;

import java.io.IOException;
import java.util.Map;

import redis.clients.jedis.Jedis;
import redis.embedded.RedisServer;

/**
 * The real redis-server shipped in {@code embedded-redis}, on a free loopback port, persistence off. The
 * parent reads the server's own counters through {@code INFO}.
 */
public final class RedisServerHandle implements AutoCloseable {
    private final RedisServer server;
    private final int port;
    private final Jedis stats;
    private final Thread hook;
    private final String version;

    private RedisServerHandle(RedisServer server, int port) {
        this.server = server;
        this.port = port;
        this.stats = new Jedis("127.0.0.1", port);
        this.hook = new Thread(this::stopQuietly, "redis-child-kill");
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
        int port = Ports.free();
        RedisServer server = RedisServer.newRedisServer()
                .port(port)
                .bind("127.0.0.1")
                .setting("save \"\"")
                .setting("appendonly no")
                .setting("maxclients 4000")
                .build();
        server.start();
        return new RedisServerHandle(server, port);
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
        for (String line : stats.info("commandstats").split("\r?\n")) {
            if (!line.startsWith("cmdstat_") || line.startsWith("cmdstat_info:")) {
                continue;
            }
            int calls = line.indexOf("calls=");
            int end = line.indexOf(',', calls);
            total += Long.parseLong(line.substring(calls + "calls=".length(), end));
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

    private void stopQuietly() {
        try {
            server.stop();
        } catch (IOException ignored) {
            // the process is gone or going
        }
    }

    @Override
    public void close() {
        stats.close();
        stopQuietly();
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
            // the hook runs anyway
        }
    }

}
