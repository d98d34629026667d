package org.lockspi.zookeeper.recipe.internal;

/**
 * Our node's session is gone (or our node was deleted): the acquisition starts again in the next session. Thrown
 * without a stack trace, as a signal between the parts of the recipe; it never leaves the backend.
 */
final class SessionLost extends Exception {
    private static final long serialVersionUID = 1L;
    static final SessionLost INSTANCE = new SessionLost();

    private SessionLost() {
        super("session lost", null, false, false);
    }
}
