package org.lockspi.tck.internal;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.lockspi.LockService;
import org.lockspi.leader.LeaderListener;
import org.lockspi.leader.Leadership;
import org.lockspi.leader.Participant;
import org.lockspi.leader.StopReason;
import org.lockspi.leader.Term;

/**
 * The participants of one leadership contract and what their listeners were told, in one queue, in order. Each
 * participant acts as a leader would: when elected it reports {@code ACQUIRED} to the {@link FencedRegister} and
 * writes with its term's token (only while the term is active); when told to stop it reports {@code ENDED}. So the
 * register's intervals are the spans in which each participant acted as the leader, from its {@code elected} to
 * its {@code stopLeading} callback, and two leaders acting at once show as an overlap.
 *
 * <p>{@link #close()} closes every participant it joined; idempotent.
 */
public final class LeaderCalls implements AutoCloseable {

    /**
     * One callback.
     *
     * @param client the participant's id
     * @param what   {@code elected} or {@code stop}
     * @param term   the term
     * @param reason why it ended ({@code stop} only)
     * @param at     when the callback ran ({@link System#nanoTime()})
     */
    public record Call(String client, String what, Term term, StopReason reason, long at) {
        /** @return whether this is an election */
        public boolean elected() {
            return what.equals("elected");
        }

        @Override
        public String toString() {
            return client + " " + what + " #" + term.fencingToken() + (reason == null ? "" : " " + reason);
        }
    }

    private final FencedRegister register;
    private final BlockingQueue<Call> calls = new LinkedBlockingQueue<>();
    private final List<Call> history = new ArrayList<>(); // guarded by itself
    private final List<Participant> joined = new ArrayList<>(); // guarded by itself

    /** @param register where leaders report and write */
    public LeaderCalls(FencedRegister register) {
        this.register = register;
    }

    /**
     * Joins the election with a listener that reports here.
     *
     * @param service  the participant's client
     * @param election the election
     * @param id       the participant's id
     * @return the participant, closed by {@link #close()}
     */
    public Participant join(LockService service, String election, String id) {
        return join(service, election, id, Leadership.DEFAULT_REJOIN_DELAY);
    }

    /**
     * Joins the election with a listener that reports here and a rejoin delay.
     *
     * @param service     the participant's client
     * @param election    the election
     * @param id          the participant's id
     * @param rejoinDelay how long it waits after a step-down before it asks again
     * @return the participant, closed by {@link #close()}
     */
    public Participant join(LockService service, String election, String id, Duration rejoinDelay) {
        Participant p = Leadership.builder(service, election, id).listener(listener(id)).rejoinDelay(rejoinDelay)
                .join();
        synchronized (joined) {
            joined.add(p);
        }
        return p;
    }

    /**
     * @param client the participant's id
     * @return a listener that reports to the register and queues its calls here
     */
    public LeaderListener listener(String client) {
        return new LeaderListener() {
            @Override
            public void elected(Term term) {
                register.acquired(client, term.fencingToken());
                if (term.isActive()) {
                    register.write(client, term.fencingToken()); // a guarded write, as a leader acts
                }
                add(new Call(client, "elected", term, null, System.nanoTime()));
            }

            @Override
            public void stopLeading(Term term, StopReason reason) {
                register.ended(client, term.fencingToken(), reason.name());
                add(new Call(client, "stop", term, reason, System.nanoTime()));
            }
        };
    }

    private void add(Call call) {
        synchronized (history) {
            history.add(call);
        }
        calls.add(call);
    }

    /**
     * @param timeout how long to wait
     * @return the next call of any participant
     * @throws AssertionError if none comes in time; the message lists every call so far
     */
    public Call next(Duration timeout) throws InterruptedException {
        Call c = calls.poll(timeout.toNanos(), TimeUnit.NANOSECONDS);
        if (c == null) {
            throw new AssertionError("no leadership callback within " + timeout.toMillis() + " ms; so far: "
                    + history());
        }
        return c;
    }

    /**
     * @param timeout how long to wait
     * @return the next call, or null if none comes in time
     */
    public Call poll(Duration timeout) throws InterruptedException {
        return calls.poll(timeout.toNanos(), TimeUnit.NANOSECONDS);
    }

    /** @return every call so far, in order */
    public List<Call> history() {
        synchronized (history) {
            return List.copyOf(history);
        }
    }

    @Override
    public void close() {
        List<Participant> all;
        synchronized (joined) {
            all = new ArrayList<>(joined);
            joined.clear();
        }
        all.forEach(Participant::close);
    }
}
