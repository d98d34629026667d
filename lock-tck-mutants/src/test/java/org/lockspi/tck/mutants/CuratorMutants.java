package org.lockspi.tck.mutants;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.lockspi.LockConnectionException;
import org.lockspi.curator.CuratorLockProvider;
import org.lockspi.spi.AcquireRequest;
import org.lockspi.spi.BackendEvents;
import org.lockspi.spi.LockBackend;
import org.lockspi.spi.LockKind;
import org.lockspi.spi.LockUri;

/** Broken variants of {@code curator}, each with one defect, injected at the SPI. */
public final class CuratorMutants {
    private CuratorMutants() {
    }

    /** The read half served by the write recipe ({@code writeLock()} where {@code readLock()} was meant). */
    public static final class ReadAsWrite extends ForwardingProvider {
        /** For ServiceLoader. */
        public ReadAsWrite() {
            super("mutant-curator-read-as-write", new CuratorLockProvider());
        }

        @Override
        protected AcquireRequest request(AcquireRequest request) {
            return request.kind() == LockKind.READ && request.heldWrite() == null
                    ? AcquireRequest.exclusive(LockKind.WRITE, request.name()) : request;
        }
    }

    /** The permits not passed on: every semaphore is built with one lease ({@code maxLeases} 1). */
    public static final class SemaphoreOnePermit extends ForwardingProvider {
        /** For ServiceLoader. */
        public SemaphoreOnePermit() {
            super("mutant-curator-semaphore-one-permit", new CuratorLockProvider());
        }

        @Override
        protected AcquireRequest request(AcquireRequest request) {
            return request.kind() == LockKind.SEMAPHORE ? AcquireRequest.semaphore(request.name(), 1) : request;
        }
    }

    /** close() forgets to close the Curator client: its session, its locks and its threads outlive the service. */
    public static final class CloseForgetsClient extends ForwardingProvider {
        /** The backends left open, closed by the run after its last test so the module's JVM stays clean. */
        static final List<LockBackend> FORGOTTEN = new CopyOnWriteArrayList<>();

        /** For ServiceLoader. */
        public CloseForgetsClient() {
            super("mutant-curator-close-forgets-client", new CuratorLockProvider());
        }

        @Override
        protected void close(LockBackend backend) {
            FORGOTTEN.add(backend);
        }

        /** Closes what the mutant forgot. */
        static void closeForgotten() {
            for (LockBackend backend : FORGOTTEN) {
                FORGOTTEN.remove(backend);
                backend.close();
            }
        }
    }

    /** open() retries an unreachable server (20 attempts, 500 ms apart) instead of failing at its connect timeout. */
    public static final class OpenRetries extends ForwardingProvider {
        /** For ServiceLoader. */
        public OpenRetries() {
            super("mutant-curator-open-retries", new CuratorLockProvider());
        }

        @Override
        public LockBackend open(LockUri uri, BackendEvents events) {
            for (int attempt = 1; ; attempt++) {
                try {
                    return super.open(uri, events);
                } catch (LockConnectionException e) {
                    if (attempt == 20) {
                        throw e;
                    }
                    try {
                        Thread.sleep(500);
                    } catch (InterruptedException interrupted) {
                        Thread.currentThread().interrupt();
                        throw e;
                    }
                }
            }
        }
    }
}
