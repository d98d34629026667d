package org.lockspi.spring.internal;

import java.util.stream.Collectors;
import org.lockspi.LockService;
import org.lockspi.Locks;
import org.lockspi.spring.LockTemplate;
import org.springframework.beans.factory.NoSuchBeanDefinitionException;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.core.Ordered;
import org.springframework.core.env.Environment;

/**
 * The start-up report when the application needs a {@link LockService} or {@link LockTemplate} and the starter
 * configured none: says which property is missing ({@code lockspi.uri}, or what {@code lockspi.provider} needs)
 * instead of "Consider defining a bean of type". Ordered before Spring Boot's own report of a missing bean.
 */
public final class LockspiMissingServiceFailureAnalyzer extends AbstractFailureAnalyzer<NoSuchBeanDefinitionException>
        implements Ordered {
    private final Environment environment;

    /** @param environment the application's environment, to read what was set */
    public LockspiMissingServiceFailureAnalyzer(Environment environment) {
        this.environment = environment;
    }

    @Override
    public int getOrder() {
        return Ordered.HIGHEST_PRECEDENCE;
    }

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, NoSuchBeanDefinitionException cause) {
        Class<?> type = cause.getBeanType();
        if (type != LockService.class && type != LockTemplate.class) {
            return null;
        }
        String provider = environment.getProperty("lockspi.provider", "").strip();
        String installed = Locks.providers().stream().map(p -> p.name()).collect(Collectors.joining(", "));
        String description;
        if (provider.equals("jdbc")) {
            description = "lockspi.provider=jdbc without lockspi.uri opens the locks on the application's DataSource, "
                    + "and the application has none (or lock-spi-jdbc is not on the class path).";
        } else if (provider.startsWith("redis-lettuce")) {
            description = "lockspi.provider=" + provider + " without lockspi.uri opens the locks on the application's "
                    + "LettuceConnectionFactory (spring-boot-starter-data-redis), and the application has none.";
        } else {
            description = "lockspi.uri is not set, so no LockService was configured"
                    + (provider.isEmpty() ? "" : " (lockspi.provider=" + provider + " names a provider, not a server)")
                    + ".";
        }
        String action = "Set lockspi.uri to the lock server, with a provider for its scheme on the class path, e.g.\n"
                + "\tlockspi.uri=zookeeper://zk1:2181,zk2:2181/myapp   (lock-spi-curator)\n"
                + "\tlockspi.uri=redis://cache:6379/0                  (lock-spi-redis-baseline)\n"
                + "\tlockspi.uri=jdbc+postgresql://db:5432/orders      (lock-spi-jdbc)\n"
                + "or set lockspi.provider=jdbc with a DataSource, or define a LockService bean. Installed providers: "
                + (installed.isEmpty() ? "none" : installed) + ".";
        return new FailureAnalysis("The application needs a " + type.getSimpleName() + " bean and the lockspi starter "
                + "configured none: " + description, action, cause);
    }
}
