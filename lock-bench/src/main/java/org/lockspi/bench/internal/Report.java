package org.lockspi.bench.internal;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/** Writes the run as Markdown: settings, one table per scenario, the ratios against the targets. */
public final class Report {
    private final StringBuilder md = new StringBuilder();

    private Report() {
    }

    private static String us(double nanos) {
        return Double.isNaN(nanos) ? "n/a" : String.format(Locale.ROOT, "%.1f", nanos / 1e3);
    }

    private static String num(double v, String format) {
        return Double.isNaN(v) || Double.isInfinite(v) ? (Double.isInfinite(v) ? "inf" : "n/a")
                : String.format(Locale.ROOT, format, v);
    }

    private static String role(Variant.Role role) {
        return role.name().toLowerCase(Locale.ROOT);
    }

    private static String failed(String error) {
        return error == null ? "" : "failed: " + error.replace("|", "/");
    }

    /** One row per provider and anchor: the trade-off in a line each. */
    private void atAGlance(Results r) {
        int k = r.settings.clients()[r.settings.clients().length / 2];
        int n = Arrays.stream(r.settings.waiters()).max().orElse(1);
        line("## ZooKeeper vs Redis at a glance");
        line("");
        line("Contended figures at K = " + k + " clients; fairness is max/min acquisitions per client (1.00 is even).");
        line("");
        line("| variant | backend | uncontended p50 (us) | K=" + k + " acquisitions/s | K=" + k + " hand-off p50 (us) | K=" + k
                + " fairness max/min | hand-off p50 with " + n + " waiters (us) | " + r.settings.virtualWaiters()
                + " virtual threads: acquisitions/s | server requests / acquisition (uncontended) | take-over after kill (ms) |");
        line("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|");
        for (Results.Cycle c : r.uncontended) {
            if (c.role == Variant.Role.FLOOR) {
                continue;
            }
            Results.Contended kc = Ratios.contended(r, c.variant, k);
            Results.Drain d = Ratios.drain(r, c.variant, n);
            Results.Takeover t = r.takeovers.stream().filter(x -> x.variant.equals(c.variant) && x.takeover.size() > 0)
                    .findFirst().orElse(null);
            line("| " + c.variant + " | " + c.backend.name().toLowerCase(Locale.ROOT) + " | " + us(c.cycle.p50()) + " | "
                    + (kc == null ? "n/a" : num(kc.rate(), "%.0f")) + " | " + (kc == null ? "n/a" : us(kc.handoff.p50()))
                    + " | " + (kc == null ? "n/a" : num(kc.maxOverMin(), "%.2f")) + " | "
                    + (d == null ? "n/a" : us(d.handoff.p50())) + " | " + r.virtualThreads.stream()
                    .filter(x -> x.variant.equals(c.variant)).findFirst().map(x -> num(x.rate(), "%.0f"))
                    .orElse(r.virtualThreadsNotRun != null && c.role == Variant.Role.PROVIDER ? "not run" : "n/a")
                    + " | " + num(c.requestsPerAcquisition(), "%.2f") + " | "
                    + (t == null ? "not measured (anchor)" : num(t.takeover.p50() / 1e6, "%.0f")) + " |");
        }
        line("");
    }

    private static String perCommand(Results.Cycle c) {
        if (c.commands.isEmpty() || c.acquisitions == 0) {
            return "";
        }
        return c.commands.entrySet().stream().sorted((a, b) -> Long.compare(b.getValue(), a.getValue()))
                .map(e -> e.getKey() + " " + num((double) e.getValue() / c.acquisitions, "%.2f"))
                .collect(Collectors.joining(", "));
    }

    private void line(String s) {
        md.append(s).append('\n');
    }

    /**
     * @param chartFile the chart's file name, relative to the report
     * @return the report
     */
    public static String markdown(Results r, List<Ratios.Ratio> ratios, String chartFile) {
        Report rep = new Report();
        rep.write(r, ratios, chartFile);
        return rep.md.toString();
    }

