package org.lockspi.bench.internal;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * Virtual threads of one client queued on one lock object of every provider, through lock-api: the time for the
 * queue to drain, acquisitions per second, hand-off latency, and server requests per acquisition. Virtual threads
 * need Java 21+, so the waiters run in a child JVM ({@link VirtualWaitersProcess}) on a runtime found by
 * {@link JavaRuntimes} (this JVM if it is new enough); with none installed the scenario is reported as not run,
 * with the reason. The child opens one service per provider and drains them in interleaved rounds; around each
 * drain this JVM reads the server's request counter.
 */
final class VirtualThreadScenario extends Scenario {
    /** The warm-up drain per provider: a tenth of the waiters, from 10 to 100. */
    static int warmupWaiters(Settings s) {
        return Math.max(10, Math.min(100, s.virtualWaiters() / 10));
    }
    private static final int MINIMUM_FEATURE = 21;

    VirtualThreadScenario(Scenario.Env env) {
        super(env);
    }

    @Override
    void run() throws InterruptedException {
        List<ProviderVariant> providers = new ArrayList<>();
        Map<String, Results.Virtual> rows = new LinkedHashMap<>();
        for (Variant v : variants) {
            if (v instanceof ProviderVariant) {
                providers.add((ProviderVariant) v);
                Results.Virtual r = new Results.Virtual(v, settings.virtualWaiters());
                rows.put(v.name(), r);
                results.virtualThreads.add(r);
            }
        }
        if (providers.isEmpty()) {
            return;
        }
        JavaRuntimes.Found found = JavaRuntimes.find(MINIMUM_FEATURE);
        if (found.runtime() == null) {
            results.virtualThreadsNotRun = found.whyNone();
            phase("virtual threads: not run, " + found.whyNone());
            return;
        }
        results.virtualThreadsJava = found.runtime().describe();
        phase(settings.virtualWaiters() + " virtual threads of one client on one lock, " + settings.virtualRounds()
                + " interleaved round(s), in a child JVM on " + results.virtualThreadsJava);
        List<String> args = new ArrayList<>(List.of(String.valueOf(settings.virtualWaiters()),
                String.valueOf(settings.virtualRounds()), String.valueOf(warmupWaiters(settings)),
                String.valueOf(settings.virtualCap().toSeconds())));
        for (ProviderVariant v : providers) {
            args.add(v.name());
            args.add(v.uri(scope(v)));
            args.add(v.lockName(scope(v), "virtual-threads"));
        }
        Process child = null;
        try {
            child = ChildJvm.start(found.runtime().java(), VirtualWaitersProcess.class,
                    List.of("-Xms256m", "-Xmx1g", "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn"), args, null);
            converse(child, rows);
        } catch (IOException e) {
            String why = "child JVM: " + describe(e);
            rows.values().stream().filter(r -> r.error == null && r.drains == 0).forEach(r -> r.error = why);
        } finally {
            ChildJvm.kill(child);
        }
        for (Results.Virtual r : rows.values()) {
            log.printf("[bench]   %-28s %6d VT  drain %8.0f ms  %8.0f acq/s  hand-off p50 %8.1f us  p99 %8.1f us  "
                            + "%5.2f req/acq%s%s%n", r.variant, r.waiters, r.drainTime.p50() / 1e6, r.rate(),
                    r.handoff.p50() / 1e3, r.handoff.p99() / 1e3, r.requestsPerAcquisition(),
                    r.cutShort ? " CUT SHORT" : "", r.error == null ? "" : "  FAILED " + r.error);
        }
    }

