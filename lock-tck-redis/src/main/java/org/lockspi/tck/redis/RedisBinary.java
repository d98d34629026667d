package org.lockspi.tck.redis;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import redis.embedded.core.ExecutableProvider;

/**
 * Which {@code redis-server} executable the Redis backends start: the one named by the system property
 * {@value EmbeddedRedisBackend#EXECUTABLE_PROPERTY} (a path, or {@code PATH} for the one on the {@code PATH}), or
 * by default the Redis 6.2 binary that {@code com.github.codemonstur:embedded-redis} ships inside its jar.
 *
 * @param provider    finds (and for the jar's binary, extracts) the executable
 * @param description where it comes from, for reports
 */
record RedisBinary(ExecutableProvider provider, String description) {

    /**
     * @return the executable chosen by {@value EmbeddedRedisBackend#EXECUTABLE_PROPERTY}, or the jar's
     * @throws IllegalArgumentException if the property names no executable file
     * @throws UncheckedIOException     if it names {@code PATH} and no {@code redis-server} is found there
     */
    static RedisBinary chosen() {
        String chosen = System.getProperty(EmbeddedRedisBackend.EXECUTABLE_PROPERTY);
        if (chosen == null || chosen.isBlank()) {
            return new RedisBinary(ExecutableProvider.newJarResourceProvider(), "embedded-redis jar");
        }
        if (chosen.strip().equals("PATH")) {
            try {
                return new RedisBinary(ExecutableProvider.newExecutableInPath("redis-server"),
                        "redis-server on the PATH");
            } catch (IOException e) {
                throw new UncheckedIOException("cannot find redis-server on the PATH ("
                        + EmbeddedRedisBackend.EXECUTABLE_PROPERTY + "=PATH)", e);
            }
        }
        File file = new File(chosen.strip());
        if (!file.canExecute()) {
            throw new IllegalArgumentException(EmbeddedRedisBackend.EXECUTABLE_PROPERTY
                    + " names no executable file: " + file);
        }
        return new RedisBinary(() -> file, file.toString());
    }

    /**
     * @return the executable file, extracted from the jar if it comes from there
     * @throws UncheckedIOException if it cannot be found or extracted
     */
    File file() {
        try {
            return provider.get();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot find the redis-server executable (" + description + ", "
                    + EmbeddedRedisBackend.EXECUTABLE_PROPERTY + "="
                    + System.getProperty(EmbeddedRedisBackend.EXECUTABLE_PROPERTY) + ")", e);
        }
    }
}
