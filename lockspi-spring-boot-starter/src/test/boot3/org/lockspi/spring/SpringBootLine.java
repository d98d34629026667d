package org.lockspi.spring;

import org.springframework.boot.actuate.health.HealthComponent;
import org.springframework.boot.actuate.health.HealthEndpoint;
import org.springframework.boot.autoconfigure.data.redis.RedisAutoConfiguration;
import org.springframework.boot.autoconfigure.jdbc.DataSourceAutoConfiguration;
import org.springframework.context.ApplicationContext;

/**
 * What the starter's tests need of the classes that Spring Boot 3 and 4 keep in different places, for Spring Boot
 * 3.5; lockspi-spring-boot4-tests has the same class for Spring Boot 4.0. The tests themselves are written once.
 */
final class SpringBootLine {
    /** The start of the Spring Boot version these tests are built for. */
    static final String LINE = "3.5.";
    /** Spring Boot's Redis (Lettuce) auto-configuration. */
    static final Class<?> REDIS_AUTO_CONFIGURATION = RedisAutoConfiguration.class;
    /** Spring Boot's DataSource auto-configuration. */
    static final Class<?> DATA_SOURCE_AUTO_CONFIGURATION = DataSourceAutoConfiguration.class;

    private SpringBootLine() {
    }

    /**
     * @param context an application with Actuator
     * @param path    a health component ({@code lockspi}) or group
     * @return its status code, as the application's health endpoint gives it
     * @throws AssertionError if the endpoint has no such component or group
     */
    static String health(ApplicationContext context, String path) {
        HealthComponent health = context.getBean(HealthEndpoint.class).healthForPath(path);
        if (health == null) {
            throw new AssertionError("the health endpoint has no component or group '" + path + "'");
        }
        return health.getStatus().getCode();
    }
}
