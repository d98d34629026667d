package org.lockspi.micrometer.internal;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Function;
import org.lockspi.AsyncAcquirable;
import org.lockspi.Lease;
import org.lockspi.LockTimeoutException;
import org.lockspi.micrometer.internal.LockMeters.Outcome;

/**
 * A metered lock whose leases belong to no thread, with its asynchronous acquisitions timed as the blocking ones
 * are. The future handed out is the view's own: when the caller ends it first (cancel, complete, a timeout of its
 * own), the wrapped acquisition is cancelled, and a lease granted in the race is released, as the engine does.
 */
class MeteredAsyncAcquirable<A extends AsyncAcquirable> extends MeteredAcquirable<A> implements AsyncAcquirable {

    MeteredAsyncAcquirable(A delegate, LockMeters meters, boolean notifies) {
        super(delegate, meters, notifies);
    }

    @Override
    public CompletableFuture<Lease> acquireAsync(Duration timeout) {
        long start = System.nanoTime();
        return relay(delegate.acquireAsync(timeout), start, lease -> Outcome.ACQUIRED, this::metered,
                Lease::release);
    }

    @Override
    public CompletableFuture<Optional<Lease>> tryAcquireAsync(Duration timeout) {
        long start = System.nanoTime();
        return relay(delegate.tryAcquireAsync(timeout), start,
                lease -> lease.isPresent() ? Outcome.ACQUIRED : Outcome.TIMED_OUT,
                lease -> lease.map(this::metered), lease -> lease.ifPresent(Lease::release));
    }

    private <T> CompletableFuture<T> relay(CompletableFuture<T> source, long start, Function<T, Outcome> outcome,
            Function<T, T> wrap, java.util.function.Consumer<T> release) {
        CompletableFuture<T> result = new CompletableFuture<>();
        source.whenComplete((value, failure) -> {
            if (failure != null) {
                Throwable cause = failure instanceof CompletionException && failure.getCause() != null
                        ? failure.getCause() : failure;
                meters().attempt(outcomeOf(cause), start);
                result.completeExceptionally(cause);
                return;
            }
            meters().attempt(outcome.apply(value), start);
            T wrapped = wrap.apply(value);
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

    private static Outcome outcomeOf(Throwable failure) {
        if (failure instanceof LockTimeoutException) {
            return Outcome.TIMED_OUT;
        }
        if (failure instanceof CancellationException || failure instanceof InterruptedException) {
            return Outcome.INTERRUPTED;
        }
        return Outcome.FAILED;
    }
}
