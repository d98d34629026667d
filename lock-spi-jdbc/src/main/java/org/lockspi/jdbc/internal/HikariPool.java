package org.lockspi.jdbc.internal;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import javax.sql.DataSource;

/** The HikariCP pool of the URI form; loaded only when HikariCP is on the class path. */
final class HikariPool {
    private static final AtomicInteger POOLS = new AtomicInteger();

    private HikariPool() {
    }

    static Connections open(JdbcSettings settings) {
        HikariConfig config = new HikariConfig();
        java.util.Properties direct = new java.util.Properties();
        settings.driverProperties().forEach(direct::setProperty);
        DirectDataSource driver = new DirectDataSource(settings.jdbcUrl(), direct);
        config.setDataSource(driver);
        config.setPoolName("lockspi-jdbc-" + POOLS.incrementAndGet());
        config.setMaximumPoolSize(settings.poolSize());
        config.setMinimumIdle(1);
        config.setConnectionTimeout(settings.connectTimeout().toMillis());
        config.setValidationTimeout(Math.max(250, Math.min(settings.socketTimeout().toMillis(),
                settings.connectTimeout().toMillis())));
        config.setInitializationFailTimeout(-1); // the backend's own first call reports an unreachable server
        config.setAutoCommit(true);
        HikariDataSource pool = new HikariDataSource(config);
        Connections connections = new Connections(pool, evictor(pool), pool, driver::getConnection);
        driver.reportTo(connections);
        return connections;
    }

    static Consumer<Connection> evictor(DataSource dataSource) {
        HikariDataSource pool = (HikariDataSource) dataSource;
        return pool::evictConnection;
    }
}
