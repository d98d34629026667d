package org.lockspi.tck.internal;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import java.util.function.IntFunction;
import java.util.stream.Collectors;
import org.lockspi.Acquirable;
import org.lockspi.Lease;
import org.lockspi.LockFeature;
import org.lockspi.LockInfo;
import org.lockspi.LockService;
import org.lockspi.spi.LockKeys;
import org.lockspi.tck.TckContext;

/**
 * Whether every two names of a family are two locks, for every kind (§2.11 to §2.14). Each kind gets the family under
 * a stem of its own ({@code <stem>-mutex}, ...), and all kinds run at once, in one pass:
 *
 * <ol>
 *   <li>client a acquires the even names of each kind, then client b the odd ones while a holds the even ones (each
 *       acquisition is a holder of its own, §4.2: two names of one client that share a lock are caught as well as
 *       two of different clients); each lease is held and carries its name;</li>
 *   <li>(INSPECTION) each name shows one holder, with the lease's token (FENCING_TOKENS), and, if asked,
 *       {@code list(stem)} shows exactly the names of every kind;</li>
 *   <li>a releases each even name and b acquires it, while b holds the odd ones: so every even name is acquired
 *       once before and once after the odd ones (a name whose state gets in the way of another is caught whichever
 *       comes first);</li>
 *   <li>a is refused every name, each held by b: each is a lock of its own;</li>
 *   <li>everything is released.</li>
 * </ol>
 *
 * Entries are split over eight threads, each the only one to acquire and release its names (a mutex is the
 * thread's). When a name is refused, the run releases everything and looks for the name that excludes it, so the
 * failure names both.
 */
public final class NameFamilyRun {
    private static final int SLICES = 8;

    private final TckContext tck;
    private final String family;
    private final String stem;
    private final List<Kind> kinds;
    /** One entry per kind and name: the kind, the name, its index in the kind's family. */
    private final List<Entry> entries = new ArrayList<>();
    private final Duration grant;
    private final boolean list;
    private final boolean inspection;
    private final boolean fencing;
    /** The lease held on each entry, or null; each is touched only by its slice's thread. */
    private final Lease[] held;
    private final List<Workers> slices = new ArrayList<>();

    private record Entry(Kind kind, String name, int index) {
    }

    /**
     * @param tck    the kit's context, for clients and the provider's features
     * @param kinds  the kinds to run the family for
     * @param family the family's name, for messages
     * @param stem   the prefix of every name, that no name of another run starts with; a kind's names start with
     *               {@code stem + "-" + kind}
     * @param names  the family under a kind's stem: distinct names, each starting with that stem
     * @param grant  how long an acquisition of a free lock may take
     * @param list   whether to check {@code list(stem)} too (INSPECTION): it walks every lock on the server
     */
    public NameFamilyRun(TckContext tck, List<Kind> kinds, String family, String stem,
                         Function<String, List<String>> names, Duration grant, boolean list) {
        this.tck = tck;
        this.kinds = List.copyOf(kinds);
        this.family = family;
        this.stem = stem;
        this.grant = grant;
        this.list = list;
        for (Kind kind : kinds) {
            List<String> ofKind = names.apply(stem + "-" + kind);
            for (int i = 0; i < ofKind.size(); i++) {
                entries.add(new Entry(kind, ofKind.get(i), i));
            }
        }
        this.inspection = tck.provider().features().contains(LockFeature.INSPECTION);
        this.fencing = tck.provider().features().contains(LockFeature.FENCING_TOKENS);
        this.held = new Lease[entries.size()];
    }

    /**
     * Runs the family; on the first phase that finds a problem, releases everything and fails.
     *
     * @throws InterruptedException if interrupted
     * @throws AssertionError       naming the phase, the names and, for a refusal, the name that excludes it
     */
    public void run() throws InterruptedException {
        LockService a = tck.openClient();
        LockService b = tck.openClient();
        for (int i = 0; i < Math.min(SLICES, entries.size()); i++) {
            slices.add(new Workers(1));
        }
        try {
            check("client a acquiring the even names", i -> even(i) ? grant(i, a) : null);
            check("client b acquiring the odd names while a holds the even ones", i -> even(i) ? null : grant(i, b));
            if (inspection) {
                check("(INSPECTION) inspecting every name, each held", i -> inspectHeld(i, a));
                if (list) {
                    listed(a);
                }
            }
            check("client b acquiring each even name after a released it, while b holds the odd ones",
                    i -> even(i) ? () -> {
                        release(i).call();
                        return grant(i, b).call();
                    } : null);
            check("client a trying every name, each held by b", i -> refuse(i, a, "b"));
            check("releasing every name", this::release);
        } finally {
            try {
                releaseQuietly();
            } finally {
                slices.forEach(Workers::close);
            }
        }
    }

