package org.lockspi.bench.jdbc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import net.javacrumbs.shedlock.core.ClockProvider;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Lock;
import javax.sql.DataSource;
import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.SimpleLock;
import org.lockspi.Lease;
import org.lockspi.LockService;
import org.lockspi.jdbc.JdbcLockProvider;
import org.lockspi.jdbc.internal.JdbcBackend;
import org.lockspi.jdbc.internal.JdbcSettings;
import org.lockspi.jdbc.internal.Pools;
import org.lockspi.spi.AcquireRequest;
import org.lockspi.spi.BackendEvents;
import org.lockspi.spi.BackendLease;
import org.lockspi.spi.Deadline;
import org.lockspi.spi.LockBackend;
import org.lockspi.spi.LockKeys;
import org.lockspi.spi.LockKind;
import org.springframework.integration.jdbc.lock.DefaultLockRepository;
import org.springframework.integration.jdbc.lock.JdbcLockRegistry;

/** One way to lock in the database: the floor, the provider, or an anchor used directly. */
interface JdbcVariant {

    /** @return the name in the tables */
    String name();

    /** @return whether it has an acquisition that waits (ShedLock has none: a held lock is skipped) */
    boolean waits();

    /** @return one client on the DataSource */
    Client open(DataSource dataSource) throws Exception;

    /** One client (one LockService, one registry, ...). */
    interface Client extends AutoCloseable {
        /** Acquires, waiting as long as it takes (only if {@link #waits()}). */
        Held lock(String name) throws Exception;

        /** One attempt. */
        Optional<Held> tryLock(String name) throws Exception;

        @Override
        void close();
    }

    /** One acquisition, released by the thread that took it. */
    interface Held {
        void release() throws Exception;
    }

    /**
     * The floor: the fewest statements that take and free a lock's row in the provider's own table, in autocommit:
     * one insert (the primary key refuses a second holder), one delete by owner. No token, no lease renewal, no
     * queue, no waiting.
     */
    static JdbcVariant floor() {
        return floor(false);
    }

    /**
     * @param fenced whether the insert also draws a fencing token from the provider's sequence and returns it (the
     *               fenced floor: what a token costs the database, as the Redis bench's fenced floor shows it)
     */
    static JdbcVariant floor(boolean fenced) {
        String insert = fenced
                ? "INSERT INTO lockspi_lock (lock_id, lock_name, owner, token, expires_ms, entries) VALUES (?, ?, ?, "
                        + "nextval('lockspi_token'), (EXTRACT(EPOCH FROM CLOCK_TIMESTAMP()) * 1000)::BIGINT + 30000, 0) "
                        + "ON CONFLICT DO NOTHING RETURNING token"
                : "INSERT INTO lockspi_lock (lock_id, lock_name, owner, expires_ms, entries) VALUES (?, ?, ?, "
                        + "(EXTRACT(EPOCH FROM CLOCK_TIMESTAMP()) * 1000)::BIGINT + 30000, 0) ON CONFLICT DO NOTHING";
        return new JdbcVariant() {
            @Override
            public String name() {
                return fenced ? "JDBC fenced floor (insert with a token + delete)" : "JDBC floor (insert + delete)";
            }

            @Override
            public boolean waits() {
                return false;
            }

            @Override
            public Client open(DataSource dataSource) {
                String client = UUID.randomUUID().toString();
                AtomicLong n = new AtomicLong();
                return new Client() {
                    @Override
                    public Held lock(String name) {
                        throw new UnsupportedOperationException("the floor does not wait");
                    }

                    @Override
                    public Optional<Held> tryLock(String name) throws SQLException {
                        String id = (fenced ? "fenced-floor-" : "floor-") + name;
                        String owner = client + ":" + n.incrementAndGet();
                        try (Connection c = dataSource.getConnection();
                             PreparedStatement s = c.prepareStatement(insert)) {
                            s.setString(1, id);
                            s.setString(2, id);
                            s.setString(3, owner);
                            if (fenced) {
                                try (java.sql.ResultSet r = s.executeQuery()) {
                                    if (!r.next()) {
                                        return Optional.empty();
                                    }
                                }
                            } else if (s.executeUpdate() == 0) {
                                return Optional.empty();
                            }
                        }
                        return Optional.of(() -> {
                            try (Connection c = dataSource.getConnection();
                                 PreparedStatement s = c.prepareStatement("DELETE FROM lockspi_lock WHERE lock_id = ? "
                                         + "AND owner = ?")) {
                                s.setString(1, id);
                                s.setString(2, owner);
                                s.executeUpdate();
                            }
                        });
                    }

                    @Override
                    public void close() {
                    }
                };
            }
        };
    }

