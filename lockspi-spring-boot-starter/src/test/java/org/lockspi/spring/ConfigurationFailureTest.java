package org.lockspi.spring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.lockspi.LockService;
import org.lockspi.inmemory.InMemoryLocks;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;

/**
 * Applications that fail to start on a bad {@code lockspi.*} configuration: Spring Boot's start-up report
 * ("APPLICATION FAILED TO START") names the property and the fix. And provider-scoped parameters: those of another
 * provider are left out, so a switch of provider starts.
 */
@ExtendWith(OutputCaptureExtension.class)
class ConfigurationFailureTest {

    /** An application that needs the lock template. */
    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class NeedsLocks {
        @Bean
        String billing(LockTemplate locks) {
            return "billing on " + locks.service().providerName();
        }
    }

    private static ConfigurableApplicationContext start(String... properties) {
        return new SpringApplicationBuilder(NeedsLocks.class).web(WebApplicationType.NONE)
                .properties("spring.main.banner-mode=off",
                        // no Redis client nor DataSource of the application's own, which the starter would use
                        "spring.autoconfigure.exclude=" + SpringBootLine.REDIS_AUTO_CONFIGURATION.getName() + ","
                                + SpringBootLine.DATA_SOURCE_AUTO_CONFIGURATION.getName())
                .properties(properties).run();
    }

    /** Starts an application that must fail, and returns its start-up report. */
    private static String report(CapturedOutput output, String... properties) {
        int from = output.getAll().length();
        assertThrows(Exception.class, () -> start(properties).close(), "the application started");
        String report = output.getAll().substring(from);
        assertTrue(report.contains("APPLICATION FAILED TO START"), report);
        return report.substring(report.indexOf("APPLICATION FAILED TO START"));
    }

    private static void assertReport(String report, String description, String action) {
        int d = report.indexOf("Description:");
        int a = report.indexOf("Action:");
        assertTrue(d >= 0 && a > d, report);
        assertTrue(report.substring(d, a).contains(description), "description has '" + description + "':\n" + report);
        assertTrue(report.substring(a).contains(action), "action has '" + action + "':\n" + report);
    }

    @Test
    void noUri(CapturedOutput output) {
        assertReport(report(output), "LockTemplate bean and the lockspi starter configured none: lockspi.uri is "
                + "not set", "Set lockspi.uri to the lock server");
        assertReport(report(output, "lockspi.provider=jdbc"), "lockspi.provider=jdbc without lockspi.uri",
                "or set lockspi.provider=jdbc with a DataSource");
    }

    @Test
    void malformedUri(CapturedOutput output) {
        assertReport(report(output, "lockspi.uri=zookeeper:/no-host"), "lockspi.uri: malformed lock URI",
                "scheme://host:port/path");
    }

    @Test
    void unknownProviderOrScheme(CapturedOutput output) {
        assertReport(report(output, "lockspi.uri=" + InMemoryLocks.newSpace(), "lockspi.provider=curatorr"),
                "lockspi.provider: no lock provider named 'curatorr'", "Set lockspi.provider to one of the installed");
        assertReport(report(output, "lockspi.uri=etcd://h:2379/app"), "lockspi.uri: no installed lock provider "
                + "serves scheme 'etcd'", "Put a provider for the URI's scheme on the class path");
    }

    @Test
    void unknownParameterNamesTheScopedFix(CapturedOutput output) {
        assertReport(report(output, "lockspi.uri=" + InMemoryLocks.newSpace(), "lockspi.parameters.leaseTime=10s"),
                "lockspi.parameters.leaseTime: lock provider 'inmemory' has no parameter 'leaseTime' (it accepts "
                        + "[ifExists])", "lockspi.parameters.redis.leaseTime");
        assertReport(report(output, "lockspi.uri=" + InMemoryLocks.newSpace(),
                        "lockspi.parameters.zookeper.sessionTimeout=10s"),
                "lockspi.parameters.zookeper.sessionTimeout: 'zookeper' is neither a lock provider nor a URI scheme",
                "lockspi.parameters.redis.leaseTime=10s");
    }

    @Test
    void malformedParameterValue(CapturedOutput output) {
        assertReport(report(output, "lockspi.uri=" + InMemoryLocks.newSpace(), "lockspi.parameters.mem.ifExists=maybe"),
                "lockspi.parameters.mem.ifExists: parameter 'ifExists' is not true or false: 'maybe'",
                "Correct lockspi.parameters.mem.ifExists");
    }

    @Test
    void parametersScopedToAnotherProviderAreLeftOut() throws Exception {
        String space = InMemoryLocks.newSpace();
        try (ConfigurableApplicationContext context = start("lockspi.uri=" + space,
                "lockspi.parameters.redis.leaseTime=10s", "lockspi.parameters.redis-baseline.keyPrefix=orders:",
                "lockspi.parameters.zookeeper.sessionTimeout=10s", "lockspi.parameters.curator.connectTimeout=5s",
                "lockspi.parameters.inmemory.ifExists=false")) {
            assertEquals("billing on inmemory", context.getBean("billing"));
            LockService service = context.getBean(LockService.class);
            service.mutex("orders/1").acquire(Duration.ofSeconds(5)).release();
        }
    }
}