    private boolean even(int i) {
        return entries.get(i).index % 2 == 0;
    }

    /** A name's problem in a phase. */
    private record Problem(int entry, boolean refused, String what) {
    }

    /**
     * Runs a step for every entry, each on its slice's thread, and fails if any step found a problem: first the two
     * names that share a lock, if a refusal shows it, then the phase and the first problems.
     */
    private void check(String phase, IntFunction<Callable<Problem>> step) throws InterruptedException {
        List<Problem> problems = all(step, true);
        if (problems.isEmpty()) {
            return;
        }
        releaseQuietly();
        Entry first = entries.get(problems.get(0).entry);
        StringBuilder message = new StringBuilder(first.kind + ": ");
        problems.stream().filter(Problem::refused).findFirst().ifPresent(p -> message.append(excluder(p.entry))
                .append("; seen "));
        message.append("while ").append(phase).append(", with the family '").append(family).append("' (")
                .append(entries.size() / kinds.size()).append(" names under '").append(stem).append('-')
                .append(first.kind).append("'): ").append(problems.size() == 1 ? "1 name failed"
                        : problems.size() + " names failed (of every kind; each thread stops at its first)");
        for (Problem p : problems.subList(0, Math.min(3, problems.size()))) {
            message.append("; ").append(describe(entries.get(p.entry).name)).append(": ").append(p.what);
        }
        throw new AssertionError(message.toString());
    }

    /**
     * @param stop whether to stop at the first problem (every thread stops before its next entry): a failing run
     *             then waits for one refused acquisition per thread, not for one per name
     * @return the problems of a step run for every entry, in the entries' order
     */
    private List<Problem> all(IntFunction<Callable<Problem>> step, boolean stop) throws InterruptedException {
        AtomicBoolean failed = new AtomicBoolean();
        List<Future<List<Problem>>> futures = new ArrayList<>();
        for (int s = 0; s < slices.size(); s++) {
            int slice = s;
            futures.add(slices.get(s).submit(() -> {
                List<Problem> found = new ArrayList<>();
                for (int i = slice; i < entries.size() && !(stop && failed.get()); i += slices.size()) {
                    Callable<Problem> work = step.apply(i);
                    Problem p = work == null ? null : work.call();
                    if (p != null) {
                        found.add(p);
                        failed.set(true);
                    }
                }
                return found;
            }));
        }
        List<Problem> problems = new ArrayList<>();
        for (Future<List<Problem>> future : futures) {
            try {
                problems.addAll(future.get());
            } catch (ExecutionException e) {
                throw new AssertionError("the family '" + family + "': " + e.getCause(), e.getCause());
            }
        }
        problems.sort((x, y) -> Integer.compare(x.entry, y.entry));
        return problems;
    }

    private Callable<Problem> grant(int i, LockService client) {
        return () -> {
            Entry entry = entries.get(i);
            Acquirable lock = entry.kind.of(client, entry.name);
            if (!entry.name.equals(lock.name())) {
                return new Problem(i, false, "name() returned " + NameSamples.show(lock.name()));
            }
            Optional<Lease> lease = lock.tryAcquire(grant);
            if (lease.isEmpty()) {
                return new Problem(i, true, "refused for " + grant.toMillis() + " ms, though no client holds it");
            }
            held[i] = lease.get();
            if (!entry.name.equals(lease.get().lockName())) {
                return new Problem(i, false, "lockName() returned " + NameSamples.show(lease.get().lockName()));
            }
            return lease.get().isHeld() ? null : new Problem(i, false, "acquired, but " + lease.get().state());
        };
    }

    private Callable<Problem> refuse(int i, LockService client, String holder) {
        return () -> {
            Entry entry = entries.get(i);
            Optional<Lease> lease = entry.kind.of(client, entry.name).tryAcquire();
            if (lease.isEmpty()) {
                return null;
            }
            lease.get().release();
            return new Problem(i, false, "acquired while client " + holder + " holds it: not a lock of its own");
        };
    }