    /**
     * A PostgreSQL session advisory lock, the other way to lock in PostgreSQL: {@code pg_try_advisory_lock} and
     * {@code pg_advisory_unlock} on one connection the client keeps (the lock belongs to the session). No token, no
     * lease: it ends with the session, and with the server.
     */
    static JdbcVariant advisory() {
        return new JdbcVariant() {
            @Override
            public String name() {
                return "PostgreSQL advisory lock (session)";
            }

            @Override
            public boolean waits() {
                return false;
            }

            @Override
            public Client open(DataSource dataSource) throws SQLException {
                Connection session = dataSource.getConnection();
                return new Client() {
                    @Override
                    public Held lock(String name) {
                        throw new UnsupportedOperationException("measured for the uncontended cycle only");
                    }

                    @Override
                    public Optional<Held> tryLock(String name) throws SQLException {
                        try (PreparedStatement s = session.prepareStatement("SELECT pg_try_advisory_lock(hashtext(?))")) {
                            s.setString(1, name);
                            try (java.sql.ResultSet r = s.executeQuery()) {
                                if (!r.next() || !r.getBoolean(1)) {
                                    return Optional.empty();
                                }
                            }
                        }
                        return Optional.of(() -> {
                            try (PreparedStatement s = session.prepareStatement(
                                    "SELECT pg_advisory_unlock(hashtext(?))")) {
                                s.setString(1, name);
                                s.executeQuery().close();
                            }
                        });
                    }

                    @Override
                    public void close() {
                        try {
                            session.close();
                        } catch (SQLException e) {
                            // the bench is over
                        }
                    }
                };
            }
        };
    }

    /** The provider, {@code jdbc}, on the DataSource ({@code JdbcLockProvider.open(dataSource, parameters)}). */
    static JdbcVariant provider(String label, String parameters) {
        return of(label, true, dataSource -> {
            LockService locks = JdbcLockProvider.open(dataSource, parameters);
            return new Client() {
                @Override
                public Held lock(String name) throws InterruptedException {
                    Lease lease = locks.mutex(name).acquire();
                    return lease::release;
                }

                @Override
                public Optional<Held> tryLock(String name) {
                    return locks.mutex(name).tryAcquire().map(lease -> lease::release);
                }

                @Override
                public void close() {
                    locks.close();
                }
            };
        });
    }

    /** Opens a client of a variant on the DataSource. */
    @FunctionalInterface
    interface Opener {
        Client open(DataSource dataSource) throws Exception;
    }

    /** A client measured for the uncontended cycle only: it has no waiting acquisition and nothing to close. */
    abstract class AttemptsOnly implements Client {
        @Override
        public Held lock(String name) {
            throw new UnsupportedOperationException("measured for the uncontended cycle only");
        }

        @Override
        public void close() {
        }
    }

    /** @return a variant of that name, with or without a waiting acquisition, whose clients the opener opens */
    static JdbcVariant of(String label, boolean waits, Opener opener) {
        return new JdbcVariant() {
            @Override
            public String name() {
                return label;
            }

            @Override
            public boolean waits() {
                return waits;
            }

            @Override
            public Client open(DataSource dataSource) throws Exception {
                return opener.open(dataSource);
            }
        };
    }

