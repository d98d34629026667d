package org.lockspi.micrometer.internal;

import java.time.Duration;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.BiFunction;
import java.util.function.Consumer;
import org.lockspi.AsyncAcquirable;
import org.lockspi.Lease;

/**
 * An instrumented lock whose leases belong to no thread, with its asynchronous acquisitions told to the probe as the
 * blocking ones are. The future handed out is the view's own: when the caller ends it first (cancel, complete, a
 * timeout of its own), the wrapped acquisition is cancelled, and a lease granted in the race is released, as the
 * engine does.
 */
class InstrumentedAsyncAcquirable<A extends AsyncAcquirable> extends InstrumentedAcquirable<A>
        implements AsyncAcquirable {

    InstrumentedAsyncAcquirable(A delegate, LockProbe probe, boolean notifies, Set<InstrumentedLease> open) {
        super(delegate, probe, notifies, open);
    }

    @Override
    public AsyncAcquirable withLeaseTime(Duration leaseTime) {
        return new InstrumentedAsyncAcquirable<>(delegate.withLeaseTime(leaseTime), probe, notifies, open);
    }

    @Override
    public CompletableFuture<Lease> acquireAsync(Duration timeout) {
        LockProbe.Attempt attempt = attempt();
        return relay(delegate.acquireAsync(timeout), attempt, (lease, a) -> wrap(lease, a), Lease::release);
    }

    @Override
    public CompletableFuture<Optional<Lease>> tryAcquireAsync(Duration timeout) {
        LockProbe.Attempt attempt = attempt();
        return relay(delegate.tryAcquireAsync(timeout), attempt, (lease, a) -> {
            if (lease.isEmpty()) {
                a.ended(Outcome.TIMED_OUT, null);
                return lease;
            }
            return Optional.of(wrap(lease.get(), a));
        }, lease -> lease.ifPresent(Lease::release));
    }

    private static <T> CompletableFuture<T> relay(CompletableFuture<T> source, LockProbe.Attempt attempt,
                                                  BiFunction<T, LockProbe.Attempt, T> wrap, Consumer<T> release) {
        CompletableFuture<T> result = new CompletableFuture<>();
        source.whenComplete((value, failure) -> {
            if (failure != null) {
                Throwable cause = failure instanceof CompletionException && failure.getCause() != null
                        ? failure.getCause() : failure;
                attempt.ended(Outcome.of(cause), cause);
                result.completeExceptionally(cause);
                return;
            }
            T wrapped = wrap.apply(value, attempt);
            if (!result.complete(wrapped)) {
                release.accept(wrapped); // the caller ended the future first: the grant is nobody's
            }
        });
        result.whenComplete((value, failure) -> {
            if (!source.isDone()) {
                source.cancel(true); // ends the wrapped wait; nothing is left on the server
            }
        });
        return result;
    }
}
