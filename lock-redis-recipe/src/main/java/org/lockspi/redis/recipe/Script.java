package org.lockspi.redis.recipe;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.List;

/**
 * One Lua script, run with {@code EVALSHA}: only its SHA-1 crosses the network. The server's script cache is empty
 * after a start or a {@code SCRIPT FLUSH}; the first call then gets {@code NOSCRIPT}, loads the body with
 * {@code SCRIPT LOAD} (on the node that serves the first key, for Redis Cluster) and runs it once more. So a script is
 * loaded once per server run, not sent with every call.
 *
 * <p>Immutable and thread-safe.
 */
final class Script {
    final String body;
    final String sha;

    Script(String body) {
        this.body = body;
        this.sha = sha1(body);
    }

    /**
     * Runs the script; on {@code NOSCRIPT} loads it and runs it once more.
     *
     * @throws RedisOpsException as the client reports a failure (a second {@code NOSCRIPT} included)
     */
    Object run(RedisOps redis, List<String> keys, List<String> args) {
        try {
            return redis.evalsha(sha, keys, args);
        } catch (RedisOpsException e) {
            if (e.kind() != RedisOpsException.Kind.NO_SCRIPT) {
                throw e;
            }
            String loaded = redis.scriptLoad(body, keys.isEmpty() ? "" : keys.get(0));
            if (!sha.equalsIgnoreCase(loaded)) {
                throw new IllegalStateException("the server named the script " + loaded + ", not " + sha);
            }
            return redis.evalsha(sha, keys, args);
        }
    }

    private static String sha1(String text) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-1").digest(text.getBytes(StandardCharsets.UTF_8));
            StringBuilder hex = new StringBuilder(40);
            for (byte b : digest) {
                hex.append(Character.forDigit((b >> 4) & 0xf, 16)).append(Character.forDigit(b & 0xf, 16));
            }
            return hex.toString();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-1 is missing from this JVM", e); // every JVM must have it
        }
    }

    @Override
    public String toString() {
        return "Script[" + sha + "]";
    }
}