    /**
     * The provider's backend through the SPI alone, without the engine, built as {@code JdbcLockProvider.open(
     * dataSource, "")} builds it (the bench reaches into the provider's internal package for it): the provider's
     * statements and its own code around them, the engine's cost left out.
     */
    static JdbcVariant backend(String label) {
        return of(label, false, dataSource -> {
            String source = "DataSource " + dataSource.getClass().getName();
            JdbcSettings settings = JdbcSettings.forDataSource("", () -> {
                try (Connection c = dataSource.getConnection()) {
                    return c.getMetaData().getDatabaseProductName();
                } catch (SQLException e) {
                    throw new IllegalStateException(e);
                }
            }, source);
            LockBackend backend = JdbcBackend.open(settings, Pools.forDataSource(dataSource), new BackendEvents() {
                @Override
                public void connectionSuspended() {
                }

                @Override
                public void connectionRestored() {
                }

                @Override
                public void leaseLost(BackendLease lease) {
                }
            });
            return new AttemptsOnly() {
                @Override
                public Optional<Held> tryLock(String name) throws InterruptedException {
                    BackendLease lease = backend.acquire(AcquireRequest.exclusive(LockKind.MUTEX, LockKeys.key(name)),
                            Deadline.after(Duration.ZERO));
                    return lease == null ? Optional.empty() : Optional.of(lease::release);
                }

                @Override
                public void close() {
                    backend.close();
                }
            };
        });
    }

    /**
     * Statements recorded from another variant's cycle, sent again by hand with the same values on the same pool:
     * the provider's two statements without the provider's code around them.
     *
     * @param acquire the statements of an acquisition, as {@link CountingDataSource#recorded()} gave them
     * @param release those of its release
     */
    static JdbcVariant replay(String label, List<CountingDataSource.Recorded> acquire,
                              List<CountingDataSource.Recorded> release) {
        return of(label, false, dataSource -> new AttemptsOnly() {
            @Override
            public Optional<Held> tryLock(String name) throws SQLException {
                send(acquire);
                return Optional.of(() -> send(release));
            }

            private void send(List<CountingDataSource.Recorded> statements) throws SQLException {
                for (CountingDataSource.Recorded statement : statements) {
                    try (Connection c = dataSource.getConnection()) {
                        statement.replay(c);
                    }
                }
            }
        });
    }

    /** ShedLock's plain JDBC provider: a row per name, lock_until by the client's clock; a held lock is skipped. */
    static JdbcVariant shedLock() {
        return new JdbcVariant() {
            @Override
            public String name() {
                return "ShedLock JdbcLockProvider";
            }

            @Override
            public boolean waits() {
                return false;
            }

            @Override
            public Client open(DataSource dataSource) {
                net.javacrumbs.shedlock.provider.jdbc.JdbcLockProvider shed =
                        new net.javacrumbs.shedlock.provider.jdbc.JdbcLockProvider(dataSource);
                return new Client() {
                    @Override
                    public Held lock(String name) {
                        throw new UnsupportedOperationException("ShedLock does not wait");
                    }

                    @Override
                    public Optional<Held> tryLock(String name) {
                        Optional<SimpleLock> lock = shed.lock(new LockConfiguration(ClockProvider.now(), name,
                                Duration.ofSeconds(30), Duration.ZERO));
                        return lock.map(l -> l::unlock);
                    }

                    @Override
                    public void close() {
                    }
                };
            }
        };
    }

    /**
     * Spring Integration's JdbcLockRegistry: a local lock, then a row in INT_LOCK; waiters poll every 100 ms. Its rows
     * live 10 s by default and are not renewed while held; the bench gives them 60 s, longer than any hold here.
     */
    static JdbcVariant lockRegistry() {
        return new JdbcVariant() {
            @Override
            public String name() {
                return "Spring Integration JdbcLockRegistry";
            }

            @Override
            public boolean waits() {
                return true;
            }

            @Override
            public Client open(DataSource dataSource) {
                DefaultLockRepository repository = BenchDatabase.lockRepository(dataSource, "DEFAULT");
                JdbcLockRegistry registry = new JdbcLockRegistry(repository);
                return new Client() {
                    @Override
                    public Held lock(String name) {
                        Lock lock = registry.obtain(name);
                        lock.lock();
                        return lock::unlock;
                    }

                    @Override
                    public Optional<Held> tryLock(String name) {
                        Lock lock = registry.obtain(name);
                        return lock.tryLock() ? Optional.of(lock::unlock) : Optional.empty();
                    }

                    @Override
                    public void close() {
                        repository.close();
                    }
                };
            }
        };
    }
}
