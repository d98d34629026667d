package org.lockspi.tck;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.lockspi.LockFeature;
import org.lockspi.LockService;
import org.lockspi.Locks;
import org.lockspi.spi.LockProvider;
import org.lockspi.tck.internal.Failures;
import org.lockspi.tck.report.CapabilityMissing;
import org.lockspi.tck.report.ConformanceReport;
import org.lockspi.tck.report.NotApplicable;

/**
 * The conformance kit for a lock provider. A provider's test class extends it and names the provider and the
 * server to run against; every contract of {@code docs/spec.md} then runs as a JUnit test, named after its rule
 * ({@code §3.1 ...}):
 *
 * <pre>{@code
 * class CuratorProviderTckTest extends LockProviderTck {
 *     protected LockProvider provider() { return new CuratorLockProvider(); }
 *     protected TckBackend startBackend() { return EmbeddedZooKeeper.start(); }
 *     protected String clientParameters() { return "sessionTimeout=4s&connectTimeout=5s"; }
 * }
 * }</pre>
 *
 * <p><b>Lifecycle.</b> One instance runs all tests of the class ({@link TestInstance.Lifecycle#PER_CLASS}): the
 * backend is started once before the first test and closed after the last. Every client a test opens through
 * {@link #openClient()} is closed after that test, whatever its outcome.
 *
 * <p><b>Features.</b> Tests of a feature the provider does not declare, or that need a backend
 * {@link TckBackend.Capability capability} the backend lacks, are reported as skipped (aborted) with a reason
 * naming the feature or capability and the provider; they never pass silently. For every feature a provider
 * does not declare, a test checks that using it throws {@link UnsupportedOperationException}.
 *
 * <p><b>Conformance report.</b> After the last test the kit prints a report to standard output: the provider,
 * its features, the backend and its capabilities, and every test by rule, passed, failed, skipped (with the
 * reason) or <em>not verified</em>. A rule is not verified when the provider declares what it is about but the
 * backend lacks a capability the test needs ({@link TckBackend.Capability}); its last line is the verdict,
 * {@code lockspi TCK: CONFORMANT: ...}, {@code lockspi TCK: PARTIAL RUN: ...} (only some tests were selected) or
 * {@code lockspi TCK: NOT CONFORMANT: ...}. Rules left unverified fail the class (after the last test, as a
 * class-level failure), unless {@link #unverifiedRulesAllowed()} names each of them with a reason. Only the
 * tests that ran are judged, so {@code -Dtest=...} selections do not fail for rules they left out.
 *
 * <p><b>Time.</b> Each test has a 60 s limit, so a provider that hangs fails the test instead of the build.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(60)
@ExtendWith({ConformanceWatcher.class, ContractScope.class})
public abstract class LockProviderTck implements CoreContracts, FailureContracts {

    /** Distinguishes the lock names of this run from those of earlier runs against the same server. */
    private static final String RUN = Long.toString(ThreadLocalRandom.current().nextLong(36L * 36 * 36 * 36 * 36),
            Character.MAX_RADIX);
    private static final AtomicInteger NAMES = new AtomicInteger();

    private TckBackend backend;
    private volatile ConformanceReport report;
    private final List<LockService> clients = new ArrayList<>(); // guarded by itself

    /**
     * @return the provider under test; the same or an equal instance on every call
     */
    @Override
    public abstract LockProvider provider();

    /**
     * Starts the server this class runs against. Called once, before the first test.
     *
     * @return the started backend; the kit closes it after the last test
     */
    protected abstract TckBackend startBackend();

    /**
     * Query parameters appended to the backend's URI for every client, such as short session and connect
     * timeouts that keep the failure tests fast.
     *
     * @return parameters as {@code key=value&key=value}, or {@code ""} for none
     */
    protected String clientParameters() {
        return "";
    }

    /**
     * The lease span {@code T} of the clients this class opens: how long the server keeps a client's locks after
     * it last heard from it (the session timeout or lease time that {@link #clientParameters()} sets). The kit
     * measures and bounds the failure contracts by it (§18: a cut-off holder turns {@code LOST} before {@code T}
     * has passed; a restarted server's holder keeps the lock for {@code T}) and prints times as multiples of it.
     * Declare it here rather than leave the kit to guess it: only the provider's author knows which parameter
     * sets it and what the server makes of it (ZooKeeper negotiates the session timeout within the server's
     * bounds).
     *
     * @return {@code T}, positive
     */
    @Override
    public abstract Duration leaseSpan();

    /**
     * How long after a holder dies its lock must be free. Override it when the provider needs longer than the
     * default to notice (a session expiry checked on the server's tick, a renewal interval of slack).
     *
     * @return the bound; twice {@link #leaseSpan()} plus 2 s unless overridden
     */
    @Override
    public Duration crashReleaseBound() {
        return leaseSpan().multipliedBy(2).plusSeconds(2);
    }

    /**
     * The rules this class may leave unverified because its backend lacks a capability their tests need, each
     * with the reason. Without this, a run that skips such a rule fails with
     * {@code lockspi TCK: NOT CONFORMANT: N rules required by the declared features were not verified: ...}.
     * Name every rule on its own, as the test names start ({@code "§13.3"}); the report prints each with its
     * reason. Rules skipped because the provider does not declare their feature need no entry.
     *
     * <pre>{@code
     * @Override protected Map<String, String> unverifiedRulesAllowed() {
     *     return Map.of("§13.3", "the server in a container cannot be restarted by the kit",
     *                   "§16.1", "the server in a container cannot be restarted by the kit");
     * }
     * }</pre>
     *
     * @return rule to reason; empty unless overridden. A name that is no rule of the kit, or a blank reason,
     *         fails the class before the first test
     */
    protected Map<String, String> unverifiedRulesAllowed() {
        return Map.of();
    }

    /** Opens the report before the first test; called by {@link ConformanceWatcher}. */
    final void openReport(KitRules rules, boolean strict) {
        report = new ConformanceReport(getClass().getName(), rules.catalogue(), unverifiedRulesAllowed(),
                rules.overridden(), rules.diagnoses(), strict);
        report.coverage(rules.coverage().renderText());
    }

    /** @return the report, or null before {@link #openReport} */
    final ConformanceReport report() {
        return report;
    }

    @BeforeAll
    protected final void startTckBackend() {
        Duration span = Objects.requireNonNull(leaseSpan(), "leaseSpan() returned null");
        if (span.isNegative() || span.isZero()) {
            throw new IllegalArgumentException("leaseSpan() <= 0: " + span);
        }
        backend = Objects.requireNonNull(startBackend(), "startBackend() returned null");
        if (this instanceof EnsembleProviderTck
                && !backend.capabilities().contains(TckBackend.Capability.ENSEMBLE)) {
            TckBackend started = backend;
            backend = null;
            started.close();
            throw new IllegalStateException("an EnsembleProviderTck runs the ensemble contracts (§19) on a "
                    + "replicated server: its backend must offer ENSEMBLE; " + started.description()
                    + " offers " + started.capabilities());
        }
        if (report != null) {
            report.started(provider(), backend);
        }
    }

    @AfterAll
    protected final void stopTckBackend() {
        TckBackend started = backend;
        backend = null;
        if (started != null) {
            started.close();
        }
    }

    /** Closes every client the test opened; the first failure is thrown with the others attached. */
    @AfterEach
    protected final void closeTckClients() {
        List<LockService> open;
        synchronized (clients) {
            open = new ArrayList<>(clients);
            clients.clear();
        }
        RuntimeException failure = null;
        for (LockService client : open) {
            try {
                client.close();
            } catch (RuntimeException e) {
                failure = Failures.chain(failure, e);
            }
        }
        if (failure != null) {
            throw failure;
        }
    }

    @Override
    public final TckBackend backend() {
        if (backend == null) {
            throw new IllegalStateException("the TCK backend is not started (startBackend() runs before the tests)");
        }
        return backend;
    }

    @Override
    public final String clientUri() {
        String uri = backend().uri();
        String parameters = clientParameters();
        if (parameters == null || parameters.isEmpty()) {
            return uri;
        }
        return uri + (uri.indexOf('?') < 0 ? '?' : '&') + parameters;
    }

    @Override
    public final LockService openClient() {
        return openClient(clientUri());
    }

    @Override
    public final LockService openClient(String uri) {
        LockService client = Locks.open(uri, provider());
        synchronized (clients) {
            clients.add(client);
        }
        return client;
    }

    /**
     * Names are {@code <base>-<run>-<n>}: the base is cut to fit and anything outside the grammar in it becomes
     * {@code '-'}; a base with {@code '/'} keeps its segments.
     */
    @Override
    public final String uniqueName(String base) {
        Objects.requireNonNull(base, "base");
        String suffix = "-" + RUN + "-" + NAMES.incrementAndGet();
        String[] segments = base.isEmpty() ? new String[] {"lock"} : base.split("/", -1);
        StringBuilder name = new StringBuilder();
        int count = Math.min(segments.length, 8);
        for (int i = 0; i < count; i++) {
            String segment = segments[i].replaceAll("[^A-Za-z0-9_.-]", "-");
            if (segment.isEmpty() || segment.charAt(0) == '.') {
                segment = "s" + segment;
            }
            int room = 64 - (i == count - 1 ? suffix.length() : 0);
            if (segment.length() > room) {
                segment = segment.substring(0, room);
            }
            name.append(i == 0 ? "" : "/").append(segment);
        }
        name.append(suffix);
        if (name.length() > 255) {
            throw new IllegalArgumentException("base too long for a lock name of at most 255 characters: " + base);
        }
        return name.toString();
    }

    @Override
    public final void requireFeature(LockFeature feature) {
        if (!provider().features().contains(feature)) {
            String why = undeclaredBecause().get(feature);
            throw new NotApplicable("provider '" + provider().name() + "' does not declare " + feature
                    + (why == null ? "" : ": " + why));
        }
    }

    /**
     * Why the provider lacks some of the features it does not declare, in its author's words: each reason is added
     * to the skip message of the rules that need the feature, so that the conformance report says why they were
     * skipped, not only that they were.
     *
     * @return reasons by feature; none unless overridden
     */
    protected Map<LockFeature, String> undeclaredBecause() {
        return Map.of();
    }

    @Override
    public final void requireCapability(TckBackend.Capability capability) {
        if (!backend().capabilities().contains(capability)) {
            throw new CapabilityMissing(capability, "backend " + backend().description() + " lacks capability "
                    + capability + " (provider '" + provider().name() + "')");
        }
    }

    @Override
    public String toString() {
        return getClass().getSimpleName() + "[provider '" + provider().name() + "']";
    }
}
