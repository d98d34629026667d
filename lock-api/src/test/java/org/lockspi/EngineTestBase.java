package org.lockspi;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.lockspi.fixture.MemoryBackend;
import org.lockspi.fixture.MemoryProvider;

/** One service on an in-memory backend with every feature; more clients on the same server on demand. */
abstract class EngineTestBase {
    MemoryProvider provider;
    LockService service;
    MemoryBackend backend;
    private final List<LockService> others = new ArrayList<>();

    @BeforeEach
    void openService() {
        provider = MemoryProvider.full("engine");
        service = Locks.open("mem://engine/test", provider);
        backend = provider.lastBackend();
    }

    @AfterEach
    void closeServices() {
        service.close();
        others.forEach(LockService::close);
    }

    /**
     * Opens {@link #service} again with a {@code failFast} so long that an acquisition under way when the connection
     * is suspended is not cut (spec §16.3): its grant then comes while suspended.
     */
    void reopenWithoutFailFastCut() {
        service.close();
        service = Locks.open("mem://engine/test?failFast=1h", provider);
        backend = provider.lastBackend();
    }

    /** @return another client of the same server */
    LockService otherClient() {
        LockService s = Locks.open("mem://engine/test", provider);
        others.add(s);
        return s;
    }

    /** Runs in a new thread and returns its result, or rethrows what it threw. */
    static <T> T inOtherThread(Callable<T> task) throws Throwable {
        FutureTask<T> f = new FutureTask<>(task);
        Thread t = new Thread(f, "other");
        t.start();
        try {
            return f.get(5, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            throw e.getCause();
        } catch (TimeoutException e) {
            t.interrupt();
            throw e;
        }
    }

    /** Starts a task in a new thread; get() its result later. */
    static <T> FutureTask<T> start(String name, Callable<T> task) {
        FutureTask<T> f = new FutureTask<>(task);
        Thread t = new Thread(f, name);
        t.setDaemon(true);
        t.start();
        return f;
    }

    static <T> T await(FutureTask<T> f) throws Throwable {
        try {
            return f.get(5, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            throw e.getCause();
        }
    }
}
