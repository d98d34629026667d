package org.lockspi.bench.internal;

import java.util.ArrayList;
import java.util.List;

/** Everything one run measured, with the machine and server settings; what the report and chart are drawn from. */
public final class Results {
    public String date;
    public String machine;
    public String jvm;
    public String zooKeeperServer;
    public String redisServer;
    public Settings settings;
    public long runMillis;
    public final List<String> notes = new ArrayList<>();
    public final List<String> providersMissing = new ArrayList<>();
    /** Optional providers (measured when installed) that are not installed. */
    public final List<String> providersNotPresent = new ArrayList<>();
    public final List<Cycle> uncontended = new ArrayList<>();
    public final List<Contended> contended = new ArrayList<>();
    public final List<Drain> drains = new ArrayList<>();
    public final List<Contended> manyThreads = new ArrayList<>();
    public final List<Takeover> takeovers = new ArrayList<>();
    public final List<Virtual> virtualThreads = new ArrayList<>();
    /** The Java runtime the virtual-thread scenario ran on, or null if it did not run. */
    public String virtualThreadsJava;
    /** Why the virtual-thread scenario did not run, or null. */
    public String virtualThreadsNotRun;

    /** One variant's uncontended acquire+release cycles. */
    public static final class Cycle {
        public final String variant;
        public final Variant.Backend backend;
        public final Variant.Role role;
        public final Samples cycle = new Samples();
        /** The p50 of each round's block, by round. */
        public final java.util.SortedMap<Integer, Double> perRound = new java.util.TreeMap<>();
        /** Redis only: commands per name, those run inside Lua scripts included (INFO commandstats counts them). */
        public final java.util.Map<String, Long> commands = new java.util.TreeMap<>();
        public long requests;
        public long acquisitions;
        /** Redis only: the commands the client sent (Lua's own left out) in {@link #monitoredCycles} cycles. */
        public long clientCommands;
        public long monitoredCycles;
        public String error;

        Cycle(Variant v) {
            this.variant = v.name();
            this.backend = v.backend();
            this.role = v.role();
        }

        public double requestsPerAcquisition() {
            return acquisitions == 0 ? Double.NaN : (double) requests / acquisitions;
        }

        /** @return Redis only: commands the client sent per cycle, under MONITOR; NaN if not counted */
        public double clientCommandsPerCycle() {
            return monitoredCycles == 0 ? Double.NaN : (double) clientCommands / monitoredCycles;
        }
    }

    /** K clients (or T threads of one client) on one lock for a while. */
    public static final class Contended {
        public final String variant;
        public final Variant.Backend backend;
        public final Variant.Role role;
        public final int clients;
        public final Samples handoff = new Samples();
        /** Acquisitions per second of each round's block, by round. */
        public final java.util.SortedMap<Integer, Double> perRound = new java.util.TreeMap<>();
        public long[] perClient;
        public long acquisitions;
        public long allAcquisitions;
        public double seconds;
        public long requests;
        public String error;

        Contended(Variant v, String label, int clients) {
            this.variant = label;
            this.backend = v.backend();
            this.role = v.role();
            this.clients = clients;
            this.perClient = new long[clients];
        }

        public double rate() {
            return seconds == 0 ? Double.NaN : acquisitions / seconds;
        }

        public double requestsPerAcquisition() {
            return allAcquisitions == 0 ? Double.NaN : (double) requests / allAcquisitions;
        }

        /** @return max over min of the acquisitions per client (infinite if one client never got it) */
        public double maxOverMin() {
            long min = Long.MAX_VALUE;
            long max = 0;
            for (long c : perClient) {
                min = Math.min(min, c);
                max = Math.max(max, c);
            }
            return min == 0 ? Double.POSITIVE_INFINITY : (double) max / min;
        }

        /** @return the coefficient of variation of the acquisitions per client */
        public double spread() {
            double mean = 0;
            for (long c : perClient) {
                mean += c;
            }
            mean /= perClient.length;
            if (mean == 0) {
                return Double.NaN;
            }
            double var = 0;
            for (long c : perClient) {
                var += (c - mean) * (c - mean);
            }
            return Math.sqrt(var / perClient.length) / mean;
        }
    }

    /** Hand-offs while a queue of N waiters drains. */
    public static final class Drain {
        public final String variant;
        public final Variant.Backend backend;
        public final Variant.Role role;
        public final int waiters;
        public final Samples handoff = new Samples();
        /** The hand-offs of each round, by round. */
        public final java.util.SortedMap<Integer, Samples> perRound = new java.util.TreeMap<>();
        public int drains;
        /** Server requests of the drains that ran to the end, and their acquisitions (the holder's included). */
        public long requests;
        public long acquisitions;
        public boolean cutShort;
        public String error;

        Drain(Variant v, int waiters) {
            this.variant = v.name();
            this.backend = v.backend();
            this.role = v.role();
            this.waiters = waiters;
        }

        public double requestsPerAcquisition() {
            return acquisitions == 0 ? Double.NaN : (double) requests / acquisitions;
        }
    }

    /** Time from killing the holder's process to the waiter's acquisition. */
    public static final class Takeover {
        public final String variant;
        public final Variant.Backend backend;
        public String setting;
        public final Samples takeover = new Samples();
        public String error;

        Takeover(Variant v) {
            this.variant = v.name();
            this.backend = v.backend();
        }
    }

    /** Many virtual threads of one client queued on one lock object, then the queue drains. */
    public static final class Virtual {
        public final String variant;
        public final Variant.Backend backend;
        public final int waiters;
        public final Samples handoff = new Samples();
        /** The hand-offs of each round, by round. */
        public final java.util.SortedMap<Integer, Samples> perRound = new java.util.TreeMap<>();
        /** Each drain's time from the first release to the last waiter done, in nanoseconds. */
        public final Samples drainTime = new Samples();
        /** The fewest waiters seen parked before the release, over the drains. */
        public int queuedMin = Integer.MAX_VALUE;
        public int drains;
        public long acquisitions;
        public long drainNanos;
        public long requests;
        public boolean cutShort;
        public String error;

        Virtual(Variant v, int waiters) {
            this.variant = v.name();
            this.backend = v.backend();
            this.waiters = waiters;
        }

        /** @return acquisitions per second over all drains */
        public double rate() {
            return drainNanos == 0 ? Double.NaN : acquisitions / (drainNanos / 1e9);
        }

        /** @return server requests per acquisition, each drain's holder counted with its waiters */
        public double requestsPerAcquisition() {
            return acquisitions == 0 ? Double.NaN : (double) requests / (acquisitions + drainTime.size());
        }
    }
}
