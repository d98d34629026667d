package org.lockspi.bench.internal;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import org.lockspi.Locks;

/** Take-over after the holder's process is killed: the holder runs in a child JVM. */
final class TakeoverScenario extends Scenario {
    /** URI parameter names a provider may use for its session timeout or lease time, in order of preference. */
    private static final List<String> TIMEOUT_PARAMETERS = List.of("sessionTimeout", "leaseTime", "session-timeout",
            "lease-time", "ttl", "lease", "leaseTimeout");

    /** A holder JVM: started early so that JVM start-ups overlap, killed one at a time. */
    private static final class Holder {
        final ProviderVariant variant;
        final Results.Takeover into;
        final String uri;
        final String name;
        final Process process;
        final CountDownLatch held = new CountDownLatch(1);
        final StringBuilder transcript = new StringBuilder();

        Holder(ProviderVariant variant, Results.Takeover into, String uri, String name) throws IOException {
            this.variant = variant;
            this.into = into;
            this.uri = uri;
            this.name = name;
            this.process = ChildJvm.start(HolderProcess.class, List.of("-Xmx256m", "-XX:TieredStopAtLevel=1",
                    "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn"), List.of(variant.name(), uri, name), null);
            Thread reader = new Thread(() -> {
                try (BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(),
                        StandardCharsets.UTF_8))) {
                    String l;
                    while ((l = out.readLine()) != null) {
                        synchronized (transcript) {
                            transcript.append(l).append('\n');
                        }
                        if (l.startsWith("HELD")) {
                            held.countDown();
                        }
                    }
                } catch (IOException ignored) {
                    // the process was killed
                }
            }, "bench-holder-out");
            reader.setDaemon(true);
            reader.start();
        }

        String transcript() {
            synchronized (transcript) {
                return transcript.toString();
            }
        }
    }

    TakeoverScenario(Scenario.Env env) {
        super(env);
    }

    @Override
    void run() {
        long ms = settings.takeoverTimeout().toMillis();
        phase("take-over after the holder's process is killed (holder runs with a " + ms
                + " ms session timeout / lease time)");
        List<Holder> holders = new ArrayList<>();
        try {
            for (Variant v : variants) {
                if (!(v instanceof ProviderVariant)) {
                    continue;
                }
                ProviderVariant pv = (ProviderVariant) v;
                Results.Takeover r = new Results.Takeover(v);
                results.takeovers.add(r);
                Set<String> accepted = installed.get(v.name()).parameters();
                String parameter = TIMEOUT_PARAMETERS.stream().filter(accepted::contains).findFirst().orElse(null);
                String uri = pv.uri(scope(v)) + (parameter == null ? "" : "?" + parameter + "=" + ms + "ms");
                r.setting = parameter == null ? "provider default (it accepts none of " + TIMEOUT_PARAMETERS + ")"
                        : parameter + "=" + ms + "ms";
                for (int s = 0; s < settings.takeoverSamples(); s++) {
                    try {
                        // one name per variant: the two Redis providers share one key space
                        holders.add(new Holder(pv, r, uri, "takeover-" + scope(v) + "-" + s));
                    } catch (IOException e) {
                        r.error = "holder JVM: " + describe(e);
                    }
                }
            }
            for (Holder h : holders) {
                if (h.into.error != null) {
                    continue;
                }
                try {
                    takeoverOnce(h);
                } catch (Exception | LinkageError e) {
                    h.into.error = describe(e);
                }
            }
        } finally {
            holders.forEach(h -> ChildJvm.kill(h.process));
        }
        for (Results.Takeover r : results.takeovers) {
            log.printf("[bench]   %-28s %8.0f ms (%s)%s%n", r.variant, r.takeover.p50() / 1e6, r.setting,
                    r.error == null ? "" : "  FAILED " + r.error);
        }
    }

    private void takeoverOnce(Holder h) throws Exception {
        ProviderVariant v = h.variant;
        if (!h.held.await(60, TimeUnit.SECONDS)) {
            throw new IllegalStateException("the holder process did not report HELD within 60 s: " + h.transcript());
        }
        try (org.lockspi.LockService waiterService = Locks.open(h.uri, v.name())) {
            long before = v.backend() == Variant.Backend.REDIS ? redis.commands() : 0;
            AtomicLong acquiredAt = new AtomicLong();
            AtomicReference<Throwable> failure = new AtomicReference<>();
            Thread waiter = new Thread(() -> {
                try {
                    org.lockspi.Lease lease = waiterService.mutex(h.name).acquire(Duration.ofSeconds(120));
                    acquiredAt.set(System.nanoTime());
                    lease.release();
                } catch (Throwable e) {
                    failure.set(e);
                }
            }, "bench-takeover-waiter");
            waiter.setDaemon(true);
            waiter.start();
            String path = v.backend() == Variant.Backend.ZOOKEEPER ? "/bench/" + scope(v) + "/" + h.name : null;
            awaitQueued(path, 1, before);
            if (acquiredAt.get() != 0 || !h.process.isAlive()) {
                throw new IllegalStateException("the lock was free before the holder was killed: " + h.transcript());
            }
            long killedAt = System.nanoTime();
            h.process.destroyForcibly();
            waiter.join(150_000);
            if (failure.get() != null) {
                throw new IllegalStateException("the waiter failed: " + describe(failure.get()), failure.get());
            }
            if (acquiredAt.get() == 0) {
                throw new IllegalStateException("the waiter did not get the lock within 150 s of the kill");
            }
            h.into.takeover.add(acquiredAt.get() - killedAt);
        }
    }
}
