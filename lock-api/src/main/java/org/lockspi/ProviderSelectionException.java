package org.lockspi;

/**
 * No provider, or more than one equally preferred provider, can serve a URI; or a named provider is not
 * installed. The message lists the installed providers, their schemes and how to pick one.
 */
public class ProviderSelectionException extends LockException {
    private static final long serialVersionUID = 1L;

    /** @param message what could not be chosen, and what is installed */
    public ProviderSelectionException(String message) {
        super(message);
    }
}