    /**
     * A hand-written document carried into the report as its last section: its title becomes a second-level
     * heading, its other headings one level lower, and a line names the file it comes from.
     *
     * @param document the document's markdown
     * @param fileName its file name, relative to the report
     * @return the section, starting with a blank line
     */
    public static String included(String document, String fileName) {
        return included(document, fileName, "measured by the test suite, not by this run");
    }

    /**
     * @param provenance where the figures come from, e.g. {@code measured by the test suite, not by this run}
     * @return the document with its headings one level down, for inclusion in the report
     */
    public static String included(String document, String fileName, String provenance) {
        StringBuilder out = new StringBuilder("\n");
        boolean first = true;
        for (String line : document.split("\n", -1)) {
            if (first && line.startsWith("# ")) {
                out.append('#').append(line).append("\n\n(From [").append(fileName).append("](").append(fileName)
                        .append("), ").append(provenance).append(".)\n");
            } else if (line.startsWith("#")) {
                out.append('#').append(line).append('\n');
            } else {
                out.append(line).append('\n');
            }
            first = false;
        }
        return out.toString();
    }

    private void write(Results r, List<Ratios.Ratio> ratios, String chartFile) {
        Settings s = r.settings;
        line("# ZooKeeper vs Redis: the measured trade-off");
        line("");
        line("Generated by `lock-bench` (" + s.mode() + " run) on " + r.date + " in " + (r.runMillis / 1000)
                + " s. Regenerate with `./mvnw -q -Pbench -pl lock-bench -am verify -DskipTests` "
                + "(`-Pbench-quick` for a first look). Every provider is measured through `lock-api` only "
                + "(`Locks.open(uri, name)`, `mutex(name).acquire()`, `Lease.release()`), side by side in one run "
                + "with the plain libraries doing the same work.");
        line("");
        line("![latency and throughput per provider](" + chartFile + ")");
        line("");
        line("## Setup");
        line("");
        line("- Machine: " + r.machine);
        line("- Client JVM: " + r.jvm);
        line("- ZooKeeper: " + r.zooKeeperServer);
        line("- Redis: " + r.redisServer);
        line("- Everything on loopback. Compared variants run interleaved in blocks (A, B, C, A, B, C, ...; the "
                + "order rotates every round)" + (s.warmup() ? " after a discarded warm-up round" : "")
                + "; a ratio is the median over rounds of the ratio of the two variants' medians in that round "
                + "(paired by round, so drift between rounds cancels). The p50/p99 columns pool all blocks.");
        line("- Counts: uncontended " + s.uncontendedRounds() + " rounds x " + s.zkCycles() + " cycles (ZooKeeper) / "
                + s.redisCycles() + " cycles (Redis) per block; contended K = " + Arrays.toString(s.clients()) + ", "
                + s.contendedRounds() + " rounds x " + s.contendedBlock().toMillis() + " ms; draining queue N = "
                + Arrays.toString(s.waiters()) + ", " + s.drainRounds() + " rounds, >= " + s.drainSamples()
                + " hand-offs per round; " + s.threads() + " threads, " + s.threadRounds() + " rounds x "
                + s.threadBlock().toMillis() + " ms; " + s.virtualWaiters() + " virtual threads, " + s.virtualRounds()
                + " round(s); take-over " + s.takeoverSamples() + " kill(s) per provider.");
        line("- Hand-off latency runs from the moment the holder calls `release()` to the moment the next holder's "
                + "acquire returns (the next holder often returns before the releaser's `release()` does). "
                + "Server requests per acquisition come from the servers' own counters: ZooKeeper's packets "
                + "received (`srvr`), Redis's `INFO commandstats` (without `INFO` itself).");
        line("- Floors: ZooKeeper = create EPHEMERAL_SEQUENTIAL + getChildren + delete on the plain client; Redis = "
                + "`SET key token NX PX 30000` + Lua compare-and-delete (`EVALSHA`) on one Jedis connection; the "
                + "fenced Redis floor acquires with one `EVALSHA` doing `SET NX PX` and `INCR` (a fencing token). Anchors: "
                + "Curator `InterProcessMutex` and Redisson `RLock` used directly.");
        if (!r.providersNotPresent.isEmpty()) {
            line("- **Optional providers not present** (measured when installed): "
                    + String.join(", ", r.providersNotPresent) + ".");
        }
        if (!r.providersMissing.isEmpty()) {
            line("- **Not installed, not measured:** " + String.join(", ", r.providersMissing) + ".");
        }
        for (String note : r.notes) {
            line("- " + note);
        }
        line("");

        line("## Targets and anchors");
        line("");
        line("| ratio | measured | target | verdict |");
        line("|---|---:|---|---|");
        for (Ratios.Ratio x : ratios) {
            line("| " + x.what + " | " + x.valueText() + " | " + x.target + " | "
                    + (x.verdict.equals("MISSED") ? "**MISSED**" : x.verdict) + " |");
        }
        line("");
        List<Ratios.Ratio> missed = ratios.stream().filter(x -> x.verdict.equals("MISSED")).collect(Collectors.toList());
        if (missed.isEmpty()) {
            line("No measured target was missed in this run.");
        } else {
            line("Targets missed in this run: " + missed.stream().map(x -> x.what + " (" + x.valueText() + ", target "
                    + x.target + ")").collect(Collectors.joining("; ")) + ".");
        }
        line("");

        atAGlance(r);

        line("## Uncontended acquire + release");
        line("");
        line("| variant | backend | role | cycles | p50 (us) | p99 (us) | vs floor (p50) | server requests / acquisition | Redis commands sent / cycle (MONITOR) | Redis commands / acquisition (commandstats) | |");
        line("|---|---|---|---:|---:|---:|---:|---:|---:|---|---|");
        for (Results.Cycle c : r.uncontended) {
            Results.Cycle floor = Ratios.cycle(r, c.backend == Variant.Backend.ZOOKEEPER ? "ZooKeeper floor"
                    : RedisFloor.NAME);
            double vs = floor == null || c.cycle.size() == 0 ? Double.NaN : Ratios.cycleRatio(c, floor);
            line("| " + c.variant + " | " + c.backend.name().toLowerCase(Locale.ROOT) + " | " + role(c.role) + " | "
                    + c.cycle.size() + " | " + us(c.cycle.p50()) + " | " + us(c.cycle.p99()) + " | "
                    + num(vs, "%.2fx") + " | " + num(c.requestsPerAcquisition(), "%.2f") + " | "
                    + (c.monitoredCycles == 0 ? "" : num(c.clientCommandsPerCycle(), "%.2f")) + " | " + perCommand(c) + " | "
                    + failed(c.error) + " |");
        }
        line("");
        line("Redis's `INFO commandstats` also counts the commands a Lua script runs (`redis.call`), so the "
                + "breakdown shows them by name: the floor's release is one round trip (`evalsha`) that runs `get` "
                + "and `del` inside the server. The MONITOR column counts what the client sends (its round trips, "
                + "unless it pipelines), in one untimed block of " + s.redisCycles() + " cycles after the timed rounds.");
        line("");

        line("## Contended: K clients on one lock");
        line("");
        line("Each client is a separate session / connection pool with one thread looping acquire, release. The "
                + "window opens once every client has had the lock once (or after 2 s), so the queue is formed; "
                + "server requests are counted within the window. "
                + "Fairness: the spread of acquisitions per client (max/min and coefficient of variation; 1.00 and "
                + "0.00 are perfectly even).");
        line("");
        line("| variant | role | K | acquisitions/s | hand-off p50 (us) | hand-off p99 (us) | max/min per client | CV per client | server requests / acquisition | |");
        line("|---|---|---:|---:|---:|---:|---:|---:|---:|---|");
        for (Results.Contended c : r.contended) {
            line("| " + c.variant + " | " + role(c.role) + " | " + c.clients + " | " + num(c.rate(), "%.0f") + " | "
                    + us(c.handoff.p50()) + " | " + us(c.handoff.p99()) + " | " + num(c.maxOverMin(), "%.2f") + " | "
                    + num(c.spread(), "%.2f") + " | " + num(c.requestsPerAcquisition(), "%.2f") + " | "
                    + failed(c.error) + " |");
        }
        line("");

        line("## Hand-off while a queue of N waiters drains");
        line("");
        line("One holder, then N waiting threads spread over min(N, 8) clients (for the plain libraries one lock "
                + "object per waiter); the holder releases and every waiter, once it holds the lock, releases it at "
                + "once. On ZooKeeper the run waits until all N nodes are queued; Redis has no queue, so there it "
                + "waits until the server has seen at least N attempts.");
        line("");
        line("| variant | role | N | hand-offs | p50 (us) | p99 (us) | p50 vs N=1 | server requests / acquisition | |");
        line("|---|---|---:|---:|---:|---:|---:|---:|---|");
        for (Results.Drain d : r.drains) {
            Results.Drain one = Ratios.drain(r, d.variant, 1);
            double vs = one == null || d.handoff.size() == 0 ? Double.NaN : Ratios.drainRatio(d, one);
            String note = (d.cutShort ? "cut short after " + s.drainCap().toSeconds() + " s " : "") + failed(d.error);
            line("| " + d.variant + " | " + role(d.role) + " | " + d.waiters + " | " + d.handoff.size() + " | "
                    + us(d.handoff.p50()) + " | " + us(d.handoff.p99()) + " | " + num(vs, "%.2fx") + " | "
                    + num(d.requestsPerAcquisition(), "%.2f") + " | " + note + " |");
        }
        line("");

        line("## " + s.threads() + " threads of one client on one lock");
        line("");
        line("One client, " + s.threads() + " threads looping acquire, release on one lock object (for the plain "
                + "InterProcessMutex also on " + s.threads() + " separate instances). The window opens once "
                + s.threads() + " acquisitions have happened (or after 2 s).");
        line("");
        line("| case | acquisitions/s | hand-off p50 (us) | hand-off p99 (us) | max/min per thread | server requests / acquisition | |");
        line("|---|---:|---:|---:|---:|---:|---|");
        for (Results.Contended c : r.manyThreads) {
            line("| " + c.variant + " | " + num(c.rate(), "%.0f") + " | " + us(c.handoff.p50()) + " | "
                    + us(c.handoff.p99()) + " | " + num(c.maxOverMin(), "%.2f") + " | "
                    + num(c.requestsPerAcquisition(), "%.2f") + " | " + failed(c.error) + " |");
        }
        line("");

        virtualThreads(r);
        requestsByScenario(r);

        line("## Take-over after the holder's process is killed");
        line("");
        line("A child JVM acquires the mutex through lock-api and is killed (SIGKILL) while a client in this JVM "
                + "waits; the time runs from the kill to the waiter's acquisition. It is bounded below by the "
                + "session timeout (ZooKeeper) or lease time (Redis) the holder ran with, counted from the holder's "
                + "last heartbeat or renewal rather than from the kill, so it can come out a little below the "
                + "setting; ZooKeeper expires sessions on tick boundaries (tickTime above).");
        line("");
        line("| provider | holder's setting | kills | take-over p50 (ms) | max (ms) | |");
        line("|---|---|---:|---:|---:|---|");
        for (Results.Takeover t : r.takeovers) {
            line("| " + t.variant + " | " + t.setting + " | " + t.takeover.size() + " | "
                    + num(t.takeover.p50() / 1e6, "%.0f") + " | " + num(t.takeover.quantile(1.0) / 1e6, "%.0f") + " | "
                    + failed(t.error) + " |");
        }
        line("");
    }

