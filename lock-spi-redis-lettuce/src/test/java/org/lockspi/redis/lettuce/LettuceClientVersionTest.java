package org.lockspi.redis.lettuce;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;
import org.junit.jupiter.api.Test;

/**
 * The Lettuce (and Jedis, for the mixed-fleet tests) on the test class path are the ones the build asked for
 * ({@code lettuce.version}, {@code jedis.version}: the main versions, or an end of the supported range in the
 * {@code redis-clients-*} profiles), so a TCK run beside it ran on those versions.
 */
class LettuceClientVersionTest {

    private static String version(Class<?> type, String pom) throws IOException {
        Properties properties = new Properties();
        try (InputStream in = type.getResourceAsStream(pom)) {
            properties.load(in);
        }
        return properties.getProperty("version");
    }

    @Test
    void theClientsOnTheClassPathAreTheOnesTheBuildNamed() throws IOException {
        String lettuce = version(io.lettuce.core.RedisClient.class, "/META-INF/maven/io.lettuce/lettuce-core/pom.properties");
        String jedis = version(redis.clients.jedis.Jedis.class, "/META-INF/maven/redis.clients/jedis/pom.properties");
        System.out.println("Lettuce on the class path: " + lettuce + "; Jedis: " + jedis);
        assertEquals(System.getProperty("lockspi.expected.lettuce"), lettuce);
        assertEquals(System.getProperty("lockspi.expected.jedis"), jedis);
    }
}
