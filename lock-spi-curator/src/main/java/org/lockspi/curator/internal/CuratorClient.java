package org.lockspi.curator.internal;

import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.imps.CuratorFrameworkState;
import org.apache.zookeeper.KeeperException;
import org.lockspi.LockConnectionException;
import org.lockspi.zookeeper.recipe.ZkConnectFailures;
import org.lockspi.zookeeper.recipe.ZkSettings;
import org.lockspi.zookeeper.recipe.internal.BoundedClose;

/**
 * The Curator client a backend runs on, with the timing the backend keeps by it: either one built from a URI, which
 * the backend owns (with the thread that runs Curator's watcher wake-ups) and closes, never waiting past the release
 * bound; or an application's started client, which it never closes. Answers what the backend asks of the connection:
 * connected or not, the session id, the negotiated session timeout.
 */
final class CuratorClient {
    private static final AtomicInteger CLIENTS = new AtomicInteger();

    final CuratorFramework framework;
    /** The client's notify thread, for a client of our own; null on an application's client. */
    private final ExecutorService notifier;
    /** Where the locks live, for messages; never a password. */
    final String description;
    /** The session timeout asked for (an application's client: the negotiated one). */
    final Duration sessionTimeout;
    /** How old the last confirmed contact may be before a lease reads UNCERTAIN. */
    final Duration uncertainAfter;
    /** How long release() and close() wait for the server during an outage. */
    final Duration releaseBound;

    private CuratorClient(CuratorFramework framework, ExecutorService notifier, String description,
                          Duration sessionTimeout, Duration uncertainAfter, Duration releaseBound) {
        this.framework = framework;
        this.notifier = notifier;
        this.description = description;
        this.sessionTimeout = sessionTimeout;
        this.uncertainAfter = uncertainAfter;
        this.releaseBound = releaseBound;
    }

    /**
     * Starts a client for the settings and waits for its first connection.
     *
     * @return the connected client, owned by the caller
     * @throws LockConnectionException if no server answers within the connect timeout, or the thread is
     *                                 interrupted (its interrupt flag set again); the client is closed then
     */
    static CuratorClient start(Settings settings) {
        String hosts = settings.uri.hostList();
        ZkConnectFailures.resolve(hosts);
        int id = CLIENTS.incrementAndGet();
        // ZooKeeper's event thread may deliver a last watch after close: drop its wake-up quietly then
        ExecutorService notifier = new ThreadPoolExecutor(1, 1, 0, TimeUnit.MILLISECONDS, new LinkedBlockingQueue<>(),
                r -> {
                    Thread t = new Thread(r, "lockspi-curator-notify-" + id);
                    t.setDaemon(true);
                    return t;
                }, new ThreadPoolExecutor.DiscardPolicy());
        CuratorFramework framework;
        try {
            framework = settings.newClient(notifier);
        } catch (RuntimeException e) {
            notifier.shutdownNow();
            throw e;
        }
        CuratorClient client = new CuratorClient(framework, notifier, settings.uri.toString(),
                settings.sessionTimeout, settings.uncertainAfter, settings.releaseBound());
        try {
            framework.start();
            if (!framework.blockUntilConnected((int) settings.connectTimeout.toMillis(), TimeUnit.MILLISECONDS)) {
                throw ZkConnectFailures.unreachable(hosts, settings.connectTimeout, null);
            }
            return client;
        } catch (InterruptedException e) {
            throw client.failedToOpen(ZkConnectFailures.interrupted(hosts, e), hosts);
        } catch (RuntimeException e) {
            throw client.failedToOpen(e, hosts);
        }
    }

    /**
     * Closes a client of our own whose backend could not be opened, quietly.
     *
     * @param e     the failure
     * @param hosts the connect string, for the message
     * @return it, as a {@link LockConnectionException} unless it is one or an {@link IllegalArgumentException}
     */
    RuntimeException failedToOpen(RuntimeException e, String hosts) {
        try {
            framework.close();
        } catch (RuntimeException suppressed) {
            e.addSuppressed(suppressed);
        } finally {
            notifier.shutdownNow();
        }
        return e instanceof LockConnectionException || e instanceof IllegalArgumentException ? e
                : new LockConnectionException("cannot connect to ZooKeeper at " + hosts + ": " + e, e);
    }

    /**
     * An application's started client, waited for until connected (at most its connection timeout).
     *
     * @param basePath the lock names' base path within the client's namespace, for messages
     * @throws IllegalArgumentException if the client is not started
     * @throws LockConnectionException  if it does not connect in time, or the thread is interrupted
     */
    static CuratorClient of(CuratorFramework framework, String basePath) {
        if (framework.getState() != CuratorFrameworkState.STARTED) {
            throw new IllegalArgumentException("the Curator client is not started: " + framework.getState());
        }
        String description = describe(framework, basePath);
        int wait = framework.getZookeeperClient().getConnectionTimeoutMs();
        try {
            if (!framework.blockUntilConnected(wait, TimeUnit.MILLISECONDS)) {
                throw new LockConnectionException("the Curator client did not connect within " + wait + " ms: "
                        + description);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new LockConnectionException("interrupted while waiting for the Curator client: " + description, e);
        }
        Duration session = Duration.ofMillis(framework.getZookeeperClient().getConnectionTimeoutMs());
        try {
            session = Duration.ofMillis(framework.getZookeeperClient().getZooKeeper().getSessionTimeout());
        } catch (Exception e) {
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
        }
        return new CuratorClient(framework, null, description, session, session.dividedBy(2),
                ZkSettings.releaseBound(Duration.ofMillis(wait), session));
    }

    /**
     * @param framework a client
     * @param basePath  a base path within its namespace
     * @return where its locks live, for messages
     */
    static String describe(CuratorFramework framework, String basePath) {
        String namespace = framework.getNamespace();
        String root = namespace == null || namespace.isEmpty() ? "" : "/" + namespace;
        return "zookeeper://" + framework.getZookeeperClient().getCurrentConnectionString() + root
                + (basePath.equals("/") ? "" : basePath) + " (application's Curator client)";
    }

    /** @return whether the backend built this client (and so closes it) */
    boolean owned() {
        return notifier != null;
    }

    /** @return the servers' address now, for messages */
    String address() {
        return framework.getZookeeperClient().getCurrentConnectionString();
    }

    boolean isConnected() {
        return framework.getZookeeperClient().isConnected();
    }

    /** @return the current session's id; 0 while not connected or not known */
    long sessionId() {
        try {
            return isConnected() ? framework.getZookeeperClient().getZooKeeper().getSessionId() : 0;
        } catch (Exception e) {
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            return 0;
        }
    }

    /** @return the session timeout the server granted, in milliseconds; -1 if not known */
    int negotiatedSessionTimeout() {
        try {
            return framework.getZookeeperClient().getZooKeeper().getSessionTimeout();
        } catch (Exception e) {
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            return -1;
        }
    }

    /**
     * @param what what failed, for the message
     * @param e    the client's failure
     * @return it as a {@link LockConnectionException} naming this client's locks
     */
    LockConnectionException failure(String what, Exception e) {
        if (e instanceof LockConnectionException) {
            return (LockConnectionException) e;
        }
        String detail = e instanceof KeeperException ? ((KeeperException) e).code().toString() : e.toString();
        return new LockConnectionException(what + " on " + description + ": " + detail, e);
    }

    /** Ends the session of a client of our own (the server deletes every node of ours), never past the bound. */
    void close() {
        BoundedClose.run(address(), () -> {
            try {
                framework.close();
            } finally {
                notifier.shutdownNow();
            }
        }, releaseBound);
    }
}