    private void virtualThreads(Results r) {
        Settings s = r.settings;
        line("## " + s.virtualWaiters() + " virtual threads of one client on one lock");
        line("");
        if (r.virtualThreadsNotRun != null) {
            line("Not run: " + r.virtualThreadsNotRun + ".");
            line("");
            return;
        }
        line("One service per provider in a child JVM on " + r.virtualThreadsJava + " (virtual threads need Java "
                + "21+); one holder takes a `nonReentrantMutex`, " + s.virtualWaiters() + " virtual threads call "
                + "`acquire()` on "
                + "the same lock object and park, the holder releases and the queue drains (each waiter releases at "
                + "once). Drain time runs from that release to the last waiter's; server requests are counted over "
                + "the whole drain, the holder's acquisition included. Providers interleave over "
                + s.virtualRounds() + " round(s) after a warm-up drain of " + VirtualThreadScenario.warmupWaiters(s)
                + ". The non-reentrant mutex is the lock for virtual threads: a service's waiters queue locally "
                + "and one entry waits on the server. On a thread-owned `mutex` every waiting thread has its own "
                + "server entry, and 10,000 ZooKeeper waiters arriving at once each list up to 10,000 nodes: that "
                + "ran a 6 GB ZooKeeper server and the 1 GB client out of heap.");
        line("");
        line("| provider | waiters | parked before release (fewest) | drains | drain time p50 (ms) | acquisitions/s | hand-off p50 (us) | hand-off p99 (us) | server requests / acquisition | |");
        line("|---|---:|---:|---:|---:|---:|---:|---:|---:|---|");
        for (Results.Virtual v : r.virtualThreads) {
            line("| " + v.variant + " | " + v.waiters + " | " + (v.drains == 0 ? "n/a" : v.queuedMin) + " | "
                    + v.drains + " | " + num(v.drainTime.p50() / 1e6, "%.0f") + " | " + num(v.rate(), "%.0f") + " | "
                    + us(v.handoff.p50()) + " | " + us(v.handoff.p99()) + " | "
                    + num(v.requestsPerAcquisition(), "%.2f") + " | "
                    + (v.cutShort ? "cut short after " + s.virtualCap().toSeconds() + " s " : "") + failed(v.error)
                    + " |");
        }
        line("");
    }

