package org.lockspi.bench.internal;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.util.concurrent.locks.Lock;

import org.lockspi.bench.jdbc.BenchDatabase;
import org.springframework.integration.jdbc.lock.DefaultLockRepository;
import org.springframework.integration.jdbc.lock.JdbcLockRegistry;

/**
 * The JDBC anchor: Spring Integration's {@code JdbcLockRegistry} used directly, one registry on a repository and a
 * HikariCP pool of its own per client, its region the scope. A lock is a local lock, then a row of
 * {@code INT_LOCK}; a waiter polls the table every 100 ms; rows are not renewed (they live 60 s here).
 */
final class SpringJdbcAnchor implements Variant {
    /** The most connections of one client's pool: the provider's default {@code poolSize}. */
    static final int POOL_SIZE = 8;

    private final BenchDatabase database;

    SpringJdbcAnchor(BenchDatabase database) {
        this.database = database;
    }

    @Override
    public String name() {
        return CurveReport.JDBC_ANCHOR;
    }

    @Override
    public Backend backend() {
        return Backend.JDBC;
    }

    @Override
    public Role role() {
        return Role.ANCHOR;
    }

    @Override
    public Client open(String scope) {
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(database.jdbcUrl());
        config.setUsername(database.user());
        config.setMaximumPoolSize(POOL_SIZE);
        config.setMinimumIdle(1);
        config.setPoolName("anchor-" + scope);
        HikariDataSource pool = new HikariDataSource(config);
        DefaultLockRepository repository;
        try {
            repository = BenchDatabase.lockRepository(pool, scope);
        } catch (RuntimeException e) {
            pool.close();
            throw e;
        }
        JdbcLockRegistry registry = new JdbcLockRegistry(repository);
        return new Client() {
            @Override
            public Locker locker(String lockName) {
                Lock lock = registry.obtain(lockName);
                return () -> {
                    lock.lockInterruptibly();
                    return lock::unlock;
                };
            }

            @Override
            public String zkLockPath(String lockName) {
                return null;
            }

            @Override
            public void close() {
                try {
                    repository.close();
                } finally {
                    pool.close();
                }
            }
        };
    }
}
