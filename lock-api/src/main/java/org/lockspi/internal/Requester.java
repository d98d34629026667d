package org.lockspi.internal;

import java.util.Objects;

/** Who asks for a revocation (spec §27): checked, and this process's own name when none is given. */
public final class Requester {
    /** The longest requester name. */
    static final int MAX_LENGTH = 200;

    private static volatile String thisProcess;

    private Requester() {
    }

    /**
     * @return {@code user@host pid N} of this process, computed once (the host name from the local resolver, or
     *         {@code localhost} if it has none)
     */
    public static String ofThisProcess() {
        String self = thisProcess;
        if (self == null) {
            String host;
            try {
                host = java.net.InetAddress.getLocalHost().getHostName();
            } catch (java.io.IOException | SecurityException e) {
                host = "localhost";
            }
            self = System.getProperty("user.name", "unknown") + "@" + host + " pid " + ProcessHandle.current().pid();
            thisProcess = self.length() > MAX_LENGTH ? self.substring(0, MAX_LENGTH) : self;
        }
        return thisProcess;
    }

    /**
     * @param requestedBy who asks
     * @return it
     * @throws NullPointerException     if it is null
     * @throws IllegalArgumentException if it is blank, longer than 200 characters or has a line break
     */
    static String check(String requestedBy) {
        Objects.requireNonNull(requestedBy, "requestedBy is null");
        if (requestedBy.isBlank()) {
            throw new IllegalArgumentException("requestedBy is blank: '" + requestedBy + "'");
        }
        if (requestedBy.length() > MAX_LENGTH) {
            throw new IllegalArgumentException("requestedBy longer than " + MAX_LENGTH + " characters: "
                    + requestedBy.length());
        }
        if (requestedBy.chars().anyMatch(c -> c == '\n' || c == '\r' || Character.isISOControl(c))) {
            throw new IllegalArgumentException("requestedBy has a line break or control character: '"
                    + requestedBy.replaceAll("\\p{Cntrl}", "?") + "'");
        }
        return requestedBy;
    }
}
