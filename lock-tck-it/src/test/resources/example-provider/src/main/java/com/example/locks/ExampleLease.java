package com.example.locks;

import org.lockspi.spi.BackendLease;

/** One held lock on an {@link ExampleServer}. */
final class ExampleLease implements BackendLease {
    private final ExampleBackend client;
    private final String name;
    private final long token;
    private volatile boolean lost;

    ExampleLease(ExampleBackend client, String name, long token) {
        this.client = client;
        this.name = name;
        this.token = token;
    }

    ExampleBackend client() {
        return client;
    }

    String name() {
        return name;
    }

    @Override
    public long fencingToken() {
        return token;
    }

    @Override
    public boolean isLost() {
        return lost;
    }

    /** The server took the lock: says so, then tells the engine. */
    void lose() {
        lost = true;
        client.events().leaseLost(this);
    }

    @Override
    public void release() {
        client.server().release(this);
    }
}
