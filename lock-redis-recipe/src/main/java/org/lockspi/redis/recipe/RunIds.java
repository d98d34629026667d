package org.lockspi.redis.recipe;

import java.util.Collection;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * The {@code run_id} of Redis servers, from {@code INFO server}, for {@link RedisOps#runId()}: another one than
 * before means a restart or a failover. Every client library reads the reply and combines a cluster's nodes the
 * same way.
 */
public final class RunIds {
    private RunIds() {
    }

    /**
     * @param info the reply of {@code INFO server}
     * @return its {@code run_id}, or {@code ""} if it has none
     */
    public static String of(String info) {
        for (String line : info.split("\r?\n")) {
            if (line.startsWith("run_id:")) {
                return line.substring("run_id:".length()).strip();
            }
        }
        return "";
    }

    /**
     * The run ids of a cluster's nodes; a node that does not answer is left out (the renewals of the locks it
     * served will say so).
     *
     * @param nodes   the nodes
     * @param address a node's {@code host:port}
     * @param info    a node's {@code INFO server} reply; throws {@link RedisOpsException} if the node does not answer
     * @param <N>     the client library's type of a node
     * @return {@code address=run_id} of every node that answers, sorted by address
     * @throws RedisOpsException the last node's failure if no node answers, kind {@code NO_ANSWER} if there is none
     */
    public static <N> String ofNodes(Collection<N> nodes, Function<N, String> address, Function<N, String> info) {
        Map<String, String> ids = new TreeMap<>();
        RedisOpsException last = null;
        for (N node : nodes) {
            try {
                ids.put(address.apply(node), of(info.apply(node)));
            } catch (RedisOpsException e) {
                last = e;
            }
        }
        if (ids.isEmpty()) {
            throw last != null ? last
                    : new RedisOpsException(RedisOpsException.Kind.NO_ANSWER, "no Redis Cluster node known", null);
        }
        return ids.toString();
    }
}
