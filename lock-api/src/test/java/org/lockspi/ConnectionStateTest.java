package org.lockspi;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** {@link LockService#connectionState()} follows the backend's connection events, and close. */
class ConnectionStateTest extends EngineTestBase {

    @Test
    void followsSuspensionRestorationAndClose() throws Exception {
        assertEquals(ConnectionState.CONNECTED, service.connectionState());
        Lease lease = service.mutex("m").acquire();
        backend.events().connectionSuspended();
        assertEquals(ConnectionState.SUSPENDED, service.connectionState());
        assertEquals(LeaseState.UNCERTAIN, lease.state(), "the lease follows the same event");
        backend.events().connectionRestored();
        assertEquals(ConnectionState.CONNECTED, service.connectionState());
        assertEquals(LeaseState.HELD, lease.state());
        backend.events().connectionSuspended();
        service.close();
        assertEquals(ConnectionState.CLOSED, service.connectionState(), "closed wins over suspended");
        service.close();
        assertEquals(ConnectionState.CLOSED, service.connectionState());
    }

    @Test
    void defaultForServicesWithoutEvents() {
        LockService plain = new LockService() {
            private boolean closed;

            @Override
            public DistributedLock mutex(String name) {
                throw new UnsupportedOperationException();
            }

            @Override
            public Acquirable nonReentrantMutex(String name) {
                throw new UnsupportedOperationException();
            }

            @Override
            public ReadWriteLock readWriteLock(String name) {
                throw new UnsupportedOperationException();
            }

            @Override
            public Semaphore semaphore(String name, int permits) {
                throw new UnsupportedOperationException();
            }

            @Override
            public String providerName() {
                return "plain";
            }

            @Override
            public java.util.Set<LockFeature> features() {
                return java.util.Set.of();
            }

            @Override
            public boolean isClosed() {
                return closed;
            }

            @Override
            public void close() {
                closed = true;
            }
        };
        assertEquals(ConnectionState.CONNECTED, plain.connectionState());
        plain.close();
        assertEquals(ConnectionState.CLOSED, plain.connectionState());
    }
}
