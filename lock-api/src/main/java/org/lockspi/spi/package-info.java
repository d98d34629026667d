/**
 * The provider SPI: what a lock backend implements to be found by {@link java.util.ServiceLoader} and used through
 * the API. A provider implements {@link org.lockspi.spi.LockProvider} (its name, version, schemes, declared
 * {@link org.lockspi.LockFeature features} and URI parameters, registered in
 * {@code META-INF/services/org.lockspi.spi.LockProvider}), a {@link org.lockspi.spi.LockBackend} per service, and a
 * {@link org.lockspi.spi.BackendLease} per grant; it reports connection changes and lost leases through
 * {@link org.lockspi.spi.BackendEvents}.
 *
 * <p>The engine in front of it checks every argument and name, keeps reentrancy and ownership per thread,
 * refuses upgrades, and works out lease state from the backend's events and deadlines, so a backend implements
 * only a few primitives: acquire with a {@link org.lockspi.spi.Deadline}, release, and say whether a grant is
 * lost. Each type states which threads call it and what it may block on; {@code docs/provider-guide.md} walks a
 * provider author from an empty project to a conformance report.
 */
package org.lockspi.spi;
