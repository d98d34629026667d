package org.lockspi;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Proxy;
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
        // a service that implements only isClosed and close (a proxy, so that methods added later need no code)
        boolean[] closed = {false};
        LockService plain = (LockService) Proxy.newProxyInstance(LockService.class.getClassLoader(),
                new Class<?>[] {LockService.class}, (proxy, method, args) -> switch (method.getName()) {
                    case "isClosed" -> closed[0];
                    case "close" -> {
                        closed[0] = true;
                        yield null;
                    }
                    default -> {
                        if (method.isDefault()) {
                            yield InvocationHandler.invokeDefault(proxy, method, args);
                        }
                        throw new UnsupportedOperationException(method.getName());
                    }
                });
        assertEquals(ConnectionState.CONNECTED, plain.connectionState());
        plain.close();
        assertEquals(ConnectionState.CLOSED, plain.connectionState());
    }
}
