package org.lockspi.spring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.lockspi.LockService;
import org.lockspi.Locks;
import org.lockspi.tck.zookeeper.EmbeddedZooKeeperBackend;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * An application that defines its own {@link LockService}: the starter backs off (no second service, no metrics
 * binding of the application's service) and still contributes the template, the interception and the health.
 */
@DirtiesContext
@SpringBootTest(classes = BackOffTest.OwnService.class, properties = {
        "lockspi.locked.wait-for=250ms", "management.endpoints.jmx.exposure.include=health"})
class BackOffTest {
    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class OwnService {
        /** The server, a bean so that it stops after the service that depends on it closed. */
        @Bean(destroyMethod = "close")
        EmbeddedZooKeeperBackend zookeeper() {
            return EmbeddedZooKeeperBackend.start();
        }

        @Bean(destroyMethod = "close")
        LockService ownLockService(EmbeddedZooKeeperBackend zookeeper) {
            return Locks.open(zookeeper.uri() + "?sessionTimeout=4s", "zookeeper-raw");
        }
    }

    @DynamicPropertySource
    static void uri(DynamicPropertyRegistry registry) {
        registry.add("lockspi.uri", () -> "zookeeper://127.0.0.1:1/never-opened"); // ignored: the app has its own
    }

    @Autowired
    ConfigurableApplicationContext context;

    @Test
    void backsOffForTheApplicationsOwnService() throws Exception {
        assertEquals(1, context.getBeansOfType(LockService.class).size());
        LockService own = context.getBean("ownLockService", LockService.class);
        LockTemplate template = context.getBean(LockTemplate.class);
        assertSame(own, template.service(), "the template uses the application's service");
        assertEquals(Duration.ofMillis(250), template.defaultWait(), "lockspi.locked.wait-for");
        assertEquals("done", template.executeLocked("back-off", lease -> "done"));
        assertTrue(context.getBean(MeterRegistry.class).find("lockspi.acquire").timers().isEmpty(),
                "an application's own service is not bound to metrics by the starter");
        assertEquals("UP", SpringBootLine.health(context, "lockspi"));
    }

    @Test
    void propertiesAppendParametersAndHaveMetadata() {
        LockspiProperties properties = new LockspiProperties();
        properties.setUri("redis://localhost:6379/0");
        properties.setProvider("redis-baseline");
        properties.getParameters().put("connectTimeout", "2s"); // flat: every provider
        properties.getParameters().put("redis.leaseTime", "10s"); // by scheme
        properties.getParameters().put("redis-baseline.connectTimeout", "3s"); // by name: wins over the others
        properties.getParameters().put("zookeeper.sessionTimeout", "10s"); // another provider's
        assertEquals("redis://localhost:6379/0?connectTimeout=3s&leaseTime=10s", properties.effectiveUri());
        properties.setUri("zookeeper://h:2181/app?provider=zookeeper-raw");
        properties.setProvider(null);
        assertEquals("zookeeper://h:2181/app?provider=zookeeper-raw&connectTimeout=2s&sessionTimeout=10s",
                properties.effectiveUri());
        java.net.URL metadata = getClass().getResource("/META-INF/spring-configuration-metadata.json");
        assertNotNull(metadata, "the configuration processor wrote the IDE metadata");
        try (java.io.InputStream in = metadata.openStream()) {
            String json = new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
            for (String property : new String[] {"lockspi.uri", "lockspi.provider", "lockspi.parameters",
                    "lockspi.locked.wait-for", "lockspi.metrics.service-name", "lockspi.metrics.max-lock-names"}) {
                assertTrue(json.contains("\"" + property + "\""), property + " in " + json);
            }
            String compact = json.replaceAll("\\s+", "");
            for (org.lockspi.spi.LockProvider provider : Locks.providers()) { // those on this class path
                assertTrue(compact.contains("\"value\":\"" + provider.name() + "\""), provider.name() + " is a hint");
                for (String parameter : provider.parameters()) {
                    assertTrue(compact.contains("\"value\":\"" + parameter + "\""), parameter + " is a hint");
                }
            }
            for (String name : new String[] {"zookeeper-raw", "curator", "zkclient", "redis-baseline", "redis-fair",
                    "redis-lettuce", "redis-lettuce-fair", "jdbc", "inmemory"}) {
                assertTrue(compact.contains("\"value\":\"" + name + "\""), name + " is a hint");
            }
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        assertFalse(context.getBean(LockspiProperties.class).getMetrics().getMaxLockNames() < 0);
    }
}