    private Callable<Problem> release(int i) {
        return () -> {
            Lease lease = held[i];
            held[i] = null;
            if (lease != null) {
                lease.release();
            }
            return null;
        };
    }

    private Callable<Problem> inspectHeld(int i, LockService observer) {
        return () -> {
            LockInfo info = observer.inspect(entries.get(i).name);
            if (info.holders().size() != 1) {
                return new Problem(i, false, "inspect shows " + info.holders().size() + " holders, not 1: " + info);
            }
            long token = held[i].fencingToken();
            if (fencing && info.holders().get(0).fencingToken().orElse(token + 1) != token) {
                return new Problem(i, false, "inspect shows the token " + info.holders().get(0).fencingToken()
                        + ", the lease has " + token + ": another name's holder");
            }
            return null;
        };
    }

    /** Asserts that {@code list(stem)}, with every name held, is exactly the names of every kind, sorted. */
    private void listed(LockService observer) {
        List<String> listed = observer.list(stem);
        List<String> expected = List.copyOf(entries.stream().map(Entry::name).collect(Collectors.toCollection(
                TreeSet::new)));
        if (!listed.equals(expected)) {
            List<String> missing = new ArrayList<>(expected);
            missing.removeAll(listed);
            List<String> extra = new ArrayList<>(listed);
            extra.removeAll(expected);
            releaseQuietly();
            throw new AssertionError("the family '" + family + "': list('" + stem + "'), with each of its "
                    + expected.size() + " names held, lacks " + missing.size() + " " + shown(missing) + " and shows "
                    + extra.size() + " more " + shown(extra));
        }
    }

    /** Releases every lease still held, each on its own thread, ignoring failures: a failed run's clean-up. */
    private void releaseQuietly() {
        try {
            all(i -> () -> {
                try {
                    release(i).call();
                } catch (Exception | AssertionError e) {
                    // the run has failed already; the kit closes the clients after the test
                }
                return null;
            }, false);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * With the family released, looks for the name whose lock excludes a refused one: one that the refused name
     * excludes when held first, or, if none, one that excludes it when held first.
     */
    private String excluder(int refused) {
        Entry y = entries.get(refused);
        List<String> others = entries.stream().filter(e -> e.kind == y.kind && !e.name.equals(y.name))
                .map(Entry::name).collect(Collectors.toList());
        LockService d = tck.openClient();
        LockService e = tck.openClient();
        try {
            Optional<Lease> alone = y.kind.of(d, y.name).tryAcquire(grant);
            if (alone.isEmpty()) {
                return describe(y.name) + " is refused even with every other name of the family released: state "
                        + "another name left on the server excludes it";
            }
            try (Lease ignored = alone.get()) {
                for (String x : others) {
                    Optional<Lease> other = y.kind.of(e, x).tryAcquire();
                    if (other.isEmpty()) {
                        return shareALock(y.name, x);
                    }
                    other.get().release();
                }
            }
            for (String x : others) {
                Optional<Lease> first = y.kind.of(e, x).tryAcquire(grant);
                if (first.isEmpty()) {
                    continue;
                }
                try (Lease ignored = first.get()) {
                    Optional<Lease> then = y.kind.of(d, y.name).tryAcquire();
                    if (then.isEmpty()) {
                        return shareALock(x, y.name);
                    }
                    then.get().release();
                }
            }
            return "no other name of the family alone excludes " + describe(y.name);
        } catch (InterruptedException ie) {
            Thread.currentThread().interrupt();
            return "(interrupted while looking for the name that excludes it)";
        } catch (RuntimeException ex) {
            return "(looking for the name that excludes it failed: " + ex + ")";
        }
    }

    private static String shareALock(String first, String second) {
        int at = 0;
        while (at < first.length() && at < second.length() && first.charAt(at) == second.charAt(at)) {
            at++;
        }
        return describe(first) + " and " + describe(second) + " share a lock: holding the first excludes the "
                + "second; the names first differ at index " + at;
    }

    private static String describe(String name) {
        String key = LockKeys.key(name);
        return NameSamples.show(name) + (key.equals(name) ? "" : " (key " + NameSamples.show(key) + ")");
    }

    private static String shown(List<String> names) {
        return names.stream().limit(3).map(NameSamples::show).collect(Collectors.joining(", ", "[",
                names.size() > 3 ? ", ...]" : "]"));
    }
}
