/**
 * Backends in containers, for server versions other than the embedded ones: Redis and ZooKeeper images run by
 * Testcontainers. They need {@code org.testcontainers:testcontainers} on the test class path (an optional
 * dependency of the kit) and a Docker engine; a test class using them should carry
 * {@code @Testcontainers(disabledWithoutDocker = true)} so that it is skipped, with that reason, where none
 * runs.
 */
package org.lockspi.tck.containers;
