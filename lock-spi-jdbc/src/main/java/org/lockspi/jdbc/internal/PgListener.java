package org.lockspi.jdbc.internal;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * PostgreSQL's wake-ups: one connection per backend that {@code LISTEN}s on the channel of each lock this backend's
 * acquisitions wait for ({@code lockspi_<lock id>}), and a thread that reads the messages ({@code NOTIFY}, sent by
 * releases with their commit) and wakes those waiters. After each {@code LISTEN} the lock's waiters are woken once
 * to try again, since a release may have come between their last attempt and the {@code LISTEN}; after a lost
 * connection all of them are, since messages may have been lost with it.
 *
 * <p>Once the backend holds a revocable lease, the connection also listens on {@link #REVOCATIONS}, where a
 * revocation request names the token of the lease it asks to end; the keeper then checks its rows at once. After
 * that {@code LISTEN}, and after each reconnection, the keeper checks anyway (a request may have come meanwhile).
 *
 * <p>The messages are read with pgjdbc's {@code PGConnection.getNotifications(int)}, found by reflection so that
 * the provider needs no driver at compile time; with another driver the listener stops and waiters poll.
 */
final class PgListener implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(PgListener.class.getName());
    private static final String PREFIX = "lockspi_";
    /** The channel of revocation requests, for every client (the payload is the token): {@value}. */
    static final String REVOCATIONS = PREFIX + "revoke";
    /** How long one read for messages waits, and so how late a new LISTEN or close() is noticed. */
    private static final int READ_MILLIS = 50;

    private final Connections connections;
    private final String address;
    private final long retryMaxMillis;
    /** LISTEN (true) and UNLISTEN (false) requests, in order. */
    private final ConcurrentLinkedQueue<Object[]> requests = new ConcurrentLinkedQueue<>();
    private volatile boolean closed;
    /** Told of revocation requests once the backend holds a revocable lease; null before. */
    private volatile LeaseKeeper keeper;
    private Thread thread;
    private Wakeups wakeups;

    PgListener(Connections connections, String address, long retryMaxMillis) {
        this.connections = connections;
        this.address = address;
        this.retryMaxMillis = retryMaxMillis;
    }

    /** @return the channel of a lock's releases */
    static String channel(String lockId) {
        return PREFIX + lockId;
    }

    void start(Wakeups target) {
        this.wakeups = target;
        thread = new Thread(this::run, "lockspi-jdbc-listener-" + address);
        thread.setDaemon(true);
        thread.start();
    }

    void listen(String lockId) {
        requests.add(new Object[] {Boolean.TRUE, lockId});
    }

    void unlisten(String lockId) {
        requests.add(new Object[] {Boolean.FALSE, lockId});
    }

    /** Listens for revocation requests from now on, and tells the keeper of them. Idempotent. */
    void watchRevocations(LeaseKeeper target) {
        keeper = target;
    }

    private void run() {
        Connection c = null;
        Object pg = null;
        Method read = null;
        Method nameOf = null;
        Method payloadOf = null;
        Set<String> listening = new HashSet<>();
        boolean revocations = false; // whether this connection listens for them
        long backoff = 10;
        while (!closed) {
            try {
                if (c == null) {
                    c = connections.dedicated();
                    Class<?> api = driverClass(c, "org.postgresql.PGConnection");
                    pg = c.unwrap(api);
                    read = api.getMethod("getNotifications", int.class);
                    Class<?> notification = driverClass(c, "org.postgresql.PGNotification");
                    nameOf = notification.getMethod("getName");
                    payloadOf = notification.getMethod("getParameter");
                    listening.clear();
                    revocations = false;
                    for (String lockId : wakeups.waitedFor()) {
                        execute(c, "LISTEN \"" + channel(lockId) + "\"");
                        listening.add(lockId);
                    }
                    wakeups.wakeAll(); // messages sent while there was no connection are lost: everyone looks
                    backoff = 10;
                }
                for (Object[] r; (r = requests.poll()) != null; ) {
                    String lockId = (String) r[1];
                    if ((Boolean) r[0]) {
                        if (listening.add(lockId)) {
                            execute(c, "LISTEN \"" + channel(lockId) + "\"");
                        }
                        wakeups.wake(lockId); // a release before the LISTEN took effect is not missed
                    } else if (listening.remove(lockId)) {
                        execute(c, "UNLISTEN \"" + channel(lockId) + "\"");
                    }
                }
                LeaseKeeper told = keeper;
                if (told != null && !revocations) {
                    execute(c, "LISTEN \"" + REVOCATIONS + "\"");
                    revocations = true;
                    told.revocationCheck(); // a request before the LISTEN took effect is not missed
                }
                Object[] messages = (Object[]) read.invoke(pg, READ_MILLIS);
                if (messages != null) {
                    for (Object m : messages) {
                        String name = (String) nameOf.invoke(m);
                        if (name.equals(REVOCATIONS)) {
                            revocationNotice(told, (String) payloadOf.invoke(m));
                        } else if (name.startsWith(PREFIX)) {
                            // the payload names the waiters the release grants; the others sleep on
                            String ids = (String) payloadOf.invoke(m);
                            wakeups.wake(name.substring(PREFIX.length()), ids == null ? "" : ids);
                        }
                    }
                }
            } catch (ClassNotFoundException | NoSuchMethodException | IllegalAccessException e) {
                LOG.log(System.Logger.Level.WARNING, "no pgjdbc PGConnection on " + address + " (" + e + "): "
                        + "waiters poll without wake-ups");
                close(c);
                return;
            } catch (SQLException | InvocationTargetException | RuntimeException e) {
                if (closed) {
                    break;
                }
                LOG.log(System.Logger.Level.DEBUG, () -> "the listening connection to " + address + " failed", e);
                connections.closeDedicated(c, true);
                c = null;
                wakeups.wakeAll();
                try {
                    Thread.sleep(backoff); // the server is down or unreachable: ask again after a pause
                } catch (InterruptedException interrupted) {
                    break;
                }
                backoff = Math.min(backoff * 2, retryMaxMillis);
            }
        }
        close(c);
    }

    private void revocationNotice(LeaseKeeper told, String payload) {
        try {
            told.revocationNotice(Long.parseLong(payload));
        } catch (NumberFormatException e) {
            LOG.log(System.Logger.Level.DEBUG, () -> "a notice on " + REVOCATIONS + " at " + address + " without a "
                    + "token: '" + payload + "'");
        }
    }

    private static Class<?> driverClass(Connection c, String name) throws ClassNotFoundException {
        ClassLoader[] loaders = {Thread.currentThread().getContextClassLoader(), c.getClass().getClassLoader(),
                PgListener.class.getClassLoader()};
        for (ClassLoader loader : loaders) {
            if (loader == null) {
                continue;
            }
            try {
                return Class.forName(name, false, loader);
            } catch (ClassNotFoundException e) {
                // try the next
            }
        }
        throw new ClassNotFoundException(name);
    }

    private static void execute(Connection c, String statement) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute(statement);
        }
    }

    /** Gives the listening connection back without its LISTENs (a pool would hand them to someone else). */
    private void close(Connection c) {
        if (c == null) {
            return;
        }
        try {
            execute(c, "UNLISTEN *");
            connections.closeDedicated(c, false);
        } catch (SQLException e) {
            connections.closeDedicated(c, true);
        }
    }

    /** Stops the thread (within one read) and closes the connection. Idempotent. */
    @Override
    public void close() {
        closed = true;
        Thread t = thread;
        if (t != null && t != Thread.currentThread()) {
            t.interrupt();
            try {
                t.join(3000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
