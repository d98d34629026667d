package org.lockspi.spring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.zaxxer.hikari.HikariDataSource;
import java.time.Duration;
import java.util.Map;
import javax.sql.DataSource;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.lockspi.LockService;
import org.lockspi.tck.jdbc.PostgresBackend;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The same two applications as {@link RedisNodesTest}, moved to a real PostgreSQL by configuration only: a
 * {@code spring.datasource.*} of their own and {@code lockspi.provider=jdbc} in place of {@code lockspi.uri}; the
 * locks then use the applications' own DataSource (HikariCP).
 */
class PostgresNodesTest extends TwoNodesTestBase {

    @BeforeAll
    static void startBackend() {
        backend = PostgresBackend.start();
    }

    @Override
    String parameters() {
        return "leaseTime=5s";
    }

    @Override
    Map<String, Object> lockProperties() {
        PostgresBackend db = (PostgresBackend) backend;
        return Map.of("spring.datasource.url", db.jdbcUrl() + "?socketTimeout=1&connectTimeout=1",
                "spring.datasource.username", db.user(),
                "spring.datasource.hikari.connection-timeout", "1000",
                "lockspi.provider", "jdbc",
                "lockspi.parameters.leaseTime", "5s",
                "lockspi.parameters.failFast", "1s"); // the engine's, passed with the provider's own
    }

    @Test
    void theLocksUseTheApplicationsOwnPool() throws InterruptedException {
        ConfigurableApplicationContext a = node("a", "none");
        LockService service = a.getBean(LockService.class);
        assertEquals("jdbc", service.providerName());
        HikariDataSource pool = (HikariDataSource) a.getBean(DataSource.class);
        try (var lease = service.mutex("pool-check").acquire(Duration.ofSeconds(5))) {
            assertTrue(pool.getHikariPoolMXBean().getTotalConnections() > 0, "the application's pool has connections");
            assertTrue(service.toString().contains("HikariDataSource"), service.toString());
        }
        a.close();
        assertTrue(pool.isClosed(), "the pool is the context's, closed with it");
    }
}