    /** One row per variant: server requests per acquisition in every scenario it ran. */
    private void requestsByScenario(Results r) {
        Settings s = r.settings;
        line("## Server requests per acquisition, by scenario");
        line("");
        line("From the servers' own counters (ZooKeeper packets received, Redis commands including those Lua "
                + "scripts run), over each scenario's measured window.");
        line("");
        StringBuilder head = new StringBuilder("| variant | uncontended |");
        StringBuilder rule = new StringBuilder("|---|---:|");
        for (int k : s.clients()) {
            head.append(" K=").append(k).append(" |");
            rule.append("---:|");
        }
        for (int n : s.waiters()) {
            head.append(" N=").append(n).append(" |");
            rule.append("---:|");
        }
        head.append(' ').append(s.threads()).append(" threads |").append(" virtual threads |");
        rule.append("---:|---:|");
        line(head.toString());
        line(rule.toString());
        for (Results.Cycle c : r.uncontended) {
            StringBuilder row = new StringBuilder("| " + c.variant + " | " + num(c.requestsPerAcquisition(), "%.2f")
                    + " |");
            for (int k : s.clients()) {
                Results.Contended kc = r.contended.stream().filter(x -> x.variant.equals(c.variant) && x.clients == k)
                        .findFirst().orElse(null);
                row.append(' ').append(kc == null ? "" : num(kc.requestsPerAcquisition(), "%.2f")).append(" |");
            }
            for (int n : s.waiters()) {
                Results.Drain d = r.drains.stream().filter(x -> x.variant.equals(c.variant) && x.waiters == n)
                        .findFirst().orElse(null);
                row.append(' ').append(d == null ? "" : num(d.requestsPerAcquisition(), "%.2f")).append(" |");
            }
            // the first many-threads case of a variant is its one shared lock object
            String threads = r.manyThreads.stream().filter(x -> x.variant.startsWith(c.variant + ",")).findFirst().map(x -> num(x.requestsPerAcquisition(), "%.2f")).orElse("");
            String virtual = r.virtualThreads.stream().filter(x -> x.variant.equals(c.variant)).findFirst()
                    .map(x -> num(x.requestsPerAcquisition(), "%.2f")).orElse("");
            row.append(' ').append(threads).append(" | ").append(virtual).append(" |");
            line(row.toString());
        }
        line("");
    }
}
