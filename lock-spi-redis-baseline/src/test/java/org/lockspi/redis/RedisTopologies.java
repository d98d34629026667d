package org.lockspi.redis;

import java.util.HashMap;
import java.util.Map;

/**
 * What the Sentinel and Cluster TCK runs leave unverified, and why: the restart and partition rules need a backend
 * that restarts one server in place or puts a proxy in front of the URI's single address; the same provider code
 * passes them against one instance ({@link RedisTckTest}), and a Sentinel failover is measured on its own
 * ({@link RedisSentinelFailoverTopologyTest}).
 */
final class RedisTopologies {
    private RedisTopologies() {
    }

    /**
     * @param topology "Sentinel" or "Cluster", for the reasons
     * @return rule to reason
     */
    static Map<String, String> unverifiedRulesAllowed(String topology) {
        String restart = topology.equals("Sentinel")
                ? "a Sentinel master down longer than down-after-milliseconds is replaced by its replica: a failover "
                        + "(RedisSentinelFailoverTopologyTest), not the in-place restart the rule means; RedisTckTest "
                        + "runs it on one instance"
                : "the kit restarts no single cluster node in place (a node down longer than cluster-node-timeout "
                        + "fails its slots); RedisTckTest runs it on one instance";
        String partition = "the TCP proxy stands for the URI's single host:port; a " + topology + " URI names "
                + "several servers, and the " + (topology.equals("Sentinel") ? "sentinels" : "cluster's slot map")
                + " hand out the data nodes' real addresses; RedisTckTest runs it on one instance";
        Map<String, String> rules = new HashMap<>(RedisTckTest.UNVERIFIABLE);
        for (String rule : new String[] {"§13.3", "§16.1", "§16.2", "§17.3", "§18.4", "§18.5"}) {
            rules.put(rule, restart);
        }
        for (String rule : new String[] {"§18.1", "§18.2", "§20.4", "§24.1", "§24.2", "§24.3", "§24.4", "§24.5"}) {
            rules.put(rule, partition);
        }
        return rules;
    }
}