    /** Follows the child's lines, reading the server's counter around each drain, until it ends. */
    private void converse(Process child, Map<String, Results.Virtual> rows) throws IOException, InterruptedException {
        BlockingQueue<String> lines = new LinkedBlockingQueue<>();
        Thread reader = new Thread(() -> {
            try (BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(),
                    StandardCharsets.UTF_8))) {
                String l;
                while ((l = out.readLine()) != null) {
                    lines.add(l);
                }
            } catch (IOException ignored) {
                // the child was killed
            }
            lines.add("EOF");
        }, "bench-vt-out");
        reader.setDaemon(true);
        reader.start();
        OutputStream toChild = child.getOutputStream();
        Deque<String> tail = new ArrayDeque<>();
        Map<String, long[]> handoffs = new LinkedHashMap<>();
        long before = 0;
        // a drain may take the cap, the child's start and warm-ups a while more
        long quiet = settings.virtualCap().toSeconds() + 120;
        while (true) {
            String line = lines.poll(quiet, TimeUnit.SECONDS);
            if (line == null || line.equals("EOF")) {
                String why = (line == null ? "the child JVM said nothing for " + quiet + " s" : "the child JVM ended")
                        + "; its last lines: " + String.join(" / ", tail);
                rows.values().stream().filter(r -> r.error == null && r.drains == 0).forEach(r -> r.error = why);
                return;
            }
            String[] f = line.split(" ", 4);
            Results.Virtual r = f.length > 1 ? rows.get(f[1]) : null;
            if (r == null || f[0].equals("END")) {
                if (f[0].equals("END")) {
                    String why = "the child JVM reported no drain" + (line.length() > 3 ? ":" + line.substring(3) : "");
                    rows.values().stream().filter(x -> x.error == null && x.drains == 0).forEach(x -> x.error = why);
                    return;
                }
                tail.addLast(line.length() > 300 ? line.substring(0, 300) : line);
                if (tail.size() > 10) {
                    tail.removeFirst();
                }
                continue;
            }
            switch (f[0]) {
                case "READY":
                    before = requests(r.backend);
                    reply(toChild);
                    break;
                case "HANDOFFS":
                    handoffs.put(r.variant, parse(f.length > 3 ? f[3] : ""));
                    break;
                case "RESULT":
                    long requests = requestsSince(r.backend, before);
                    record(r, Integer.parseInt(f[2]), f[3], handoffs.remove(r.variant), requests);
                    reply(toChild);
                    break;
                case "ERROR":
                    r.error = f.length > 3 ? f[3] : "no message";
                    reply(toChild);
                    break;
                case "FAILED":
                    r.error = "open: " + line.substring(("FAILED " + f[1] + " ").length());
                    break;
                default:
                    tail.addLast(line);
            }
        }
    }

    private static void reply(OutputStream toChild) throws IOException {
        toChild.write('\n');
        toChild.flush();
    }

    private static long[] parse(String csv) {
        if (csv.isEmpty()) {
            return new long[0];
        }
        String[] parts = csv.split(",");
        long[] out = new long[parts.length];
        for (int i = 0; i < parts.length; i++) {
            out[i] = Long.parseLong(parts[i]);
        }
        return out;
    }

    /** Adds one drain's figures: {@code finished=.. acquired=.. queued=.. nanos=.. failures=..}. */
    private static void record(Results.Virtual r, int round, String fields, long[] handoffs, long requests) {
        Map<String, String> kv = new LinkedHashMap<>();
        for (String part : fields.split(" ")) {
            int eq = part.indexOf('=');
            if (eq > 0 && !kv.containsKey("first")) {
                kv.put(part.substring(0, eq), part.substring(eq + 1));
            }
        }
        int first = fields.indexOf(" first=");
        if (!"0".equals(kv.get("failures"))) {
            r.error = kv.get("failures") + " waiter(s) failed" + (first < 0 ? "" : ": " + fields.substring(first + 7));
        }
        Samples round1 = r.perRound.computeIfAbsent(round, x -> new Samples());
        for (long h : handoffs == null ? new long[0] : handoffs) {
            r.handoff.add(h);
            round1.add(h);
        }
        long nanos = Long.parseLong(kv.getOrDefault("nanos", "0"));
        r.queuedMin = Math.min(r.queuedMin, Integer.parseInt(kv.getOrDefault("queued", "0")));
        r.drains++;
        if (!"true".equals(kv.get("finished"))) {
            r.cutShort = true;
            return; // its rate and requests would count a queue that did not drain
        }
        r.drainTime.add(nanos);
        r.drainNanos += nanos;
        r.acquisitions += Long.parseLong(kv.getOrDefault("acquired", "0"));
        r.requests += requests;
    }
}
