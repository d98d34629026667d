package org.lockspi.spring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.junit.jupiter.api.Test;
import org.lockspi.Lease;
import org.lockspi.LockService;
import org.lockspi.Locks;
import org.lockspi.inmemory.InMemoryLocks;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The {@code locks} endpoint of an application on the in-memory provider, called through Actuator's JMX exposure
 * (the operations, their parameters and the selector as Actuator maps them): absent until exposed; lists by prefix
 * and shows one lock's holder, whether the application or another client holds it.
 */
class LocksEndpointTest {
    private static final AtomicInteger DOMAINS = new AtomicInteger();
    private final MBeanServer server = ManagementFactory.getPlatformMBeanServer();

    private static ConfigurableApplicationContext node(String space, String domain, String exposed,
                                                       String... more) {
        return new SpringApplicationBuilder(NodeApp.class).web(WebApplicationType.NONE)
                .properties("lockspi.uri=" + space, "test.node=a", "test.job=none", "spring.main.banner-mode=off",
                        "spring.jmx.enabled=true", "management.endpoints.jmx.domain=" + domain,
                        "management.endpoints.jmx.exposure.include=" + exposed)
                .properties(more)
                .run();
    }

    @Test
    @SuppressWarnings("unchecked")
    void listsByPrefixAndInspectsOneLockOnceExposed() throws Exception {
        String space = InMemoryLocks.newSpace();
        String domain = "lockspi-test-" + DOMAINS.incrementAndGet();
        ObjectName name = new ObjectName(domain + ":type=Endpoint,name=Locks");
        try (ConfigurableApplicationContext node = node(space, domain, "health,locks");
             LockService other = Locks.open(space)) {
            LockService own = node.getBean(LockService.class);
            try (Lease mine = own.mutex("jobs/nightly").acquire(Duration.ofSeconds(5));
                 Lease theirs = other.mutex("orders/42").acquire(Duration.ofSeconds(5))) {
                Map<String, Object> all = (Map<String, Object>) server.invoke(name, "locks",
                        new Object[] {null}, new String[] {String.class.getName()});
                assertEquals("inmemory", all.get("provider"));
                assertEquals(List.of("jobs/nightly", "orders/42"), all.get("names"));
                Map<String, Object> jobs = (Map<String, Object>) server.invoke(name, "locks",
                        new Object[] {"jobs/"}, new String[] {String.class.getName()});
                assertEquals(List.of("jobs/nightly"), jobs.get("names"));

                Map<String, Object> order = (Map<String, Object>) server.invoke(name, "lock",
                        new Object[] {new String[] {"orders", "42"}}, new String[] {String[].class.getName()});
                assertEquals("orders/42", order.get("name"));
                assertEquals("MUTEX", order.get("kind"));
                List<Map<String, Object>> holders = (List<Map<String, Object>>) order.get("holders");
                assertEquals(1, holders.size(), order.toString());
                assertEquals(false, holders.get(0).get("own"), "another client holds it");
                assertEquals(theirs.fencingToken(), ((Number) holders.get(0).get("fencingToken")).longValue());

                Map<String, Object> job = (Map<String, Object>) server.invoke(name, "lock",
                        new Object[] {new String[] {"jobs", "nightly"}}, new String[] {String[].class.getName()});
                assertEquals(true, ((List<Map<String, Object>>) job.get("holders")).get(0).get("own"),
                        "the application holds it");
                assertEquals(0, job.get("waiters"));
            }
            LocksEndpoint endpoint = node.getBean(LocksEndpoint.class);
            assertEquals("NONE", endpoint.lock(new String[] {"orders", "42"}).kind(), "released: no state left");
            assertTrue(endpoint.locks(null).names().isEmpty());
            assertInstanceOf(org.springframework.boot.actuate.endpoint.InvalidEndpointRequestException.class,
                    assertThrows(RuntimeException.class, () -> endpoint.lock(new String[] {""})),
                    "a malformed name is a bad request");
        }
    }

    @Test
    @SuppressWarnings("unchecked")
    void revokesAHolderThatOptedInOnlyWhereSwitchedOn() throws Exception {
        String space = InMemoryLocks.newSpace();
        String domain = "lockspi-test-" + DOMAINS.incrementAndGet();
        ObjectName name = new ObjectName(domain + ":type=Endpoint,name=Locks");
        String[] signature = {String[].class.getName(), long.class.getName(), java.security.Principal.class.getName()};
        try (ConfigurableApplicationContext node = node(space, domain, "locks", "lockspi.endpoint.revoke-enabled=true");
             LockService holder = Locks.open(space + "?revocable=true");
             LockService plain = Locks.open(space)) {
            Lease lease = holder.mutex("jobs/stuck").acquire(Duration.ofSeconds(5));
            Map<String, Object> done = (Map<String, Object>) server.invoke(name, "revoke",
                    new Object[] {new String[] {"jobs", "stuck"}, lease.fencingToken(), null}, signature);
            assertEquals("revoked", done.get("outcome"), done.toString());
            assertEquals("an unauthenticated caller via the locks endpoint", done.get("requestedBy"));
            assertEquals(org.lockspi.LeaseState.LOST, lease.state());
            Map<String, Object> again = (Map<String, Object>) server.invoke(name, "revoke",
                    new Object[] {new String[] {"jobs", "stuck"}, lease.fencingToken(), null}, signature);
            assertEquals("no-holder", again.get("outcome"), again.toString());

            LocksEndpoint endpoint = node.getBean(LocksEndpoint.class);
            try (Lease kept = plain.mutex("jobs/kept").acquire(Duration.ofSeconds(5))) {
                RuntimeException refused = assertThrows(RuntimeException.class, () -> endpoint.revoke(
                        new String[] {"jobs", "kept"}, kept.fencingToken(), () -> "alice"));
                assertInstanceOf(org.springframework.boot.actuate.endpoint.InvalidEndpointRequestException.class,
                        refused, "a holder without the opt-in is a bad request");
                assertTrue(refused.getMessage().contains("revocable=true"), refused.getMessage());
                assertEquals(org.lockspi.LeaseState.HELD, kept.state());
            }
        }
        try (ConfigurableApplicationContext node = node(space, domain + "-off", "locks");
             LockService holder = Locks.open(space + "?revocable=true")) {
            Lease lease = holder.mutex("jobs/off").acquire(Duration.ofSeconds(5));
            RuntimeException off = assertThrows(RuntimeException.class, () -> node.getBean(LocksEndpoint.class)
                    .revoke(new String[] {"jobs", "off"}, lease.fencingToken(), () -> "alice"));
            assertTrue(off.getMessage().contains("lockspi.endpoint.revoke-enabled=true"), off.getMessage());
            assertEquals(org.lockspi.LeaseState.HELD, lease.state(), "off by default: nothing changed");
            lease.release();
        }
    }

    @Test
    void absentUnlessExposed() throws Exception {
        String domain = "lockspi-test-" + DOMAINS.incrementAndGet();
        try (ConfigurableApplicationContext node = node(InMemoryLocks.newSpace(), domain, "health")) {
            assertTrue(node.getBeansOfType(LocksEndpoint.class).isEmpty(), "no endpoint bean");
            assertFalse(server.isRegistered(new ObjectName(domain + ":type=Endpoint,name=Locks")));
        }
    }
}
